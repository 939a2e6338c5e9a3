import { and, asc, eq, sql } from 'drizzle-orm';
import { openings } from '../shop/tables.ts';
import { userSeeds } from '../../db/schema/fairness.ts';
import type { PersonalDataSection } from '../../lib/personal-data-section.ts';

/**
 * Seed pairs. An active server seed is a secret until rotated: the export gives its hash only.
 * On deletion a pair no opening used is deleted; a used pair is the proof of kept openings, so it
 * stays, retired (revealed) so it is never live again.
 */
export const fairnessPersonalData: PersonalDataSection = {
  name: 'fairness',
  tables: [{ table: userSeeds, keyedBy: ['user_id'], onDelete: 'keep', why: 'only pairs used by kept openings (their proof); unused pairs deleted' }],
  async export(db, { id }) {
    const rows = await db.select().from(userSeeds).where(eq(userSeeds.userId, id)).orderBy(asc(userSeeds.createdAt), asc(userSeeds.id));
    return {
      seeds: rows.map((s) => ({
        id: s.id,
        active: s.active,
        serverSeedHash: s.serverSeedHash,
        // Only once revealed: before that, knowing it would predict every future draw.
        serverSeed: s.revealedAt ? s.serverSeed : null,
        clientSeed: s.clientSeed,
        nextNonce: s.nextNonce,
        revealedAt: s.revealedAt?.toISOString() ?? null,
        createdAt: s.createdAt.toISOString(),
      })),
    };
  },
  async erase(tx, { id }) {
    const used = sql`exists (select 1 from ${openings} where ${openings.seedId} = ${userSeeds.id})`;
    await tx.delete(userSeeds).where(and(eq(userSeeds.userId, id), sql`not ${used}`));
    await tx
      .update(userSeeds)
      .set({ active: false, revealedAt: new Date() })
      .where(and(eq(userSeeds.userId, id), eq(userSeeds.active, true)));
  },
};
