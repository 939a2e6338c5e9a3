import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, numeric, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { SLAB_STATES, type GradingCompany } from '../../../shared/contracts/grading.ts';
import { uploads } from './uploads.ts';
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
// 'listed': on the marketplace (issue 43, ADR 0028); still in the vault, but no other move until delisted.
export const ownedCardStatus = pgEnum('owned_card_status', ['in_vault', 'in_shipment', 'shipped', 'delivered', 'sold_back', 'revoked', 'lost', 'listed']);

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

export const slabState = pgEnum('slab_state', SLAB_STATES);

/**
 * One physical graded copy (issue 38, ADR 0023): its own certificate, grade and photos, and where
 * it is. A graded card's stock is the number of its slabs `in_stock`; a copy of it in a vault,
 * a shipment or the post is one slab, `owned_card_id` naming the copy. Written only by
 * modules/inventory, with the stock and the owned copy it belongs to, in the same transaction.
 *
 * `held`: a slab without its certificate (migration 0026 split a card's one certificate over its
 * stock): out of stock until an admin fills the certificate in. An owned slab may also lack one
 * (an owned copy from before slabs); the admin fills it in the same way.
 */
export const cardSlabs = pgTable(
  'card_slabs',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id),
    grader: text('grader').$type<GradingCompany>().notNull(),
    grade: numeric('grade', { precision: 3, scale: 1, mode: 'number' }).notNull(),
    certNumber: text('cert_number'),
    /** True exactly when the certificate is not known yet (a check keeps it so). */
    certMissing: boolean('cert_missing').notNull().default(false),
    frontPhotoKey: text('front_photo_key').references(() => uploads.key),
    backPhotoKey: text('back_photo_key').references(() => uploads.key),
    state: slabState('state').notNull(),
    ownedCardId: uuid('owned_card_id').references((): AnyPgColumn => ownedCards.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One slab per certificate, across the shop.
    uniqueIndex('card_slabs_cert_unique').on(t.grader, t.certNumber),
    // One slab per owned copy.
    uniqueIndex('card_slabs_owned_unique').on(t.ownedCardId),
    // The opening's pick: a card's slabs in stock.
    index('card_slabs_in_stock_idx').on(t.cardId, t.id).where(sql`${t.state} = 'in_stock'`),
    index('card_slabs_card_idx').on(t.cardId, t.state),
    index('card_slabs_front_photo_idx').on(t.frontPhotoKey),
    index('card_slabs_back_photo_idx').on(t.backPhotoKey),
    check('card_slabs_grader', sql`${t.grader} in ('PSA', 'BGS', 'CGC', 'SGC')`),
    check('card_slabs_grade_range', sql`${t.grade} between 1 and 10`),
    check('card_slabs_cert_flag', sql`${t.certMissing} = (${t.certNumber} is null)`),
    // Only a slab with its certificate can be in stock (drawn); a held one is waiting for its certificate.
    check('card_slabs_in_stock_cert', sql`${t.state} <> 'in_stock' or not ${t.certMissing}`),
    check('card_slabs_held', sql`${t.state} <> 'held' or ${t.certMissing}`),
    // In the shop (in stock, held, reserved for a drop) exactly when it belongs to no copy.
    check('card_slabs_owner', sql`(${t.state} in ('in_stock', 'held', 'reserved')) = (${t.ownedCardId} is null)`),
  ],
);
