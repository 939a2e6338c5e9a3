import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, numeric, pgTable, text, timestamp, type AnyPgColumn, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { ArchitectLayout, BlendMode, ValueSource } from '../../../shared/contracts/catalog.ts';
import type { GradingCompany } from '../../../shared/contracts/grading.ts';
import type { ValueProposalStatus } from '../../../shared/contracts/value-proposals.ts';
import { user } from './auth.ts';
import { uploads } from './uploads.ts';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/** A foil/holo overlay image with the blend settings that make a card shine. */
export const textures = pgTable(
  'textures',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    name: text('name').notNull(),
    imageKey: text('image_key')
      .notNull()
      .references(() => uploads.key),
    blendMode: text('blend_mode').$type<BlendMode>().notNull(),
    opacity: integer('opacity').notNull(),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    check('textures_opacity_range', sql`${t.opacity} between 0 and 100`),
    index('textures_name_idx').on(sql`lower(${t.name})`),
  ],
);

/** A rarity tier. Drives pack odds, the card glow and (optionally) its own buyback rate. */
export const cardClasses = pgTable(
  'card_classes',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    name: text('name').notNull(),
    colour: text('colour').notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
    defaultTextureId: uuid('default_texture_id').references((): AnyPgColumn => textures.id),
    buybackRateBp: integer('buyback_rate_bp'),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('card_classes_name_unique').on(sql`lower(${t.name})`),
    index('card_classes_sort_idx').on(t.sortOrder),
    check('card_classes_buyback_range', sql`${t.buybackRateBp} is null or ${t.buybackRateBp} between 0 and 10000`),
  ],
);

/** A card frame template: frame art, the art window and where the texts sit (percentages). */
export const architects = pgTable(
  'architects',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    name: text('name').notNull(),
    frameImageKey: text('frame_image_key')
      .notNull()
      .references(() => uploads.key),
    layout: jsonb('layout').$type<ArchitectLayout>().notNull(),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [index('architects_name_idx').on(sql`lower(${t.name})`)],
);

/**
 * Every opening takes stock from 5 random cards, so `stock` must stay out of every index (key,
 * expression and partial predicate): then PostgreSQL writes the new row version on the same page
 * and touches none of this table's indexes (a HOT update), instead of adding an entry to each of
 * them. Migration 0024 dropped the one index on stock and leaves 15 % of each page free for those
 * versions (fillfactor 85, which drizzle-kit does not model); docs/decisions/0021.
 */
export const cards = pgTable(
  'cards',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    name: text('name').notNull(),
    setName: text('set_name').notNull(),
    number: integer('number').notNull(),
    classId: uuid('class_id')
      .notNull()
      .references(() => cardClasses.id),
    architectId: uuid('architect_id')
      .notNull()
      .references(() => architects.id),
    textureId: uuid('texture_id').references(() => textures.id),
    imageKey: text('image_key')
      .notNull()
      .references(() => uploads.key),
    valueCents: integer('value_cents').notNull(),
    description: text('description').notNull().default(''),
    active: boolean('active').notNull().default(true),
    /** Physical copies in the vault ready to be pulled. */
    stock: integer('stock').notNull().default(0),
    /**
     * The grade the shop lists this card at (issue 19): both or neither. Each physical slab, with
     * its own certificate, grade and photos, is a row of `card_slabs` (issue 38, ADR 0023); a graded
     * card's stock is the number of its slabs in stock.
     */
    gradingCompany: text('grading_company').$type<GradingCompany>(),
    grade: numeric('grade', { precision: 3, scale: 1, mode: 'number' }),
    /** Unused since migration 0026 moved every certificate to its slab (and nulled this); nothing writes it. */
    certNumber: text('cert_number'),
    /** The listing's photos (the catalog's); an owned slab shows its own. */
    frontPhotoKey: text('front_photo_key').references(() => uploads.key),
    backPhotoKey: text('back_photo_key').references(() => uploads.key),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    check('cards_stock_nonnegative', sql`${t.stock} >= 0`),
    check('cards_grading_company', sql`${t.gradingCompany} in ('PSA', 'BGS', 'CGC', 'SGC')`),
    check(
      'cards_grading_pair',
      sql`(${t.gradingCompany} is null and ${t.grade} is null) or (${t.gradingCompany} is not null and ${t.grade} between 1 and 10)`,
    ),
    index('cards_public_graded_value_idx').on(t.valueCents.desc(), t.id).where(sql`${t.active} and ${t.gradingCompany} is not null`),
    index('cards_front_photo_idx').on(t.frontPhotoKey),
    index('cards_back_photo_idx').on(t.backPhotoKey),
    check('cards_value_nonnegative', sql`${t.valueCents} >= 0`),
    uniqueIndex('cards_set_number_unique').on(t.setName, t.number),
    // The public list (active cards only) in each of its sort orders, with and without filters.
    index('cards_public_value_idx').on(t.valueCents.desc(), t.id).where(sql`${t.active}`),
    index('cards_public_name_idx').on(sql`lower(${t.name})`, t.id).where(sql`${t.active}`),
    index('cards_public_newest_idx').on(t.createdAt.desc(), t.id).where(sql`${t.active}`),
    index('cards_public_class_value_idx').on(t.classId, t.valueCents.desc()).where(sql`${t.active}`),
    index('cards_public_set_value_idx').on(t.setName, t.valueCents.desc()).where(sql`${t.active}`),
    // "Name contains" (the market's search, ADR 0033): a trigram index answers ILIKE '%…%' without
    // reading every card (pg_trgm, created by migration 0036; PGlite loads it, db/pglite.ts).
    index('cards_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
    // Admin filters and reference checks.
    index('cards_class_idx').on(t.classId),
    index('cards_architect_idx').on(t.architectId),
    index('cards_texture_idx').on(t.textureId),
    index('cards_image_idx').on(t.imageKey),
    index('cards_created_idx').on(t.createdAt),
  ],
);

