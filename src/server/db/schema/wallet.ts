import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { user } from './auth.ts';

/**
 * Money. A user's balance only changes through ledger entries written by the wallet service
 * (src/server/modules/wallet/service.ts), in the same transaction as the balance row.
 */

export const ledgerKind = pgEnum('ledger_kind', [
  'deposit',
  'pack_purchase',
  'buyback',
  'shipping_fee',
  'shipping_refund',
  'promo_credit',
  'referral_reward',
  'admin_adjustment',
  'refund',
]);

const cents = (name: string) => bigint(name, { mode: 'number' });

export const balances = pgTable(
  'balances',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => user.id, { onDelete: 'cascade' }),
    cents: cents('cents').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('balances_cents_non_negative', sql`${t.cents} >= 0`)],
);

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    /** Insertion order: entries of one transaction share created_at. */
    seq: bigint('seq', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** Signed: credits are positive, debits negative. Never zero. */
    amountCents: cents('amount_cents').notNull(),
    kind: ledgerKind('kind').notNull(),
    /** What the entry refers to: 'deposit', 'opening', 'shipment', 'promo_redemption', 'admin_action'… */
    referenceType: text('reference_type'),
    referenceId: text('reference_id'),
    /** Who caused it: the user, an admin, or null for the system (webhooks). */
    actorId: text('actor_id'),
    idempotencyKey: text('idempotency_key'),
    balanceAfter: cents('balance_after').notNull(),
    memo: text('memo'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ledger_entries_user_idem_uq').on(t.userId, t.idempotencyKey),
    index('ledger_entries_user_created_idx').on(t.userId, t.createdAt),
    index('ledger_entries_user_seq_idx').on(t.userId, t.seq),
    index('ledger_entries_reference_idx').on(t.referenceType, t.referenceId),
    check('ledger_entries_amount_non_zero', sql`${t.amountCents} <> 0`),
    check('ledger_entries_balance_after_non_negative', sql`${t.balanceAfter} >= 0`),
  ],
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
    failureReason: text('failure_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('deposits_user_created_idx').on(t.userId, t.createdAt),
    uniqueIndex('deposits_provider_ref_uq').on(t.provider, t.providerRef),
    index('deposits_payment_intent_idx').on(t.paymentIntentId),
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

export const promoKind = pgEnum('promo_kind', ['credit', 'deposit_bonus']);

export const promoCodes = pgTable(
  'promo_codes',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    code: text('code').notNull(),
    description: text('description'),
    kind: promoKind('kind').notNull(),
    /** credit: the amount granted. */
    amountCents: cents('amount_cents'),
    /** deposit_bonus: percent of the next deposit, up to the cap. */
    bonusPercent: integer('bonus_percent'),
    bonusCapCents: cents('bonus_cap_cents'),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    totalLimit: integer('total_limit'),
    redeemedCount: integer('redeemed_count').notNull().default(0),
    minAccountAgeDays: integer('min_account_age_days'),
    active: boolean('active').notNull().default(true),
    createdBy: text('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('promo_codes_code_lower_uq').on(sql`lower(${t.code})`),
    check(
      'promo_codes_limit_holds',
      sql`${t.totalLimit} is null or ${t.redeemedCount} <= ${t.totalLimit}`,
    ),
    check(
      'promo_codes_kind_fields',
      sql`(${t.kind} = 'credit' and ${t.amountCents} > 0) or (${t.kind} = 'deposit_bonus' and ${t.bonusPercent} between 1 and 100 and ${t.bonusCapCents} > 0)`,
    ),
  ],
);

export const promoRedemptionStatus = pgEnum('promo_redemption_status', ['credited', 'pending_deposit', 'applied']);

export const promoRedemptions = pgTable(
  'promo_redemptions',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    promoId: uuid('promo_id')
      .notNull()
      .references(() => promoCodes.id),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    status: promoRedemptionStatus('status').notNull(),
    /** Credited so far (the credit, or the bonus once the deposit succeeded). */
    creditedCents: cents('credited_cents').notNull().default(0),
    depositId: uuid('deposit_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('promo_redemptions_promo_user_uq').on(t.promoId, t.userId),
    index('promo_redemptions_user_idx').on(t.userId, t.status),
  ],
);

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
