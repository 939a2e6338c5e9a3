import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth.ts';

/** Payments (modules/payments): deposits through a provider, and the provider's events. */

const cents = (name: string) => bigint(name, { mode: 'number' });

export const depositStatus = pgEnum('deposit_status', ['pending', 'succeeded', 'failed', 'refunded']);

export const deposits = pgTable(
  'deposits',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    amountCents: cents('amount_cents').notNull(),
    currency: text('currency').notNull(),
    /** Promo bonus credited with this deposit (deposit_bonus codes). */
    bonusCents: cents('bonus_cents').notNull().default(0),
    refundedCents: cents('refunded_cents').notNull().default(0),
    status: depositStatus('status').notNull().default('pending'),
    provider: text('provider').notNull(),
    testMode: boolean('test_mode').notNull(),
    /** Stripe Checkout Session id (null for the sandbox). */
    providerRef: text('provider_ref'),
    /** Stripe PaymentIntent id, used to match charge.refunded. */
    paymentIntentId: text('payment_intent_id'),
    /**
     * Who paid, as the provider identifies them (Stripe: the card fingerprint, else the customer
     * id; sandbox: a hash of the test card). Referrals refuse a friend who pays like the referrer.
     */
    payerFingerprint: text('payer_fingerprint'),
    failureReason: text('failure_reason'),
    /** Where the checkout returns to (a same-origin path checked by returnPathSchema); billing when null. */
    returnPath: text('return_path'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('deposits_user_created_idx').on(t.userId, t.createdAt),
    uniqueIndex('deposits_provider_ref_uq').on(t.provider, t.providerRef),
    index('deposits_payment_intent_idx').on(t.paymentIntentId),
    index('deposits_payer_idx').on(t.payerFingerprint),
    check('deposits_amount_positive', sql`${t.amountCents} > 0`),
  ],
);

/** Every provider event id we processed, so a redelivered webhook is a no-op. */
export const paymentEvents = pgTable(
  'payment_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);
