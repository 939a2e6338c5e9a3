import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * Platform (modules/platform): request plumbing every module relies on. Written by src/server/lib
 * (rate-limit.ts, idempotency.ts) and the prune job; the modules reach them through those helpers.
 */

/**
 * Fixed-window counters shared by every app process (sign-in, monitoring, mail resend…).
 * Kept in the database so a limit holds however many processes serve traffic.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  },
  // The prune (jobs/prune.ts) finds windows that ended long ago by this.
  (t) => [index('rate_limits_window_start_idx').on(t.windowStart)],
);

/** Stored first responses of money-moving requests (src/server/lib/idempotency.ts). */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: text('user_id').notNull(),
    key: text('key').notNull(),
    /** sha256 of method, route and canonical body. */
    requestHash: text('request_hash').notNull(),
    responseStatus: integer('response_status'),
    responseBody: jsonb('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('idempotency_keys_user_key_uq').on(t.userId, t.key),
    index('idempotency_keys_created_idx').on(t.createdAt),
  ],
);
