import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The admin dashboard's rollups (issue 18, modules/dashboard). Filled by a scheduled job from the
 * ledger, openings and users, never by the write paths; the dashboard answers from these for the
 * hours already rolled and reads only the raw rows after `rolled_until`. All rebuildable from
 * scratch (rebuildRollup): nothing here is a source of truth.
 */

/**
 * Sums per hour. `metric` names what is summed and `k1`/`k2` its dimensions:
 * - 'ledger': k1 = house account kind, k2 = journal entry kind; sum = Σ postings.amount_cents.
 * - 'opens':  k1 = product id; n = openings, sum = card value pulled, sum2 = price paid.
 * - 'signups': n = users created.
 */
export const dashboardHourly = pgTable(
  'dashboard_hourly',
  {
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    metric: text('metric').notNull(),
    k1: text('k1').notNull().default(''),
    k2: text('k2').notNull().default(''),
    n: bigint('n', { mode: 'number' }).notNull().default(0),
    sum: bigint('sum', { mode: 'number' }).notNull().default(0),
    sum2: bigint('sum2', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.hour, t.metric, t.k1, t.k2] })],
);

/** Who was active in which hour (distinct counts over any range cannot be summed from totals). */
export const dashboardActiveHourly = pgTable(
  'dashboard_active_hourly',
  {
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    userId: text('user_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.hour, t.userId] })],
);

/**
 * The same sums per UTC day, for the days that are wholly rolled (day + 1 day ≤ `rolled_until`):
 * rolled from `dashboard_hourly` in the same transaction, so a long range reads days and only
 * its edge hours.
 */
export const dashboardDaily = pgTable(
  'dashboard_daily',
  {
    day: timestamp('day', { withTimezone: true }).notNull(),
    metric: text('metric').notNull(),
    k1: text('k1').notNull().default(''),
    k2: text('k2').notNull().default(''),
    n: bigint('n', { mode: 'number' }).notNull().default(0),
    sum: bigint('sum', { mode: 'number' }).notNull().default(0),
    sum2: bigint('sum2', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.metric, t.k1, t.k2] })],
);

/** Who was active on which wholly rolled UTC day (from `dashboard_active_hourly`). */
export const dashboardActiveDaily = pgTable(
  'dashboard_active_daily',
  {
    day: timestamp('day', { withTimezone: true }).notNull(),
    userId: text('user_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.userId] })],
);

/**
 * Each user's active days (from `dashboard_active_daily`) as one sorted array of day numbers
 * (days since 1970-01-01 UTC), so "active in any of these whole days" is two binary searches
 * (`width_bucket`) on one row per user instead of a distinct count over every (day, user) row of
 * the range: a year is ~280,000 such rows, and only ~20,000 users. `last_day` lets a range skip
 * users not active since it started.
 */
export const dashboardUserDays = pgTable(
  'dashboard_user_days',
  {
    userId: text('user_id').primaryKey(),
    lastDay: integer('last_day').notNull(),
    days: integer('days').array().notNull(),
  },
  (t) => [index('dashboard_user_days_last_idx').on(t.lastDay)],
);

/** One row: every hour before `rolled_until` is in the rollups. */
export const dashboardRollupState = pgTable(
  'dashboard_rollup_state',
  {
    id: integer('id').primaryKey().default(1),
    rolledUntil: timestamp('rolled_until', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('dashboard_rollup_state_one_row', sql`${t.id} = 1`)],
);

/**
 * `postings_seq` is the last value of the postings' sequence read just before `taken_at`: every
 * posting of a transaction that began at or after `taken_at` has a larger seq. So "postings since
 * time X" is an index range scan from the latest mark taken at or before X instead of a scan of
 * the journal by time (which has no index, and gets none: it is write-hot).
 */
export const dashboardSeqMarks = pgTable('dashboard_seq_marks', {
  takenAt: timestamp('taken_at', { withTimezone: true }).primaryKey(),
  postingsSeq: bigint('postings_seq', { mode: 'number' }).notNull(),
});
