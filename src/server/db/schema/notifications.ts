import { sql } from 'drizzle-orm';
import { bigint, boolean, index, jsonb, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { NOTIFICATION_KINDS } from '../../../shared/contracts/notifications.ts';
import { user } from './auth.ts';

/**
 * Notifications (modules/notifications, issue 17): the in-app inbox and each user's choice of
 * channel per kind. Every feature tells a user something through `notify()`, the only writer.
 */

export const notificationKind = pgEnum('notification_kind', NOTIFICATION_KINDS);

export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    kind: notificationKind('kind').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** Path inside the app this is about (/collect, /daily-drop/…); null when nothing to open. */
    link: text('link'),
    /** Small facts for the renderer (ids, cents); never a secret. */
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    /** Makes a repeated notify (a retried job, a redelivered webhook) a no-op. */
    dedupeKey: text('dedupe_key'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notifications_user_created_idx').on(t.userId, t.createdAt),
    index('notifications_unread_idx').on(t.userId).where(sql`${t.readAt} is null`),
    uniqueIndex('notifications_dedupe_uq').on(t.userId, t.dedupeKey),
    index('notifications_created_idx').on(t.createdAt),
  ],
);

/** A user's override of a kind's default channels; no row = the kind's defaults. */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    kind: notificationKind('kind').notNull(),
    inApp: boolean('in_app').notNull(),
    email: boolean('email').notNull(),
    /** big_pull only: a pull worth at least this is "big" for this user. */
    thresholdCents: bigint('threshold_cents', { mode: 'number' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);
