import { afterCommit } from '../../db/after-commit.ts';
import { eq } from 'drizzle-orm';
import {
  MAINTENANCE_OFF,
  maintenanceStateSchema,
  type AdminMaintenance,
  type MaintenanceInput,
  type MaintenanceState,
} from '../../../shared/contracts/maintenance.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import type { ActorCtx } from '../../http/types.ts';
import { audit } from '../audit/service.ts';
import { user } from '../auth/tables.ts';
import { readSetting, writeSetting } from '../settings/service.ts';

/** app_settings key of the switch (one JSON value: the public state plus who switched it). */
export const MAINTENANCE_KEY = 'maintenance.state';
export const MAINTENANCE_EVENT = 'maintenance.changed';
/** Safety net under the bus: a process that missed a NOTIFY (connection lost) catches up this often. */
export const MAINTENANCE_REFRESH_MS = 10_000;

const storedSchema = maintenanceStateSchema.extend({ changedBy: maintenanceStateSchema.shape.message.nullable().optional() });
type Stored = MaintenanceState & { changedBy?: string | null | undefined };

async function readStored(db: DbOrTx): Promise<Stored> {
  const value = await readSetting(db, MAINTENANCE_KEY);
  const parsed = value === undefined ? null : storedSchema.safeParse(value);
  return parsed?.success ? parsed.data : MAINTENANCE_OFF;
}

const publicOf = (s: Stored): MaintenanceState => ({ enabled: s.enabled, message: s.message, endsAt: s.endsAt, changedAt: s.changedAt });

/** The switch as stored (the truth every process's cache follows). */
export async function readMaintenance(db: DbOrTx): Promise<MaintenanceState> {
  return publicOf(await readStored(db));
}

export async function readAdminMaintenance(db: DbOrTx): Promise<AdminMaintenance> {
  const s = await readStored(db);
  let changedBy: AdminMaintenance['changedBy'] = null;
  if (s.changedBy) {
    const [u] = await db.select({ id: user.id, username: user.username }).from(user).where(eq(user.id, s.changedBy));
    changedBy = u ? { id: u.id, username: u.username } : null;
  }
  return { ...publicOf(s), changedBy };
}

// Per-process cache ----------------------------------------------------------------------------

interface Cache {
  state: MaintenanceState;
  ready: Promise<void>;
  apply(s: MaintenanceState): void;
  refresh(): Promise<void>;
}
const caches = new WeakMap<Deps, Cache>();

/**
 * This process's copy of the switch: read at start, replaced by every `maintenance.changed` event
 * on the bus (PostgreSQL NOTIFY reaches every process), and re-read every MAINTENANCE_REFRESH_MS in
 * case an event was lost. The gate reads it on every API request, so it must not cost a query.
 */
export function maintenanceCache(deps: Deps): Cache {
  const cached = caches.get(deps);
  if (cached) return cached;
  const c: Cache = {
    state: MAINTENANCE_OFF,
    ready: Promise.resolve(),
    apply(s) {
      // Events and re-reads can arrive out of order; the later switch wins (same-format ISO strings).
      if (c.state.changedAt && s.changedAt && s.changedAt < c.state.changedAt) return;
      c.state = s;
    },
    async refresh() {
      try {
        c.apply(await readMaintenance(deps.db));
      } catch (err) {
        deps.log.warn('maintenance state could not be read; keeping the cached one', { err });
      }
    },
  };
  caches.set(deps, c);
  const unsubscribe = deps.bus.subscribe((event) => {
    if (event.type !== MAINTENANCE_EVENT) return;
    const parsed = maintenanceStateSchema.safeParse(event.data);
    if (parsed.success) c.apply(parsed.data);
    else void c.refresh();
  });
  const timer = setInterval(() => void c.refresh(), MAINTENANCE_REFRESH_MS);
  timer.unref();
  deps.shutdown.addEventListener('abort', () => {
    clearInterval(timer);
    unsubscribe();
  });
  c.ready = c.refresh();
  return c;
}

/** The current switch of this process (waits for the first read once). */
export async function currentMaintenance(deps: Deps): Promise<MaintenanceState> {
  const c = maintenanceCache(deps);
  await c.ready;
  return c.state;
}

// Switching ------------------------------------------------------------------------------------

/**
 * Owner only (the route checks): stores the switch and its audit entry in one transaction, then
 * applies it here at once and tells every process (and every open page) on the bus.
 */
export async function setMaintenance(deps: Deps, actor: ActorCtx, input: MaintenanceInput): Promise<AdminMaintenance> {
  const changedAt = new Date().toISOString();
  const next: Stored = input.enabled
    ? { enabled: true, message: input.message, endsAt: new Date(input.endsAt).toISOString(), changedAt, changedBy: actor.actorId }
    : { enabled: false, message: '', endsAt: null, changedAt, changedBy: actor.actorId };
  await deps.db.transaction(async (tx) => {
    const before = await readStored(tx);
    await writeSetting(tx, MAINTENANCE_KEY, next);
    await audit(tx, {
      actorId: actor.actorId,
      action: input.enabled ? 'maintenance.on' : 'maintenance.off',
      targetType: 'maintenance',
      targetId: MAINTENANCE_KEY,
      before: publicOf(before),
      after: publicOf(next),
      ip: actor.ip,
    });
    // Once committed: applied here at once, and the other processes told with the commit itself
    // (else they pick it up on their next re-read).
    const state = publicOf(next);
    await afterCommit(tx, () => maintenanceCache(deps).apply(state));
    await afterCommit(tx, { topic: 'public', type: MAINTENANCE_EVENT, data: state }, { withCommit: true });
  });
  return readAdminMaintenance(deps.db);
}
