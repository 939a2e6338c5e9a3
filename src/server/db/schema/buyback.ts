import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth.ts';
import { cardClasses, cards } from './catalog.ts';
import { ownedCards } from './inventory.ts';
import { journalEntries } from './wallet.ts';

/**
 * Buyback (issue 7): a user sells vault cards back for rate × current market value. One sale =
 * one buybacks row, one line per card, one ledger credit (kind 'buyback', reference 'buyback').
 * The default rate lives in app_settings ('buyback.defaultRateBp'); a class may override it
 * (card_classes.buyback_rate_bp).
 */
export const buybacks = pgTable(
  'buybacks',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    cardCount: integer('card_count').notNull(),
    /** Sum of the lines' market values at the moment of the sale. */
    marketValueCents: integer('market_value_cents').notNull(),
    /** What was credited (sum of the lines' amounts). */
    totalCents: integer('total_cents').notNull(),
    /** Null only when every card was worth nothing (a ledger entry is never zero). */
    ledgerEntryId: uuid('ledger_entry_id').references(() => journalEntries.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('buybacks_user_created_idx').on(t.userId, t.createdAt.desc()),
    index('buybacks_created_idx').on(t.createdAt.desc()),
    check('buybacks_card_count_positive', sql`${t.cardCount} > 0`),
    check('buybacks_total_nonnegative', sql`${t.totalCents} >= 0`),
    check('buybacks_ledger_when_paid', sql`(${t.totalCents} > 0) = (${t.ledgerEntryId} is not null)`),
  ],
);

export const buybackLines = pgTable(
  'buyback_lines',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    buybackId: uuid('buyback_id')
      .notNull()
      .references(() => buybacks.id, { onDelete: 'cascade' }),
    ownedCardId: uuid('owned_card_id')
      .notNull()
      .references(() => ownedCards.id),
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id),
    classId: uuid('class_id')
      .notNull()
      .references(() => cardClasses.id),
    marketValueCents: integer('market_value_cents').notNull(),
    rateBp: integer('rate_bp').notNull(),
    amountCents: integer('amount_cents').notNull(),
  },
  (t) => [
    // A copy is bought back at most once, whatever races the application loses.
    uniqueIndex('buyback_lines_owned_card_uq').on(t.ownedCardId),
    index('buyback_lines_buyback_idx').on(t.buybackId),
    index('buyback_lines_class_idx').on(t.classId),
    check('buyback_lines_rate_range', sql`${t.rateBp} between 0 and 10000`),
    check('buyback_lines_amount_nonnegative', sql`${t.amountCents} >= 0 and ${t.marketValueCents} >= 0`),
  ],
);
