import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, type AnyPgColumn, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { ArchitectLayout, BlendMode } from '../../../shared/contracts/catalog.ts';
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
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    check('cards_stock_nonnegative', sql`${t.stock} >= 0`),
    check('cards_value_nonnegative', sql`${t.valueCents} >= 0`),
    uniqueIndex('cards_set_number_unique').on(t.setName, t.number),
    // The public list (active cards only) in each of its sort orders, with and without filters.
    index('cards_public_value_idx').on(t.valueCents.desc(), t.id).where(sql`${t.active}`),
    index('cards_public_name_idx').on(sql`lower(${t.name})`, t.id).where(sql`${t.active}`),
    index('cards_public_newest_idx').on(t.createdAt.desc(), t.id).where(sql`${t.active}`),
    index('cards_public_class_value_idx').on(t.classId, t.valueCents.desc()).where(sql`${t.active}`),
    index('cards_public_set_value_idx').on(t.setName, t.valueCents.desc()).where(sql`${t.active}`),
    // Admin filters and reference checks.
    index('cards_class_idx').on(t.classId),
    index('cards_architect_idx').on(t.architectId),
    index('cards_texture_idx').on(t.textureId),
    index('cards_image_idx').on(t.imageKey),
    index('cards_created_idx').on(t.createdAt),
    index('cards_stock_idx').on(t.stock),
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
  },
  (t) => [check('catalog_state_one_row', sql`${t.id} = 1`)],
);
