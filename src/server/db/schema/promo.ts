import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth.ts';

/** Promo codes (modules/promo) and their redemptions. */

const cents = (name: string) => bigint(name, { mode: 'number' });

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
