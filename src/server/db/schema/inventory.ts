import { sql } from 'drizzle-orm';
import { index, integer, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { STOCK_MOVEMENT_REASONS } from '../../../shared/contracts/inventory.ts';
import { cards } from './catalog.ts';

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
