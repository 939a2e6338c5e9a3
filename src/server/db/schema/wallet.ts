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
  pgView,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { user } from './auth.ts';

/**
 * Money, as a double-entry ledger (docs/decisions/0010-double-entry-ledger.md). Every business
 * event is one journal entry; its postings move cents between accounts and sum to zero per
 * currency (checked by the database at commit, migration 0009). A user's wallet is an account;
 * its cached balance row (`balances`) is updated by the same statement as its postings. Only the
 * wallet service (src/server/modules/wallet/service.ts) writes these tables.
 */

/** What happened (the journal entry's kind); also the label of a line in the user's history. */
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

export const ledgerAccountKind = pgEnum('ledger_account_kind', [
  'user_wallet',
  'payments_clearing',
  'pack_sales',
  'buyback_expense',
  'promo_expense',
  'referral_expense',
  'shipping_fees',
  'shipping_refunds',
  'admin_adjustments',
  'chargeback_loss',
]);

const cents = (name: string) => bigint(name, { mode: 'number' });

/**
 * One per user wallet (created with its balance row) and one per house account, named by a
 * stable `code` ('pack_sales', 'clearing:stripe', …). One currency per deployment.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    kind: ledgerAccountKind('kind').notNull(),
    /** House accounts only. */
    code: text('code'),
    /** User wallets only. Kept when the person deletes their account (accounting). */
    userId: text('user_id').references(() => user.id),
    currency: text('currency').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ledger_accounts_kind_user_uq').on(t.kind, t.userId),
    uniqueIndex('ledger_accounts_code_uq').on(t.code),
    check(
      'ledger_accounts_owner',
      sql`(${t.kind} = 'user_wallet') = (${t.userId} is not null) and (${t.code} is null) = (${t.userId} is not null)`,
    ),
  ],
);

export const balances = pgTable(
  'balances',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** The wallet account whose postings this row caches the sum of. */
    accountId: uuid('account_id')
      .notNull()
      .references(() => ledgerAccounts.id),
    cents: cents('cents').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('balances_cents_non_negative', sql`${t.cents} >= 0`), uniqueIndex('balances_account_uq').on(t.accountId)],
);

/** One business event: what, who caused it, what it refers to. Its id is the "ledger entry id". */
export const journalEntries = pgTable(
  'journal_entries',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    seq: bigint('seq', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    kind: ledgerKind('kind').notNull(),
    /** What the entry refers to: 'deposit', 'purchase', 'buyback', 'promo', 'admin_action'… */
    referenceType: text('reference_type'),
    referenceId: text('reference_id'),
    /** Who caused it: the user, an admin, or null for the system (webhooks). */
    actorId: text('actor_id'),
    /** Scoped to the wallet it moves: '<user id>:<key>'. */
    idempotencyKey: text('idempotency_key'),
    memo: text('memo'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('journal_entries_idem_uq').on(t.idempotencyKey),
    index('journal_entries_reference_idx').on(t.referenceType, t.referenceId),
  ],
);

/**
 * The legs of an entry. Append-only; an entry's postings sum to zero per currency (a constraint
 * trigger at commit). A wallet posting carries the balance it left (`balance_after`).
 */
export const postings = pgTable(
  'postings',
  {
    entryId: uuid('entry_id')
      .notNull()
      .references(() => journalEntries.id),
    accountId: uuid('account_id')
      .notNull()
      .references(() => ledgerAccounts.id),
    /** Insertion order, for an account's history. */
    seq: bigint('seq', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    /** Signed: into the account positive, out of it negative. Never zero. */
    amountCents: cents('amount_cents').notNull(),
    currency: text('currency').notNull(),
    /** Wallet postings only: the cached balance after this posting. */
    balanceAfter: cents('balance_after'),
  },
  (t) => [
    primaryKey({ columns: [t.entryId, t.accountId] }),
    // History by account, and "sum per account" as an index-only aggregate (reconciliation).
    index('postings_account_seq_idx').on(t.accountId, t.seq, t.amountCents),
    check('postings_amount_non_zero', sql`${t.amountCents} <> 0`),
    check('postings_balance_after_non_negative', sql`${t.balanceAfter} >= 0`),
  ],
);

/**
 * A user's wallet lines (one per wallet posting, with its entry), as the one-sided journal
 * `ledger_entries` read before migration 0009: kept as a view for reports and old queries.
 */
export const ledgerEntries = pgView('ledger_entries', {
  id: uuid('id').notNull(),
  seq: bigint('seq', { mode: 'number' }).notNull(),
  userId: text('user_id').notNull(),
  amountCents: cents('amount_cents').notNull(),
  kind: ledgerKind('kind').notNull(),
  referenceType: text('reference_type'),
  referenceId: text('reference_id'),
  actorId: text('actor_id'),
  idempotencyKey: text('idempotency_key'),
  balanceAfter: cents('balance_after').notNull(),
  memo: text('memo'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
}).existing();

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
