import { asc, eq } from 'drizzle-orm';
import { stockMovements } from '../../db/schema/inventory.ts';
import type { PersonalDataSection } from '../../lib/personal-data-section.ts';

/**
 * Stock movements name who caused them: the buyer of an opening, the seller of a buyback, the
 * admin of an adjustment or grant. Stock accounting: kept on deletion (the id is pseudonymous).
 */
export const inventoryPersonalData: PersonalDataSection = {
  name: 'inventory',
  tables: [{ table: stockMovements, keyedBy: ['actor_id'], onDelete: 'keep', why: 'stock accounting' }],
  async export(db, { id }) {
    const rows = await db.select().from(stockMovements).where(eq(stockMovements.actorId, id)).orderBy(asc(stockMovements.createdAt), asc(stockMovements.id));
    return {
      stockMovements: rows.map((m) => ({
        id: m.id,
        cardId: m.cardId,
        delta: m.delta,
        stockAfter: m.stockAfter,
        reason: m.reason,
        referenceType: m.referenceType,
        referenceId: m.referenceId,
        note: m.note,
        createdAt: m.createdAt.toISOString(),
      })),
    };
  },
  async erase() {
    // Kept: see tables.
  },
};
