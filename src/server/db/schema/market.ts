import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, numeric, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { MARKET_LISTING_STATES, MARKET_OFFER_SIDES, MARKET_OFFER_STATES, MARKET_SWAP_STATES } from '../../../shared/contracts/market.ts';
import { user } from './auth.ts';
import { cards } from './catalog.ts';
import { ownedCards } from './inventory.ts';
import { journalEntries } from './wallet.ts';

/**
 * The marketplace (issue 43, ADR 0028), written only by modules/market. A listing offers one
 * vaulted copy at a fixed price; while it is active the copy's status is 'listed' (inventory's
 * state machine), so no other move can take it. A sale, a delist and an expiry end it.
 */
export const marketListingState = pgEnum('market_listing_state', MARKET_LISTING_STATES);

export const marketListings = pgTable(
  'market_listings',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    ownedCardId: uuid('owned_card_id')
      .notNull()
      .references(() => ownedCards.id),
    /** Denormalized from the copy: browse filters and sorts by card without touching owned_cards. */
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id),
    sellerId: text('seller_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /**
     * The card's set, class and grade, copied onto the listing so that browse filters, sorts and
     * counts walk one table's indexes (ADR 0033). Written only by the database: a trigger fills
     * them from `cards` on insert (whatever the insert says), and a trigger on `cards` keeps them
     * in step when the catalog edits a card. Nullable for drizzle's insert type; the check below
     * says they are always there.
     */
    setName: text('set_name'),
    classId: uuid('class_id'),
    grade: numeric('grade', { precision: 3, scale: 1, mode: 'number' }),
    priceCents: integer('price_cents').notNull(),
    /** The fee terms quoted to the seller when the listing was made; a sale pays by these. */
    feeBp: integer('fee_bp').notNull(),
    minFeeCents: integer('min_fee_cents').notNull(),
    state: marketListingState('state').notNull().default('active'),
    /** Bumped by every price edit: a buyer's request names the version it saw. */
    version: integer('version').notNull().default(1),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** The buyer (no foreign key: a sale stays on record when the buyer deletes their account). */
    soldTo: text('sold_to'),
    soldAt: timestamp('sold_at', { withTimezone: true }),
    /** Set when sold: the price paid (the listed price, or the accepted offer's amount), what the house kept, and the ledger entry that moved the money. */
    soldPriceCents: integer('sold_price_cents'),
    feeCents: integer('fee_cents'),
    ledgerEntryId: uuid('ledger_entry_id').references(() => journalEntries.id),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** A listing the back office removed: which staff member, and the reason the seller was told (audited too). */
    removedBy: text('removed_by'),
    removedReason: text('removed_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One active listing per copy (the copy's 'listed' status says the same; this is the backstop).
    uniqueIndex('market_listings_one_active_uq').on(t.ownedCardId).where(sql`${t.state} = 'active'`),
    // Browse (ADR 0028, 0033): active listings in each sort order, and by each card filter with the
    // price (a filter's count and price range read the index alone). Migration 0036 adds INCLUDE
    // columns drizzle-kit does not model: expires_at on each, grade on the two sort indexes, so a
    // count checks "unexpired" (and raw/graded) without visiting the table; created_at and id on
    // the card's, so "name contains" (a few cards' listings) sorts newest-first from the index.
    index('market_listings_active_card_price_idx').on(t.cardId, t.priceCents).where(sql`${t.state} = 'active'`),
    index('market_listings_active_price_idx').on(t.priceCents, t.id).where(sql`${t.state} = 'active'`),
    index('market_listings_active_created_idx').on(t.createdAt.desc(), t.id).where(sql`${t.state} = 'active'`),
    index('market_listings_active_set_price_idx').on(t.setName, t.priceCents, t.id).where(sql`${t.state} = 'active'`),
    index('market_listings_active_class_price_idx').on(t.classId, t.priceCents, t.id).where(sql`${t.state} = 'active'`),
    index('market_listings_active_grade_price_idx').on(t.grade, t.priceCents, t.id).where(sql`${t.state} = 'active' and ${t.grade} is not null`),
    check('market_listings_card_fields', sql`${t.setName} is not null and ${t.classId} is not null`),
    index('market_listings_active_expiry_idx').on(t.expiresAt).where(sql`${t.state} = 'active' and ${t.expiresAt} is not null`),
    index('market_listings_seller_idx').on(t.sellerId, t.createdAt.desc()),
    index('market_listings_buyer_idx').on(t.soldTo, t.soldAt.desc()).where(sql`${t.soldTo} is not null`),
    // A card's recent sales (its price comps and the far-price reference).
    index('market_listings_sold_card_idx').on(t.cardId, t.soldAt.desc()).where(sql`${t.state} = 'sold'`),
    check('market_listings_price_positive', sql`${t.priceCents} > 0`),
    check('market_listings_fee_terms', sql`${t.feeBp} between 0 and 10000 and ${t.minFeeCents} >= 0`),
    check('market_listings_sold', sql`(${t.state} = 'sold') = (${t.soldTo} is not null and ${t.soldAt} is not null and ${t.feeCents} is not null)`),
  ],
);

export const marketOfferState = pgEnum('market_offer_state', MARKET_OFFER_STATES);
export const marketOfferSide = pgEnum('market_offer_side', MARKET_OFFER_SIDES);

/**
 * Offers (ADR 0028 part 2): a buyer's offer on a listing or on a card (any owner of a vaulted,
 * unlisted copy may accept it), or a seller's counter to one (`side = 'seller'`, `counter_of`
 * the offer it answers). The buyer's money for an open offer is held in the ledger (`held_cents`,
 * a `market_hold` entry; released by `market_release`); only open offers hold anything.
 */
