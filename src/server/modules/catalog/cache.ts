import { count, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { cards } from '../../db/schema/catalog.ts';
import type { PublicSet } from '../../../shared/contracts/catalog.ts';
import type { Deps } from '../../deps.ts';
import { invalidate, onInvalidate } from '../realtime/invalidation.ts';
import { ResponseCache } from './response-cache.ts';

/**
 * The caches of the public reads (public.ts). The public list, its counts and the sets change only
 * when an admin edits the catalog (stock is not part of them), so they are served from memory and
 * dropped by every catalog write (`afterCatalogWrite`): in the writer's process at once, in every
 * other app process on the same PostgreSQL when the bus's `cache.invalidated` event arrives
 * (realtime/invalidation.ts, ADR 0018). PUBLIC_CACHE_TTL_MS stays as the bound should an event be
 * lost (the LISTEN connection dropped); it is inside the max-age=15 the public list already
 * promises to browsers and shared caches.
 */

/** The public list's Cache-Control max-age; the in-process TTL must not exceed it. */
export const PUBLIC_LIST_MAX_AGE_S = 15;
export const PUBLIC_CACHE_TTL_MS = 10_000;

/**
 * Bumped by every catalog write. A cache fill that started under an older generation may have
 * read rows from before the write, so it is used once but not kept.
 */
const generations = new WeakMap<object, number>();
export const generationOf = (db: object) => generations.get(db) ?? 0;

/** Called after any change to cards, classes, architects or textures (committed or not). */
export function invalidateCatalogCaches(db: object) {
  generations.set(db, generationOf(db) + 1);
  countCache.delete(db);
  setsCache.delete(db);
  publicListCache.get(db)?.clear();
}

/** Makes this app's catalog caches follow catalog writes made by any process (catalogRoutes). */
export function connectCatalogCaches(deps: Deps) {
  onInvalidate(deps, 'catalog', () => invalidateCatalogCaches(deps.db));
}

/**
 * Runs a catalog write and then drops the caches, whether or not it committed: this process's
 * before returning, the other processes' through the bus.
 */
export async function afterCatalogWrite<T>(db: object, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } finally {
    invalidateCatalogCaches(db);
    await invalidate(db, 'catalog');
  }
}

/**
 * Counting ~100,000 active cards costs tens of milliseconds, while the page itself is an index
 * walk of well under one. Big catalogs therefore reuse a count for a few seconds (per filter, never
 * for free-text search), which matters for the pages the response cache below does not hold
 * (expired, evicted, or never asked before); small catalogs are always counted exactly.
 */
export const CACHE_ABOVE = 5_000;
const countCache = new WeakMap<object, Map<string, { total: number; at: number }>>();

export async function cachedCount(db: Db, key: string, where: SQL | undefined): Promise<Array<{ total: number }>> {
  const hit = countCache.get(db)?.get(key);
  if (hit && Date.now() - hit.at < PUBLIC_CACHE_TTL_MS) return [{ total: hit.total }];
  const generation = generationOf(db);
  const at = Date.now();
  const [row] = await db.select({ total: count() }).from(cards).where(where);
  const total = row?.total ?? 0;
  if (total > CACHE_ABOVE && generation === generationOf(db)) {
    let byKey = countCache.get(db);
    if (!byKey) countCache.set(db, (byKey = new Map()));
    byKey.set(key, { total, at });
  }
  return [{ total }];
}

/**
 * Serialized public pages per normalized query. 48 cards with their refs are about 17 KB, so the
 * byte bound keeps a few hundred pages; free-text searches share it and the least recently used
 * pages leave first.
 */
export const publicListCache = new WeakMap<object, ResponseCache>();
export const PUBLIC_LIST_CACHE = { ttlMs: PUBLIC_CACHE_TTL_MS, maxEntries: 500, maxBytes: 8 * 1024 * 1024 } as const;

/** The public sets, while the catalog is large enough for caching to matter (CACHE_ABOVE). */
export const setsCache = new WeakMap<object, { sets: PublicSet[]; at: number }>();
