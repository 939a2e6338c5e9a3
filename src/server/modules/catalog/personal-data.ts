import { asc, eq } from 'drizzle-orm';
import { stockAdjustments, uploads } from '../../db/schema/catalog.ts';
import type { PersonalDataSection } from '../personal-data.ts';

/** Staff work on the catalog: who uploaded an image or moved stock. Business records, kept. */
export const catalogPersonalData: PersonalDataSection = {
  name: 'catalog',
  tables: [
    { table: uploads, keyedBy: ['created_by'], onDelete: 'keep', why: 'catalog asset; creator id is pseudonymous' },
    { table: stockAdjustments, keyedBy: ['actor_id'], onDelete: 'keep', why: 'stock accounting' },
  ],
  async export(db, { id }) {
    const [ups, adjustments] = await Promise.all([
      db.select({ key: uploads.key, createdAt: uploads.createdAt }).from(uploads).where(eq(uploads.createdBy, id)).orderBy(asc(uploads.createdAt)),
      db.select().from(stockAdjustments).where(eq(stockAdjustments.actorId, id)).orderBy(asc(stockAdjustments.createdAt)),
    ]);
    return {
      uploads: ups.map((u) => ({ key: u.key, createdAt: u.createdAt.toISOString() })),
      stockAdjustments: adjustments.map((a) => ({
        id: a.id,
        cardId: a.cardId,
        delta: a.delta,
        stockAfter: a.stockAfter,
        reason: a.reason,
        createdAt: a.createdAt.toISOString(),
      })),
    };
  },
  async erase() {
    // Kept: see tables.
  },
};
