import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Monitoring (modules/monitoring): browser error reports kept when no Sentry DSN is set. */

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
