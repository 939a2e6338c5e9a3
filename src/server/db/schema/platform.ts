import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Site-wide switches an admin can flip at runtime (e.g. maintenance mode). */
export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Browser error reports received at /monitoring when no SENTRY_DSN is configured. */
export const monitoringReports = pgTable(
  'monitoring_reports',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    eventId: text('event_id'),
    level: text('level'),
    message: text('message'),
    envelope: text('envelope').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('monitoring_reports_created_idx').on(t.createdAt)],
);

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

/**
 * One row per scheduled job (jobs/scheduler.ts): when a run was last claimed and finished, so a
 * job runs once per interval however many app processes share the database.
 */
export const jobRuns = pgTable('job_runs', {
  name: text('name').primaryKey(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
});
