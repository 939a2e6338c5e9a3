import { asc, eq, inArray } from 'drizzle-orm';
import { buybackLines, buybacks } from '../../db/schema/buyback.ts';
import type { PersonalDataSection } from '../../lib/personal-data-section.ts';

/** Sales back to the house: money records, kept on deletion. Lines hang off their sale. */
export const buybackPersonalData: PersonalDataSection = {
  name: 'buyback',
  tables: [{ table: buybacks, keyedBy: ['user_id'], onDelete: 'keep', why: 'money paid out (accounting)' }],
  async export(db, { id }) {
    const sales = await db.select().from(buybacks).where(eq(buybacks.userId, id)).orderBy(asc(buybacks.createdAt), asc(buybacks.id));
    const lines = sales.length
      ? await db
          .select()
          .from(buybackLines)
          .where(inArray(buybackLines.buybackId, sales.map((s) => s.id)))
          .orderBy(asc(buybackLines.id))
      : [];
    return {
      sales: sales.map((s) => ({
        id: s.id,
        cardCount: s.cardCount,
        marketValueCents: s.marketValueCents,
        totalCents: s.totalCents,
        ledgerEntryId: s.ledgerEntryId,
        createdAt: s.createdAt.toISOString(),
        lines: lines
          .filter((l) => l.buybackId === s.id)
          .map((l) => ({
            ownedCardId: l.ownedCardId,
            cardId: l.cardId,
            marketValueCents: l.marketValueCents,
            rateBp: l.rateBp,
            amountCents: l.amountCents,
          })),
      })),
    };
  },
  async erase() {
    // Kept: see tables.
  },
};
