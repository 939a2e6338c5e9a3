import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth.ts';
import { cards } from './catalog.ts';

/**
 * Collecting (modules/collection, issue 19): the cards a user wants. A card going into a live
 * pack tells everyone who wants it (notification kind wishlist_live).
 */
export const wishlist = pgTable(
  'wishlist',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The product-goes-live fan-out looks wishers up by card.
  (t) => [primaryKey({ columns: [t.userId, t.cardId] }), index('wishlist_card_idx').on(t.cardId)],
);
