import { randomUUID } from 'node:crypto';
import type { Logger } from '../../lib/logger.ts';
import type { Bus } from './bus.ts';

/**
 * Cross-process cache invalidation (ADR 0018). A per-process cache of data that admins edit
 * registers a clearer for its scope; the writer calls `invalidate` after its write: this process's
 * clearers run at once (so the writer's next read is fresh) and a `cache.invalidated` event goes
 * on the bus, on the `internal` topic that no browser stream carries. Every other process sharing
 * the database clears on receipt (PostgreSQL NOTIFY), so an edit is visible everywhere after one
 * bus round trip instead of after the caches' TTL, which stays as the safety net for a lost event.
 *
 * Registrations are per database object, as the caches are: two apps on two connections to the
 * same database in one test process behave like two processes.
 */
export const CACHE_INVALIDATED = 'cache.invalidated';

/** 'catalog': the public card list, its counts and sets. 'products': the opening's product guesses. */
export type CacheScope = 'catalog' | 'products';

interface Registration {
  /** Tells our own events (NOTIFY comes back to the sender) from other processes'. */
  origin: string;
  bus: Bus;
  log: Logger;
  clearers: Map<CacheScope, Set<() => void>>;
}

const registrations = new WeakMap<object, Registration>();

function registrationOf(deps: { db: object; bus: Bus; log: Logger; shutdown?: AbortSignal }): Registration {
  let reg = registrations.get(deps.db);
  if (reg && reg.bus === deps.bus) return reg;
  const fresh: Registration = { origin: randomUUID(), bus: deps.bus, log: deps.log, clearers: new Map() };
  const unsubscribe = deps.bus.subscribe((event) => {
    if (event.type !== CACHE_INVALIDATED || event.topic !== 'internal') return;
    const data = event.data as { scope?: unknown; origin?: unknown } | null;
    if (!data || data.origin === fresh.origin) return;
    runClearers(fresh, data.scope as CacheScope);
  });
  deps.shutdown?.addEventListener('abort', unsubscribe);
  registrations.set(deps.db, fresh);
  reg = fresh;
  return reg;
}

function runClearers(reg: Registration, scope: CacheScope) {
  for (const clear of reg.clearers.get(scope) ?? []) {
    try {
      clear();
    } catch (err) {
      reg.log.error('cache clearer failed', { err, scope });
    }
  }
}

/** Registers `clear` to run when `scope` is invalidated by a writer of any process on this database. */
export function onInvalidate(deps: { db: object; bus: Bus; log: Logger; shutdown?: AbortSignal }, scope: CacheScope, clear: () => void): void {
  const reg = registrationOf(deps);
  let set = reg.clearers.get(scope);
  if (!set) reg.clearers.set(scope, (set = new Set()));
  set.add(clear);
}

/**
 * After a write to data behind `scope` (committed or not: clearing too often is harmless): clears
 * this process's caches now and tells the other processes. A write through a database no app was
 * built on (a script, a service test) has nobody to tell. A failed NOTIFY is logged, not thrown:
 * the write itself is done, and the other processes' TTL still bounds how stale they get.
 */
export async function invalidate(db: object, scope: CacheScope): Promise<void> {
  const reg = registrations.get(db);
  if (!reg) return;
  runClearers(reg, scope);
  try {
    await reg.bus.publish('internal', CACHE_INVALIDATED, { scope, origin: reg.origin });
  } catch (err) {
    reg.log.warn('cache invalidation could not be sent to other processes', { err, scope });
  }
}
