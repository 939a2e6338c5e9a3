import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Jobs (src/server/jobs, infrastructure): one row per scheduled run, for the single-runner lock and its history. */

/**
 * One row per scheduled job (jobs/scheduler.ts): when a run was last claimed and finished, so a
 * job runs once per interval however many app processes share the database.
 */
export const jobRuns = pgTable('job_runs', {
  name: text('name').primaryKey(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
});
