import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { DROP_STATUSES, type DropPrizeInput } from '../../../shared/contracts/drops.ts';
import { user } from './auth.ts';
import { cards } from './catalog.ts';
import { ownedCards } from './inventory.ts';
import { uploads } from './uploads.ts';

/**
 * Daily drops (issue 16, modules/drops): free raffles for cards set aside from stock, drawn by
 * commit–reveal. A drop moves scheduled → open → drawing → closed (or → cancelled before the draw),
 * each step one conditional UPDATE on its row, so no step can happen twice.
 */

export const dropStatus = pgEnum('drop_status', DROP_STATUSES);

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/** A recurring daily drop: each day at `open_time` (UTC) a drop is scheduled from it. */
export const dropTemplates = pgTable('drop_templates', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  title: text('title').notNull(),
  description: text('description').notNull().default(''),
  imageKey: text('image_key').references(() => uploads.key),
  /** HH:MM, UTC. */
  openTime: text('open_time').notNull(),
  durationMinutes: integer('duration_minutes').notNull(),
  winnerCount: integer('winner_count').notNull(),
  requireVerifiedEmail: boolean('verified_email_required').notNull().default(true),
  minAccountAgeDays: integer('min_account_age_days').notNull().default(0),
  prizes: jsonb('prizes').$type<DropPrizeInput[]>().notNull(),
  active: boolean('active').notNull().default(true),
  createdBy: text('created_by').references(() => user.id),
  ...timestamps,
});

export const drops = pgTable(
  'drops',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    imageKey: text('image_key').references(() => uploads.key),
    opensAt: timestamp('opens_at', { withTimezone: true }).notNull(),
    closesAt: timestamp('closes_at', { withTimezone: true }).notNull(),
    winnerCount: integer('winner_count').notNull(),
    requireVerifiedEmail: boolean('verified_email_required').notNull().default(true),
    minAccountAgeDays: integer('min_account_age_days').notNull().default(0),
    status: dropStatus('status').notNull().default('scheduled'),
    /** 64 hex characters, made when the drop opens; secret until it has closed. */
    seed: text('seed'),
    /** SHA-256 of the seed, published from the opening on. */
    commitment: text('commitment'),
    entryListHash: text('entry_list_hash'),
    /** How many entries the frozen list held (set at the draw). */
    entryCount: integer('entry_count'),
    drawnAt: timestamp('drawn_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    templateId: uuid('template_id').references(() => dropTemplates.id, { onDelete: 'set null' }),
    createdBy: text('created_by').references(() => user.id),
    ...timestamps,
  },
  (t) => [
    index('drops_status_opens_idx').on(t.status, t.opensAt),
    index('drops_status_closes_idx').on(t.status, t.closesAt),
    index('drops_drawn_idx').on(t.drawnAt),
    // One drop per template per day, however many processes schedule it.
    uniqueIndex('drops_template_opens_uq').on(t.templateId, t.opensAt),
    check('drops_closes_after_opens', sql`${t.closesAt} > ${t.opensAt}`),
    check('drops_winner_count', sql`${t.winnerCount} >= 1`),
    check('drops_seed_when_open', sql`${t.status} in ('scheduled', 'cancelled') or (${t.seed} is not null and ${t.commitment} is not null)`),
  ],
);

/** The prize cards of a drop, set aside from stock ('drop_reserve') while it is scheduled. */
export const dropPrizes = pgTable(
  'drop_prizes',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    dropId: uuid('drop_id')
      .notNull()
      .references(() => drops.id, { onDelete: 'cascade' }),
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id),
    /** Prize order: place 0 takes the first copy of position 0, … */
    position: integer('position').notNull(),
    quantity: integer('quantity').notNull(),
  },
  (t) => [uniqueIndex('drop_prizes_drop_card_uq').on(t.dropId, t.cardId), check('drop_prizes_quantity', sql`${t.quantity} >= 1`)],
);

export const dropEntries = pgTable(
  'drop_entries',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    dropId: uuid('drop_id')
      .notNull()
      .references(() => drops.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id),
    /** The id published in the entry list (ENTRY_ID_PATTERN); random, says nothing about the user. */
    publicId: text('public_id').notNull(),
    /** In the entry list frozen at the draw (false before it, and for an account suspended or closed by then). */
    inDraw: boolean('in_draw').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('drop_entries_drop_user_uq').on(t.dropId, t.userId),
    uniqueIndex('drop_entries_drop_public_uq').on(t.dropId, t.publicId),
    index('drop_entries_user_idx').on(t.userId),
  ],
);

export const dropWinners = pgTable(
  'drop_winners',
  {
    dropId: uuid('drop_id')
      .notNull()
      .references(() => drops.id, { onDelete: 'cascade' }),
    place: integer('place').notNull(),
    entryId: uuid('entry_id')
      .notNull()
      .references(() => dropEntries.id),
    userId: text('user_id')
      .notNull()
      .references(() => user.id),
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id),
    /** The copy put in the winner's vault. */
    ownedCardId: uuid('owned_card_id').references(() => ownedCards.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.dropId, t.place] }), uniqueIndex('drop_winners_entry_uq').on(t.entryId), index('drop_winners_user_idx').on(t.userId)],
);
