import { asc, eq } from 'drizzle-orm';
import { cards } from '../catalog/tables.ts';
import { wishlist } from '../../db/schema/collection.ts';
import { ownedCards } from '../inventory/tables.ts';
import type { PersonalDataSection } from '../../lib/personal-data-section.ts';

/**
 * Owned copies and the wishlist. On deletion they stay with the closed account, whatever their status: cards in
 * the vault are not put back into stock or given away (the deletion dialog says they can no
 * longer be used), and the rest are the history of sales and shipments.
 */
export const collectionPersonalData: PersonalDataSection = {
  name: 'collection',
  tables: [
    { table: ownedCards, keyedBy: ['owner_id'], onDelete: 'keep', why: 'ownership of physical copies (stock accounting)' },
    { table: wishlist, keyedBy: ['user_id'], onDelete: 'delete', why: 'cards the user wants (a preference)' },
  ],
  async export(db, { id }) {
    const rows = await db
      .select({ o: ownedCards, cardName: cards.name, setName: cards.setName, number: cards.number })
      .from(ownedCards)
      .innerJoin(cards, eq(cards.id, ownedCards.cardId))
      .where(eq(ownedCards.ownerId, id))
      .orderBy(asc(ownedCards.acquiredAt), asc(ownedCards.id));
    const wished = await db
      .select({ cardId: wishlist.cardId, cardName: cards.name, createdAt: wishlist.createdAt })
      .from(wishlist)
      .innerJoin(cards, eq(cards.id, wishlist.cardId))
      .where(eq(wishlist.userId, id))
      .orderBy(asc(wishlist.createdAt));
    return {
      wishlist: wished.map((w) => ({ cardId: w.cardId, cardName: w.cardName, addedAt: w.createdAt.toISOString() })),
      ownedCards: rows.map(({ o, cardName, setName, number }) => ({
        id: o.id,
        cardId: o.cardId,
        cardName,
        setName,
        number,
        status: o.status,
        acquiredVia: o.acquiredVia,
        valueCents: o.valueCents,
        openingId: o.openingId,
        acquiredAt: o.acquiredAt.toISOString(),
        updatedAt: o.updatedAt.toISOString(),
      })),
    };
  },
  async erase(tx, { id }) {
    // Owned cards are kept (see above); the wishlist is only a preference.
    await tx.delete(wishlist).where(eq(wishlist.userId, id));
  },
};
