import { asc, eq } from 'drizzle-orm';
import type { PackPool, PackSlot } from '../../../shared/contracts/shop.ts';
import { cmp, poolCanonical } from '../../../shared/fairness.ts';
import type { DbOrTx } from '../../db/client.ts';
import { cards, catalogState } from '../catalog/tables.ts';
import { sha256HexSync } from '../fairness/crypto.ts';
import { classesOf } from './odds.ts';
import { eligibleWhere } from './read.ts';
import { frozenJson } from '../../lib/frozen-json.ts';

/**
 * The cards a pack definition can give, by class, cached per pool version.
 *
 * Reading every eligible card on every opening costs one row per card (100,000 at a big
 * catalog) and a hash of their text. Membership only changes when a card enters or leaves the
 * drawable set, and PostgreSQL then gives `catalog_state.pool_version` a new random value in the
 * same transaction (migration 0006). So an opening reads that one row and reuses the pool read at
 * the same version, in any transaction, by any request of this process.
 *
 * The cached stock is a hint, not the truth: openings and buybacks move stock without a new
 * version. The opening checks the hint against the stock its conditional update finds (a card the
 * draw took the last copy of must be at 0 afterwards, any other above 0), and a pack that the hint
 * says is sold out is only refused after a fresh read. On any difference it forgets the cache and
 * is retried on a fresh read (StockRace), so a committed draw is always the one a fresh read would
 * have given.
 */
export interface Pool {
  version: string;
  /** classId → eligible card ids in `cmp` order (what drawOpening expects). Never modified. */
  pools: Readonly<Record<string, readonly string[]>>;
  stock: ReadonlyMap<string, number>;
  /** sha256 of poolCanonical(pools): the `pool_hash` of an opening that draws from this pool. */
  hash: string;
  /** False for the request that read it, true for every later one (whose stock hint may be stale). */
  fromCache: boolean;
}

const MAX_ENTRIES = 256;
const cache = new Map<string, Pool>();
/** The version of the last pool read or taken from the cache: the one-statement opening's guess. */
let lastVersion: string | null = null;

/** The pool version this process saw last (null after forgetPoolVersion), never trusted unchecked. */
export function lastPoolVersion(): string | null {
  return lastVersion;
}

/** The one-statement opening found another version: read it again before the next guess. */
export function forgetPoolVersion() {
  lastVersion = null;
}

export async function poolVersion(db: DbOrTx): Promise<string> {
  const [row] = await db.select({ v: catalogState.poolVersion }).from(catalogState).where(eq(catalogState.id, 1));
  return row!.v;
}

export async function readPool(db: DbOrTx, version: string, slots: readonly PackSlot[], pool: PackPool): Promise<Pool> {
  const classIds = classesOf(slots as PackSlot[]);
  const key = `${version}|${classIds.join(',')}|${frozenJson(pool)}`;
  lastVersion = version;
  const hit = cache.get(key);
  if (hit) return { ...hit, fromCache: true };
  const rows = classIds.length
    ? await db
        .select({ id: cards.id, classId: cards.classId, stock: cards.stock })
        .from(cards)
        .where(eligibleWhere(classIds, pool))
        .orderBy(asc(cards.classId), asc(cards.id))
    : [];
  const pools: Record<string, string[]> = Object.fromEntries(classIds.map((c) => [c, [] as string[]]));
  const stock = new Map<string, number>();
  for (const r of rows) {
    pools[r.classId]!.push(r.id);
    stock.set(r.id, r.stock);
  }
  // PostgreSQL orders uuids by bytes, which is the same as cmp on their lowercase text; sorting
  // here anyway keeps drawOpening's no-copy fast path independent of the database's collation.
  for (const ids of Object.values(pools)) ids.sort(cmp);
  const entry: Pool = { version, pools, stock, hash: sha256HexSync(poolCanonical(pools)), fromCache: false };
  // Versions only move forward, so the oldest entries are the dead ones.
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(key, entry);
  return entry;
}

/** After an opening found less stock than the cached hint: read fresh on the retry. */
export function forgetPools() {
  cache.clear();
}

/** The first class of `slots` with no eligible card, or null. */
export function firstEmptyClass(slots: readonly PackSlot[], pool: Pool): string | null {
  for (const s of slots) for (const e of s.odds) if (!pool.pools[e.classId]?.length) return e.classId;
  return null;
}
