import { sql } from 'drizzle-orm';
import { check, index, integer, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { STOCK_MOVEMENT_REASONS } from '../../../shared/contracts/inventory.ts';
import { user } from './auth.ts';
import { cards } from './catalog.ts';
import { openings, products } from './shop.ts';

/**
 * Inventory (issue 14): every change of a card's stock and every move of an owned copy, written
 * only by modules/inventory. For each card, the sum of `delta` is its stock (reconcileStock).
 */
export const stockMovementReason = pgEnum('stock_movement_reason', STOCK_MOVEMENT_REASONS);

export const stockMovements = pgTable(
  'stock_movements',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id, { onDelete: 'cascade' }),
    /** Copies into (+) or out of (−) stock; 0 for a move of an owned copy that stays out of stock. */
    delta: integer('delta').notNull(),
    stockAfter: integer('stock_after').notNull(),
    reason: stockMovementReason('reason').notNull(),
    /** What caused it: 'purchase', 'buyback', 'owned_card', 'csv_import', … and its id. */
    referenceType: text('reference_type'),
    referenceId: text('reference_id'),
    /** Free text for people (an admin's reason); the catalog's stock history shows it. */
    note: text('note'),
    actorId: text('actor_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('stock_movements_card_idx').on(t.cardId, t.createdAt)],
);

export const acquiredVia = pgEnum('acquired_via', ['opening', 'drop', 'grant']);

// 'revoked': taken back to stock by an admin (issue 7, /admin/owned).
// 'lost': lost in the post and refunded (issue 15).
export const ownedCardStatus = pgEnum('owned_card_status', ['in_vault', 'in_shipment', 'shipped', 'delivered', 'sold_back', 'revoked', 'lost']);

/** One physical copy owned by one user. Buyback and shipping move its status. */
export const ownedCards = pgTable(
  'owned_cards',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id),
    ownerId: text('owner_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    acquiredVia: acquiredVia('acquired_via').notNull(),
    valueCents: integer('value_cents').notNull(),
    status: ownedCardStatus('status').notNull().default('in_vault'),
    openingId: uuid('opening_id').references(() => openings.id),
    /** Denormalized for /top-pulls (no join to openings on the hot read). */
    productId: uuid('product_id').references(() => products.id),
    slot: integer('slot'),
    acquiredAt: timestamp('acquired_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('owned_cards_owner_status_idx').on(t.ownerId, t.status, t.acquiredAt.desc()),
    index('owned_cards_card_idx').on(t.cardId),
    index('owned_cards_opening_idx').on(t.openingId),
    // /top-pulls: highest values first, then filtered by window; and per product for the product page.
    index('owned_cards_top_pulls_idx').on(t.valueCents.desc(), t.acquiredAt.desc()).where(sql`${t.openingId} is not null`),
    index('owned_cards_recent_pulls_idx').on(t.acquiredAt.desc()).where(sql`${t.openingId} is not null`),
    index('owned_cards_product_pulls_idx').on(t.productId, t.valueCents.desc()).where(sql`${t.openingId} is not null`),
    check('owned_cards_value_nonnegative', sql`${t.valueCents} >= 0`),
    check('owned_cards_opening_link', sql`(${t.acquiredVia} = 'opening') = (${t.openingId} is not null)`),
  ],
);
