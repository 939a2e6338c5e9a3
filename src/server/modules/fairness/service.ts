import { and, desc, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PoolSnapshot, Seeds } from '../../../shared/contracts/shop.ts';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import { catalogState } from '../catalog/tables.ts';
import { fairnessPools, userSeeds } from '../../db/schema/fairness.ts';
import { notFound } from '../../http/errors.ts';
import { newClientSeed, newServerSeed, sha256HexSync } from './crypto.ts';

/**
 * Each user's provably-fair seed pair. The active server seed never leaves the server; its
 * SHA-256 is shown in advance. Openings take nonces from the active row with one UPDATE, which
 * also serializes a user's concurrent openings (so a nonce is never used twice).
 */

export type SeedRow = typeof userSeeds.$inferSelect;

const activeOf = (userId: string) => and(eq(userSeeds.userId, userId), eq(userSeeds.active, true));

async function insertSeed(db: DbOrTx, userId: string, clientSeed = newClientSeed()) {
  const serverSeed = newServerSeed();
  await db
    .insert(userSeeds)
    .values({ userId, serverSeed, serverSeedHash: sha256HexSync(serverSeed), clientSeed })
    .onConflictDoNothing({ target: userSeeds.userId, where: sql`${userSeeds.active}` });
}

export async function ensureActiveSeed(db: DbOrTx, userId: string): Promise<SeedRow> {
  const [row] = await db.select().from(userSeeds).where(activeOf(userId));
  if (row) return row;
  await insertSeed(db, userId);
  const [created] = await db.select().from(userSeeds).where(activeOf(userId));
  return created!;
}

/**
 * Reserves `count` consecutive nonces of the user's active seed and returns the seed with the
 * first of them. The row stays locked until the transaction ends.
 */
export async function takeNonces(
  tx: Tx,
  userId: string,
  count: number,
): Promise<{ seed: SeedRow; firstNonce: number; poolVersion: string; oddsVersion: string }> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const [row] = await tx
      .update(userSeeds)
      .set({ nextNonce: sql`${userSeeds.nextNonce} + ${count}` })
      .where(activeOf(userId))
      // The opening needs the catalog's pool and odds versions too (shop/pools.ts, shop/revisions.ts);
      // one statement for all three.
      .returning({
        ...getTableColumns(userSeeds),
        poolVersion: sql<string>`(select ${catalogState.poolVersion} from ${catalogState} where ${catalogState.id} = 1)`,
        oddsVersion: sql<string>`(select ${catalogState.oddsVersion} from ${catalogState} where ${catalogState.id} = 1)`,
      });
    if (row) {
      const { poolVersion, oddsVersion, ...seed } = row;
      return { seed, firstNonce: seed.nextNonce - count, poolVersion, oddsVersion };
    }
    await insertSeed(tx, userId);
  }
  throw new Error('could not create a seed pair');
}

function pairDto(r: SeedRow) {
  return {
    id: r.id,
    serverSeedHash: r.serverSeedHash,
    clientSeed: r.clientSeed,
    nextNonce: r.nextNonce,
    createdAt: r.createdAt.toISOString(),
  };
}
function revealedDto(r: SeedRow) {
  return { ...pairDto(r), serverSeed: r.serverSeed, revealedAt: r.revealedAt!.toISOString() };
}

export async function getSeeds(db: Db, userId: string): Promise<Seeds> {
  const active = await ensureActiveSeed(db, userId);
  const revealed = await db
    .select()
    .from(userSeeds)
    .where(and(eq(userSeeds.userId, userId), eq(userSeeds.active, false)))
    .orderBy(desc(userSeeds.revealedAt))
    .limit(50);
  return { active: pairDto(active), revealed: revealed.map(revealedDto) };
}

/** Changes the client seed of the active pair; the nonce keeps counting, so no (seed, nonce) repeats. */
export async function setClientSeed(db: Db, userId: string, clientSeed: string): Promise<Seeds> {
  await ensureActiveSeed(db, userId);
  await db.update(userSeeds).set({ clientSeed }).where(activeOf(userId));
  return getSeeds(db, userId);
}

/** Reveals the active server seed and starts a new pair with the same client seed. */
export async function rotateSeed(db: Db, userId: string) {
  await ensureActiveSeed(db, userId);
  return db.transaction(async (tx) => {
    // Waits for any opening holding the row, so every opening of the old seed is committed first.
    const [old] = await tx
      .update(userSeeds)
      .set({ active: false, revealedAt: sql`now()` })
      .where(activeOf(userId))
      .returning();
    await insertSeed(tx, userId, old!.clientSeed);
    const [active] = await tx.select().from(userSeeds).where(activeOf(userId));
    return { revealed: revealedDto(old!), active: pairDto(active!) };
  });
}

// Pools ----------------------------------------------------------------------------------------

/** Hashes we know are stored, so the hot path skips the insert (rows are never deleted). */
const knownPools = new Set<string>();

export async function storePool(tx: DbOrTx, hash: string, pools: Readonly<Record<string, readonly string[]>>): Promise<void> {
  if (knownPools.has(hash)) return;
  const classes = Object.keys(pools)
    .sort()
    .map((classId) => ({ classId, cardIds: [...pools[classId]!] }));
  await tx.insert(fairnessPools).values({ hash, classes }).onConflictDoNothing({ target: fairnessPools.hash });
  // The caller calls rememberPool() only after its transaction commits, so a rolled-back insert
  // is never taken as stored.
  if (knownPools.size > 10_000) knownPools.clear();
}

/** Whether this process knows the pool snapshot `hash` is stored (committed). */
export function poolStored(hash: string): boolean {
  return knownPools.has(hash);
}

export function rememberPool(hash: string) {
  knownPools.add(hash);
}

export async function getPool(db: DbOrTx, hash: string): Promise<PoolSnapshot> {
  const [row] = await db.select().from(fairnessPools).where(eq(fairnessPools.hash, hash));
  if (!row) throw notFound('No pool with this hash.');
  return { hash: row.hash, classes: row.classes };
}

/**
 * Takes `quantity` nonces of a seed as a statement for a caller's CTE (the one-statement open), only
 * if the seed is still the active one the caller read (same nonce, client seed and hash) and `gate`
 * holds; returns "id" when it did. Hot path: same statement, no round trip.
 */
export function takeNoncesSql(p: { seedId: SQL; userId: SQL; quantity: SQL; nextNonce: SQL; clientSeed: SQL; serverSeedHash: SQL; gate: SQL }): SQL {
  return sql`update ${userSeeds} set "next_nonce" = "next_nonce" + ${p.quantity}
      where "id" = ${p.seedId} and "user_id" = ${p.userId} and "active" and "next_nonce" = ${p.nextNonce}
        and "client_seed" = ${p.clientSeed} and "server_seed_hash" = ${p.serverSeedHash}
        and ${p.gate}
      returning "id"`;
}
