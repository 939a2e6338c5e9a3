import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth.ts';

/** Provable fairness (modules/fairness): each user's seed pairs and the class pools openings drew from. */

/** One provably-fair seed pair per user at a time; rotated pairs keep their revealed server seed. */
export const userSeeds = pgTable(
  'user_seeds',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** Secret while active: never sent to a client until revealedAt is set. */
    serverSeed: text('server_seed').notNull(),
    serverSeedHash: text('server_seed_hash').notNull(),
    clientSeed: text('client_seed').notNull(),
    /** The nonce the next opening with this seed uses (= openings so far). */
    nextNonce: integer('next_nonce').notNull().default(0),
    active: boolean('active').notNull().default(true),
    revealedAt: timestamp('revealed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('user_seeds_one_active_uq').on(t.userId).where(sql`${t.active}`),
    index('user_seeds_user_idx').on(t.userId, t.createdAt),
    check('user_seeds_revealed_inactive', sql`${t.active} = (${t.revealedAt} is null)`),
  ],
);

/** Class pools an opening drew from, stored once per distinct content (keyed by its hash). */
export const fairnessPools = pgTable('fairness_pools', {
  hash: text('hash').primaryKey(),
  /** [{ classId, cardIds (sorted) }], classes sorted by id. */
  classes: jsonb('classes').$type<Array<{ classId: string; cardIds: string[] }>>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
