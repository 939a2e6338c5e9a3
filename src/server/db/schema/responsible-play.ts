import { sql } from 'drizzle-orm';
import { bigint, index, pgEnum, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth.ts';

/** Responsible play (modules/responsible-play): deposit limits and self-exclusions. */

const cents = (name: string) => bigint(name, { mode: 'number' });

export const limitPeriod = pgEnum('deposit_limit_period', ['day', 'week', 'month']);

/**
 * Responsible play: one row per user and period. A lower limit replaces `limitCents` at once;
 * a higher one (or removing it) waits in `pending*` until `pendingEffectiveAt`.
 */
export const depositLimits = pgTable(
  'deposit_limits',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    period: limitPeriod('period').notNull(),
    limitCents: cents('limit_cents'),
    pendingLimitCents: cents('pending_limit_cents'),
    pendingEffectiveAt: timestamp('pending_effective_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.period] })],
);

export const selfExclusions = pgTable(
  'self_exclusions',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    duration: text('duration').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull().defaultNow(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('self_exclusions_user_ends_idx').on(t.userId, t.endsAt)],
);
