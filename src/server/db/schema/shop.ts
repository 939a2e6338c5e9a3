import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, doublePrecision, index, integer, jsonb, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { DrawRecord, PackPool, PackSlot } from '../../../shared/contracts/shop.ts';
import { user } from './auth.ts';
import { userSeeds } from './fairness.ts';
import { uploads } from './uploads.ts';
import { journalEntries } from './wallet.ts';

/**
 * Shop (issue 6): products sell packs; a purchase puts unopened packs (user_packs) in the
 * inventory; opening one draws its cards provably fairly (user_seeds, openings) and creates the
 * owned cards. Stock lives on cards.stock and is taken in the opening's transaction.
 */

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/** What opening gives: one slot per card, each with integer class weights, and the card pool. */
export const packs = pgTable('packs', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  name: text('name').notNull(),
  /** [{ odds: [{ classId, weight }] }] — validated by packInputSchema; read whole on every open. */
  slots: jsonb('slots').$type<PackSlot[]>().notNull().default([]),
  pool: jsonb('pool').$type<PackPool>().notNull().default({ mode: 'classes' }),
  /**
   * Goes up by one whenever slots or pool change (a trigger, migration 0022, so no writer can
   * forget): the open path checks that its cached pack is current by this number instead of
   * comparing both documents on every opening.
   */
  revision: integer('revision').notNull().default(1),
  ...timestamps,
});

export const productStatus = pgEnum('product_status', ['draft', 'live', 'archived']);

export const products = pgTable(
  'products',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    imageKey: text('image_key').references(() => uploads.key),
    priceCents: integer('price_cents').notNull(),
    status: productStatus('status').notNull().default('draft'),
    releaseAt: timestamp('release_at', { withTimezone: true }),
    purchaseLimitPerUser: integer('purchase_limit_per_user'),
    featured: boolean('featured').notNull().default(false),
    sortOrder: integer('sort_order').notNull().default(0),
    packId: uuid('pack_id')
      .notNull()
      .references(() => packs.id),
    ...timestamps,
  },
  (t) => [
    check('products_price_positive', sql`${t.priceCents} > 0`),
    check('products_limit_positive', sql`${t.purchaseLimitPerUser} is null or ${t.purchaseLimitPerUser} > 0`),
    index('products_live_idx').on(t.featured.desc(), t.sortOrder, t.createdAt).where(sql`${t.status} = 'live'`),
    index('products_pack_idx').on(t.packId),
  ],
);

export const purchases = pgTable(
  'purchases',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id),
    packId: uuid('pack_id')
      .notNull()
      .references(() => packs.id),
    quantity: integer('quantity').notNull(),
    unitPriceCents: integer('unit_price_cents').notNull(),
    totalCents: integer('total_cents').notNull(),
    ledgerEntryId: uuid('ledger_entry_id')
      .notNull()
      .references(() => journalEntries.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('purchases_user_product_idx').on(t.userId, t.productId),
    index('purchases_user_created_idx').on(t.userId, t.createdAt),
    check('purchases_quantity_range', sql`${t.quantity} between 1 and 10`),
    check('purchases_total', sql`${t.totalCents} = ${t.quantity} * ${t.unitPriceCents}`),
  ],
);

/** A bought pack: unopened until its opening is recorded. */
export const userPacks = pgTable(
  'user_packs',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    purchaseId: uuid('purchase_id')
      .notNull()
      .references(() => purchases.id),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id),
    packId: uuid('pack_id')
      .notNull()
      .references(() => packs.id),
    /** The odds as sold: opening uses these, even if the pack is edited later. */
    slots: jsonb('slots').$type<PackSlot[]>().notNull(),
    openingId: uuid('opening_id'),
    openedAt: timestamp('opened_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('user_packs_unopened_idx').on(t.userId, t.createdAt).where(sql`${t.openedAt} is null`),
    index('user_packs_purchase_idx').on(t.purchaseId),
    check('user_packs_opened_consistent', sql`(${t.openingId} is null) = (${t.openedAt} is null)`),
  ],
);

/**
 * Odds revisions (issue 44): the terms a product's packs are drawn under — price, slots with their
 * weights, and per class the catalogue pool with each card's value — addressed by the SHA-256 of
 * their canonical JSON (docs/fairness.md, "Odds revisions"). Published before the first opening
 * under them (at the latest in its transaction; openings.revision_hash references this table), and
 * append-only: a trigger refuses UPDATE and DELETE (migration of issue 44).
 */
export const oddsRevisions = pgTable(
  'odds_revisions',
  {
    hash: text('hash').primaryKey(),
    /** Append order (per product: the history's order). */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id),
    priceCents: integer('price_cents').notNull(),
    slots: jsonb('slots').$type<PackSlot[]>().notNull(),
    /** [{ classId, hash }] in class-id order: each class pool's hash (odds_class_pools). */
    classes: jsonb('classes').$type<Array<{ classId: string; hash: string }>>().notNull(),
    /** Expected card value per pack (cents, unrounded) and its variance: what the returns page promises. */
    meanCents: doublePrecision('mean_cents').notNull(),
    varianceCents2: doublePrecision('variance_cents2').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('odds_revisions_seq_uq').on(t.seq), index('odds_revisions_product_idx').on(t.productId, t.seq)],
);

/** One class's catalogue pool as a revision publishes it, stored once per distinct content. */
export const oddsClassPools = pgTable('odds_class_pools', {
  hash: text('hash').primaryKey(),
  classId: text('class_id').notNull(),
  /** [[cardId, valueCents]] sorted by card id. */
  cards: jsonb('cards').$type<Array<[string, number]>>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const openings = pgTable(
  'openings',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    userPackId: uuid('user_pack_id')
      .notNull()
      .references(() => userPacks.id),
    purchaseId: uuid('purchase_id')
      .notNull()
      .references(() => purchases.id),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id),
    packId: uuid('pack_id')
      .notNull()
      .references(() => packs.id),
    seedId: uuid('seed_id')
      .notNull()
      .references(() => userSeeds.id),
    serverSeedHash: text('server_seed_hash').notNull(),
    clientSeed: text('client_seed').notNull(),
    nonce: integer('nonce').notNull(),
    /** The odds used (snapshot) and the hashes of their and the pools' canonical text. */
    slots: jsonb('slots').$type<PackSlot[]>().notNull(),
    oddsHash: text('odds_hash').notNull(),
    poolHash: text('pool_hash').notNull(),
    /** The odds revision drawn under (issue 44; null for openings before revisions existed). */
    revisionHash: text('revision_hash').references(() => oddsRevisions.hash),
    draws: jsonb('draws').$type<DrawRecord[]>().notNull(),
    totalValueCents: integer('total_value_cents').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('openings_seed_nonce_uq').on(t.seedId, t.nonce),
    uniqueIndex('openings_user_pack_uq').on(t.userPackId),
    index('openings_user_created_idx').on(t.userId, t.createdAt.desc()),
    index('openings_purchase_idx').on(t.purchaseId),
  ],
);
