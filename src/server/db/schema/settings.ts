import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Settings (modules/settings): one JSON value per key, read and written through its service. */

/** Site-wide switches an admin can flip at runtime (e.g. maintenance mode). */
export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
