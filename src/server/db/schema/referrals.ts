import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { REFERRAL_REWARD_KINDS, REFERRAL_STATUSES } from '../../../shared/contracts/referrals.ts';
import { user } from './auth.ts';
import { deposits } from './payments.ts';
import { journalEntries } from './wallet.ts';

/**
 * Referrals (modules/referrals, issue 17): each user's code, who invited whom, and every reward
 * paid or taken back. Money itself moves only through the wallet (kind referral_reward /
 * referral_clawback against the referral_expense account); `referral_rewards` points at the
 * journal entry of each move.
 */

const cents = (name: string) => bigint(name, { mode: 'number' });

/** One code per user, stored upper-case; lookups upper-case their input. */
export const referralCodes = pgTable(
  'referral_codes',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => user.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    /** True once the user picked their own code (allowed once). */
    vanity: boolean('vanity').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('referral_codes_code_uq').on(t.code)],
);

export const referralStatus = pgEnum('referral_status', REFERRAL_STATUSES);

export const referrals = pgTable(
  'referrals',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    referrerId: text('referrer_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** Unique: an account has at most one referrer, ever. */
    refereeId: text('referee_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** The code as it was used. */
    code: text('code').notNull(),
    status: referralStatus('status').notNull().default('pending'),
    /** Why a referral was rejected (self-referral, …) or voided. */
    reason: text('reason'),
    qualifyingDepositId: uuid('qualifying_deposit_id').references(() => deposits.id),
    qualifiedAt: timestamp('qualified_at', { withTimezone: true }),
    /** The programme's terms when it qualified (later setting changes do not rewrite them). */
    referrerRewardCents: cents('referrer_reward_cents'),
    refereeRewardCents: cents('referee_reward_cents'),
    shareBps: integer('share_bps'),
    shareCapCents: cents('share_cap_cents'),
    shareUntil: timestamp('share_until', { withTimezone: true }),
    /** Share of the friend's purchases paid so far (≤ share_cap_cents). */
    sharePaidCents: cents('share_paid_cents').notNull().default(0),
    reversedAt: timestamp('reversed_at', { withTimezone: true }),
    voidedAt: timestamp('voided_at', { withTimezone: true }),
    voidedBy: text('voided_by').references(() => user.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('referrals_referee_uq').on(t.refereeId),
    index('referrals_referrer_idx').on(t.referrerId, t.createdAt),
    index('referrals_status_idx').on(t.status, t.createdAt),
    check('referrals_not_self', sql`${t.referrerId} <> ${t.refereeId}`),
    check('referrals_share_within_cap', sql`${t.shareCapCents} is null or ${t.sharePaidCents} <= ${t.shareCapCents}`),
  ],
);

export const referralRewardKind = pgEnum('referral_reward_kind', REFERRAL_REWARD_KINDS);

/**
 * Every reward paid (bonus, purchase share) or taken back (clawback), once: the unique key is the
 * referral, the beneficiary, the kind and its source (the qualifying deposit, the purchase, …).
 */
export const referralRewards = pgTable(
  'referral_rewards',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    referralId: uuid('referral_id')
      .notNull()
      .references(() => referrals.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    kind: referralRewardKind('kind').notNull(),
    /** Paid (or, for a clawback, taken back); ≥ 0. */
    amountCents: cents('amount_cents').notNull(),
    /** Clawback only: what could not be taken back because the balance was short. */
    shortfallCents: cents('shortfall_cents').notNull().default(0),
    sourceId: text('source_id').notNull(),
    /** The wallet's journal entry of this move; null for a clawback that found nothing to take. */
    journalEntryId: uuid('journal_entry_id').references(() => journalEntries.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('referral_rewards_once_uq').on(t.referralId, t.userId, t.kind, t.sourceId),
    index('referral_rewards_user_idx').on(t.userId, t.createdAt),
    check('referral_rewards_amount_nonneg', sql`${t.amountCents} >= 0 and ${t.shortfallCents} >= 0`),
  ],
);