export const marketOffers = pgTable(
  'market_offers',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    /** Null for an offer on a card. */
    listingId: uuid('listing_id').references(() => marketListings.id),
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id),
    buyerId: text('buyer_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** The listing's seller; on a card offer, the owner who accepted it (no foreign key: kept on record). */
    sellerId: text('seller_id'),
    /** Who made it: the buyer (a bid) or the seller (a counter). */
    side: marketOfferSide('side').notNull().default('buyer'),
    amountCents: integer('amount_cents').notNull(),
    /** What the buyer's hold account holds for this offer now (0 once it is closed). */
    heldCents: integer('held_cents').notNull().default(0),
    state: marketOfferState('state').notNull().default('open'),
    /** The offer a counter answers. */
    counterOf: uuid('counter_of'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Set when accepted: the copy sold, the fee and the sale's ledger entry. */
    ownedCardId: uuid('owned_card_id').references(() => ownedCards.id),
    feeCents: integer('fee_cents'),
    ledgerEntryId: uuid('ledger_entry_id').references(() => journalEntries.id),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One open offer per buyer per listing (a counter replaces the offer it answers), and per card.
    uniqueIndex('market_offers_open_listing_uq').on(t.listingId, t.buyerId).where(sql`${t.state} = 'open' and ${t.listingId} is not null`),
    uniqueIndex('market_offers_open_card_uq').on(t.cardId, t.buyerId).where(sql`${t.state} = 'open' and ${t.listingId} is null`),
    index('market_offers_buyer_idx').on(t.buyerId, t.createdAt.desc()),
    index('market_offers_seller_idx').on(t.sellerId, t.createdAt.desc()).where(sql`${t.sellerId} is not null`),
    index('market_offers_open_listing_idx').on(t.listingId).where(sql`${t.state} = 'open'`),
    index('market_offers_open_card_idx').on(t.cardId, t.createdAt.desc()).where(sql`${t.state} = 'open' and ${t.listingId} is null`),
    index('market_offers_open_expiry_idx').on(t.expiresAt).where(sql`${t.state} = 'open'`),
    check('market_offers_amount_positive', sql`${t.amountCents} > 0`),
    check('market_offers_held', sql`${t.heldCents} >= 0 and (${t.state} = 'open' or ${t.heldCents} = 0)`),
    check('market_offers_counter', sql`${t.side} = 'buyer' or (${t.listingId} is not null and ${t.counterOf} is not null)`),
    check('market_offers_accepted', sql`(${t.state} = 'accepted') = (${t.ledgerEntryId} is not null and ${t.ownedCardId} is not null and ${t.feeCents} is not null)`),
  ],
);

/**
 * Trade binders (ADR 0032): the copies a collector opened to swap proposals. A row names a copy
 * and the owner who opened it; it shows only while that owner still holds the copy in the vault
 * (a copy shipped, sold or swapped drops out by the join; one back in the vault shows again).
 */
export const marketBinder = pgTable(
  'market_binder',
  {
    ownedCardId: uuid('owned_card_id')
      .notNull()
      .references(() => ownedCards.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** Denormalized from the copy: binders are searched by card. */
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.ownedCardId, t.userId] }), index('market_binder_card_idx').on(t.cardId, t.createdAt.desc()), index('market_binder_user_idx').on(t.userId, t.createdAt.desc())],
);

export const marketSwapState = pgEnum('market_swap_state', MARKET_SWAP_STATES);

/**
 * Swaps (issue 43 item 4, ADR 0032): the proposer's copies for copies in the recipient's binder,
 * with cash either way (`cash_cents` > 0 the proposer pays it, held in the ledger while open;
 * < 0 the recipient pays it on accepting). Settled in one transaction only if every copy is still
 * in its owner's vault, unlisted.
 */
export const marketSwaps = pgTable(
  'market_swaps',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    proposerId: text('proposer_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    recipientId: text('recipient_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    cashCents: integer('cash_cents').notNull().default(0),
    /** What the proposer's hold account holds for this swap now (0 once closed). */
    heldCents: integer('held_cents').notNull().default(0),
    state: marketSwapState('state').notNull().default('open'),
    /** Set when accepted with cash: the fee on the cash part and the ledger entry that moved it. */
    feeCents: integer('fee_cents'),
    ledgerEntryId: uuid('ledger_entry_id').references(() => journalEntries.id),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('market_swaps_proposer_idx').on(t.proposerId, t.createdAt.desc()),
    index('market_swaps_recipient_idx').on(t.recipientId, t.createdAt.desc()),
    index('market_swaps_open_expiry_idx').on(t.expiresAt).where(sql`${t.state} = 'open'`),
    check('market_swaps_two_parties', sql`${t.proposerId} <> ${t.recipientId}`),
    check('market_swaps_held', sql`${t.heldCents} >= 0 and ${t.heldCents} <= greatest(${t.cashCents}, 0) and (${t.state} = 'open' or ${t.heldCents} = 0)`),
  ],
);

export const marketSwapItems = pgTable(
  'market_swap_items',
  {
    swapId: uuid('swap_id')
      .notNull()
      .references(() => marketSwaps.id, { onDelete: 'cascade' }),
    ownedCardId: uuid('owned_card_id')
      .notNull()
      .references(() => ownedCards.id),
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id),
    /** True: the proposer gives it; false: the recipient does. */
    fromProposer: boolean('from_proposer').notNull(),
  },
  (t) => [primaryKey({ columns: [t.swapId, t.ownedCardId] }), index('market_swap_items_copy_idx').on(t.ownedCardId)],
);
