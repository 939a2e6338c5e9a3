import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { cards } from '../catalog/tables.ts';
import { dropEntries, dropTemplates, dropWinners, drops } from '../../db/schema/drops.ts';
import type { PersonalDataSection } from '../../lib/personal-data-section.ts';

/**
 * Drops: a person's entries and wins. Entries in drops not yet drawn are deleted with the account
 * (they would enter someone who no longer exists); entries of drawn drops and wins are kept, since
 * the published entry lists and proofs must still verify, and a won copy is an ownership record.
 * Their public ids are random and say nothing about the person.
 */
export const dropsPersonalData: PersonalDataSection = {
  name: 'drops',
  tables: [
    { table: dropEntries, keyedBy: ['user_id'], onDelete: 'keep', why: 'published draw proofs; undrawn entries are deleted' },
    { table: dropWinners, keyedBy: ['user_id'], onDelete: 'keep', why: 'prize awarded (ownership record, published proof)' },
    { table: drops, keyedBy: ['created_by'], onDelete: 'keep', why: 'business record; creator id is pseudonymous' },
    { table: dropTemplates, keyedBy: ['created_by'], onDelete: 'keep', why: 'business record; creator id is pseudonymous' },
  ],
  async export(db, { id }) {
    const [entries, wins] = await Promise.all([
      db
        .select({ dropId: dropEntries.dropId, title: drops.title, entryId: dropEntries.publicId, status: drops.status, inDraw: dropEntries.inDraw, createdAt: dropEntries.createdAt })
        .from(dropEntries)
        .innerJoin(drops, eq(drops.id, dropEntries.dropId))
        .where(eq(dropEntries.userId, id))
        .orderBy(asc(dropEntries.createdAt)),
      db
        .select({ dropId: dropWinners.dropId, title: drops.title, place: dropWinners.place, card: cards.name, ownedCardId: dropWinners.ownedCardId, createdAt: dropWinners.createdAt })
        .from(dropWinners)
        .innerJoin(drops, eq(drops.id, dropWinners.dropId))
        .innerJoin(cards, eq(cards.id, dropWinners.cardId))
        .where(eq(dropWinners.userId, id))
        .orderBy(asc(dropWinners.createdAt)),
    ]);
    return {
      entries: entries.map((e) => ({ ...e, createdAt: e.createdAt.toISOString() })),
      wins: wins.map((w) => ({ ...w, createdAt: w.createdAt.toISOString() })),
    };
  },
  async erase(tx, { id }) {
    await tx
      .delete(dropEntries)
      .where(
        and(
          eq(dropEntries.userId, id),
          inArray(dropEntries.dropId, sql`(select ${drops.id} from ${drops} where ${drops.status} in ('scheduled', 'open'))`),
        ),
      );
  },
};
