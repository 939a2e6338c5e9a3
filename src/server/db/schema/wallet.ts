import { sql } from 'drizzle-orm';
import { bigint, check, index, pgEnum, pgTable, pgView, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
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
  'referral_clawback',
  'admin_adjustment',
  'refund',
  /** A marketplace sale (ADR 0028): buyer −price, seller +price−fee, market_fees +fee. */
  'market_sale',
  /** Money put on hold for a marketplace offer (ADR 0028 part 2): the wallet −x, the user's hold account +x. */
  'market_hold',
  /** A hold given back (offer cancelled, rejected, expired, lapsed, or accepted: then the sale follows). */
  'market_release',
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
  'market_fees',
  /** One per user, made on their first offer: the money their open offers hold (ADR 0028 part 2). */
  'user_hold',
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
    // Compared as text: PostgreSQL refuses an enum value in the migration that added it ('user_hold').
    check(
      'ledger_accounts_owner',
      sql`(${t.kind}::text in ('user_wallet', 'user_hold')) = (${t.userId} is not null) and (${t.code} is null) = (${t.userId} is not null)`,
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
    /**
     * The free balance: what the user may spend. Money held for open offers has left it (a
     * `market_hold` entry), so this `>= 0` check is what stops every debit from spending held money.
     */
    cents: cents('cents').notNull().default(0),
    /** The user's hold account (ADR 0028 part 2), made on their first offer. */
    holdAccountId: uuid('hold_account_id').references(() => ledgerAccounts.id),
    /** Cached sum of the hold account's postings: money on hold for open offers. The wallet's total is cents + held_cents. */
    heldCents: cents('held_cents').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('balances_cents_non_negative', sql`${t.cents} >= 0`),
    check('balances_held_non_negative', sql`${t.heldCents} >= 0`),
    check('balances_held_has_account', sql`${t.heldCents} = 0 or ${t.holdAccountId} is not null`),
    uniqueIndex('balances_account_uq').on(t.accountId),
    uniqueIndex('balances_hold_account_uq').on(t.holdAccountId),
  ],
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