/**
 * Every market value a card has had (issue 19): a row per change, written in the transaction that
 * changes `cards.value_cents` (admin create/edit, CSV import, seed). The pack-open path never
 * changes a value, so it never writes here. Not personal data: no user is named.
 */
export const cardValueHistory = pgTable(
  'card_value_history',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id, { onDelete: 'cascade' }),
    valueCents: integer('value_cents').notNull(),
    source: text('source').$type<ValueSource>().notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('card_value_history_value_nonnegative', sql`${t.valueCents} >= 0`),
    index('card_value_history_card_idx').on(t.cardId, t.recordedAt),
  ],
);

/**
 * A card value change an admin made beyond the owner's daily bound (`catalog.valueLimits`, ADR
 * 0024): it waits here, and `cards.value_cents` (what buyback, insurance, shipping and grants
 * use) keeps its value until the owner approves it. At most one pending proposal per card: a new
 * one supersedes it, as does an owner's own edit of the value.
 */
export const cardValueProposals = pgTable(
  'card_value_proposals',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id, { onDelete: 'cascade' }),
    /** The card's value in effect when it was proposed. */
    fromCents: integer('from_cents').notNull(),
    toCents: integer('to_cents').notNull(),
    proposedBy: text('proposed_by').references(() => user.id, { onDelete: 'set null' }),
    status: text('status').$type<ValueProposalStatus>().notNull().default('pending'),
    decidedBy: text('decided_by').references(() => user.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    /** Why the owner rejected it (or what superseded it). */
    decisionNote: text('decision_note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('card_value_proposals_values_nonnegative', sql`${t.fromCents} >= 0 and ${t.toCents} >= 0`),
    check('card_value_proposals_status', sql`${t.status} in ('pending', 'approved', 'rejected', 'superseded')`),
    uniqueIndex('card_value_proposals_one_pending').on(t.cardId).where(sql`${t.status} = 'pending'`),
    index('card_value_proposals_status_idx').on(t.status, t.createdAt.desc()),
  ],
);

/**
 * One row. `pool_version` gets a new random value, when the transaction commits, whenever a card
 * enters or leaves the drawable set (active, not archived, stock > 0) or changes class (deferred
 * triggers in migration 0006). Openings cache the card pools per version, so the hot path reads
 * this one row instead of every eligible card; moving stock without emptying or refilling a card
 * does not change it. Random rather than a counter, so one process can cache pools of several
 * databases (tests, bench) without two of them ever sharing a version by chance.
 */
export const catalogState = pgTable(
  'catalog_state',
  {
    id: integer('id').primaryKey().default(1),
    poolVersion: uuid('pool_version').notNull().defaultRandom(),
    /**
     * New random value (at commit) whenever what an odds revision publishes may change: a card
     * enters or leaves a pack's catalogue pool whatever its stock (active, archived, class), or its
     * value changes (migration 0030, issue 44). Stock alone never changes it, so the cached
     * revision of a product survives sell-outs (shop/revisions.ts).
     */
    oddsVersion: uuid('odds_version').notNull().defaultRandom(),
  },
  (t) => [check('catalog_state_one_row', sql`${t.id} = 1`)],
);
