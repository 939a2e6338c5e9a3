import { eq } from 'drizzle-orm';
import type { SharedPull } from '../../../shared/contracts/pulls.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../http/errors.ts';
import { userSeeds } from '../fairness/tables.ts';
import { ownedCards } from '../inventory/tables.ts';
import { pullById, refsFor } from '../shop/read.ts';
import { openings } from '../shop/tables.ts';

/** A pull's public view, or null when no opening drew a card with this id. */
export async function findSharedPull(db: Db, id: string): Promise<SharedPull | null> {
  const pull = await pullById(db, id);
  if (!pull) return null;
  const [o] = await db
    .select({
      id: openings.id,
      nonce: openings.nonce,
      serverSeedHash: openings.serverSeedHash,
      poolHash: openings.poolHash,
      revisionHash: openings.revisionHash,
      seedActive: userSeeds.active,
      slot: ownedCards.slot,
    })
    .from(ownedCards)
    .innerJoin(openings, eq(openings.id, ownedCards.openingId))
    .innerJoin(userSeeds, eq(userSeeds.id, openings.seedId))
    .where(eq(ownedCards.id, id));
  if (!o) return null;
  return {
    pull,
    proof: {
      openingId: o.id,
      slot: o.slot ?? 0,
      nonce: o.nonce,
      serverSeedHash: o.serverSeedHash,
      poolHash: o.poolHash,
      revisionHash: o.revisionHash,
      seedRevealed: !o.seedActive,
    },
    refs: await refsFor(db, [pull.card]),
  };
}

export async function getSharedPull(db: Db, id: string): Promise<SharedPull> {
  const found = await findSharedPull(db, id);
  if (!found) throw notFound('No pull with this id.');
  return found;
}
