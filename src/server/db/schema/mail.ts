import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Outgoing mail. Every message is written here first (outbox), then sent over SMTP, or, with no
 * SMTP_URL, kept as the development mailbox. A failed send stays 'pending' with a later
 * next_attempt_at until it is sent or gives up as 'failed' — never silently dropped.
 */
export const mailMessages = pgTable(
  'mail_messages',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    /** What the mail is for: verify-email, reset-password, … */
    kind: text('kind').notNull(),
    links: jsonb('links').$type<string[]>().notNull().default([]),
    /** 'pending' (to send or retry), 'sent' (SMTP accepted it), 'stored' (dev mailbox), 'failed'. */
    status: text('status', { enum: ['pending', 'sent', 'stored', 'failed'] }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('mail_messages_to_idx').on(t.to, t.createdAt),
    index('mail_messages_pending_idx').on(t.status, t.nextAttemptAt),
  ],
);
