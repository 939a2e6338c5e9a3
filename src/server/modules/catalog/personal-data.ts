import { asc, eq } from 'drizzle-orm';
import { uploads } from '../uploads/tables.ts';
import { cardValueProposals } from '../../db/schema/catalog.ts';
import type { PersonalDataSection } from '../../lib/personal-data-section.ts';

/**
 * Staff work on the catalog: who uploaded an image. Business records, kept. Who moved stock is in
 * the inventory's section (stock_movements).
 */
export const catalogPersonalData: PersonalDataSection = {
  name: 'catalog',
  tables: [
    { table: uploads, keyedBy: ['created_by'], onDelete: 'keep', why: 'catalog asset; creator id is pseudonymous' },
    { table: cardValueProposals, keyedBy: ['proposed_by', 'decided_by'], onDelete: 'keep', why: 'staff work record (value reviews, ADR 0024); ids are pseudonymous' },
  ],
  async export(db, { id }) {
    const ups = await db.select({ key: uploads.key, createdAt: uploads.createdAt }).from(uploads).where(eq(uploads.createdBy, id)).orderBy(asc(uploads.createdAt));
    return { uploads: ups.map((u) => ({ key: u.key, createdAt: u.createdAt.toISOString() })) };
  },
  async erase() {
    // Kept: see tables.
  },
};
