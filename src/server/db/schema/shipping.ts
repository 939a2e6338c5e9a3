import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { SHIPMENT_STATUSES, type AddressSnapshot } from '../../../shared/contracts/shipping.ts';
import { user } from './auth.ts';
import { cards } from './catalog.ts';
import { ownedCards } from './inventory.ts';

/**
 * Shipping (issue 15): users' addresses, the warehouses cards ship from, shipments with their
 * cards and timeline. Money moves through the wallet (journal entries referenced here), cards
 * through the inventory gateway; these tables only describe the shipment.
 */

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

const addressColumns = {
  name: text('name').notNull(),
  line1: text('line1').notNull(),
  line2: text('line2').notNull().default(''),
  city: text('city').notNull(),
  region: text('region').notNull().default(''),
  postalCode: text('postal_code').notNull().default(''),
  country: text('country').notNull(),
  phone: text('phone').notNull(),
};

/** A user's ship-to addresses. One used by a shipment is archived, never deleted. */
export const shippingAddresses = pgTable(
  'shipping_addresses',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    ...addressColumns,
    isDefault: boolean('is_default').notNull().default(false),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index('shipping_addresses_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('shipping_addresses_one_default').on(t.userId).where(sql`${t.isDefault} and ${t.archivedAt} is null`),
  ],
);

/** Warehouses cards ship from; exactly one is the default (migration 0011 creates it). */
export const shippingOrigins = pgTable(
  'shipping_origins',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    ...addressColumns,
    isDefault: boolean('is_default').notNull().default(false),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [uniqueIndex('shipping_origins_one_default').on(t.isDefault).where(sql`${t.isDefault}`)],
);

/**
 * Where a card's stock lives: its origin and shelf. A card without a row lives on no particular
 * shelf of the default origin (a side table, so the catalog's card writes stay as they are).
 */
export const cardLocations = pgTable(
  'card_locations',
  {
    cardId: uuid('card_id')
      .primaryKey()
      .references(() => cards.id, { onDelete: 'cascade' }),
    originId: uuid('origin_id')
      .notNull()
      .references(() => shippingOrigins.id),
    shelfLocation: text('shelf_location').notNull().default(''),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('card_locations_origin_idx').on(t.originId, t.shelfLocation)],
);

export const shipmentStatus = pgEnum('shipment_status', SHIPMENT_STATUSES);

export const shipments = pgTable(
  'shipments',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    /** For the human reference SH-<seq>. */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity({ startWith: 1001 }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    addressId: uuid('address_id').references(() => shippingAddresses.id, { onDelete: 'set null' }),
    /** The address as it was when requested. */
    address: jsonb('address').$type<AddressSnapshot>().notNull(),
    originId: uuid('origin_id').references(() => shippingOrigins.id),
    status: shipmentStatus('status').notNull().default('requested'),
    cardCount: integer('card_count').notNull(),
    declaredValueCents: integer('declared_value_cents').notNull(),
    insured: boolean('insured').notNull().default(false),
    baseFeeCents: integer('base_fee_cents').notNull(),
    cardsFeeCents: integer('cards_fee_cents').notNull(),
    insuranceCents: integer('insurance_cents').notNull().default(0),
    feeCents: integer('fee_cents').notNull(),
    refundedCents: integer('refunded_cents').notNull().default(0),
    feeEntryId: uuid('fee_entry_id'),
    refundEntryId: uuid('refund_entry_id'),
    carrier: text('carrier'),
    trackingNumber: text('tracking_number'),
    ...timestamps,
  },
  (t) => [
    index('shipments_status_created_idx').on(t.status, t.createdAt),
    index('shipments_user_created_idx').on(t.userId, t.createdAt.desc()),
    check('shipments_amounts_nonnegative', sql`${t.feeCents} >= 0 and ${t.refundedCents} >= 0 and ${t.refundedCents} <= ${t.feeCents} + ${t.declaredValueCents}`),
  ],
);

export const shipmentCards = pgTable(
  'shipment_cards',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    shipmentId: uuid('shipment_id')
      .notNull()
      .references(() => shipments.id, { onDelete: 'cascade' }),
    ownedCardId: uuid('owned_card_id')
      .notNull()
      .references(() => ownedCards.id, { onDelete: 'cascade' }),
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id),
    /** The card's value when requested (the declared value sums these). */
    valueCents: integer('value_cents').notNull(),
    /** Where to pull it from, as it was when requested. */
    originId: uuid('origin_id').references(() => shippingOrigins.id),
    shelfLocation: text('shelf_location').notNull().default(''),
    pickedAt: timestamp('picked_at', { withTimezone: true }),
    /** The admin who checked it off. */
    pickedBy: text('picked_by'),
  },
  (t) => [
    uniqueIndex('shipment_cards_shipment_owned_unique').on(t.shipmentId, t.ownedCardId),
    index('shipment_cards_owned_idx').on(t.ownedCardId),
    index('shipment_cards_origin_shelf_idx').on(t.originId, t.shelfLocation),
  ],
);

/** The timeline of a shipment: every transition with who, when and why (the audit log has the admin's view too). */
export const shipmentEvents = pgTable(
  'shipment_events',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    shipmentId: uuid('shipment_id')
      .notNull()
      .references(() => shipments.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    actorId: text('actor_id'),
    actorRole: text('actor_role').notNull(),
    note: text('note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Insertion order. Two events of one transaction (a cancel and its refund) can share a
     * timestamp: PGlite's clock ticks in milliseconds, so the order by time alone was a coin toss.
     */
    seq: bigint('seq', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
  },
  (t) => [index('shipment_events_shipment_idx').on(t.shipmentId, t.createdAt)],
);
