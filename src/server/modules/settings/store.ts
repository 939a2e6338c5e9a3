import { inArray, sql } from 'drizzle-orm';
import {
  SETTINGS,
  SETTING_KEYS,
  isSettingKey,
  type SettingKey,
  type SettingValue,
  type SettingValues,
} from '../../../shared/contracts/settings.ts';
import type { Config } from '../../config.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { appSettings } from '../../db/schema/settings.ts';
import type { Logger } from '../../lib/logger.ts';
import type { Bus } from '../realtime/bus.ts';
import type { Tx } from '../../db/client.ts';
import { afterCommit } from '../../db/after-commit.ts';
import { seedSetting, writeSetting } from './service.ts';

/**
 * The per-process cache of the registry's settings (ADR 0016). Loaded at start; a change is
 * announced on the bus ('settings.changed' { key }) by NOTIFY inside the writing transaction, so
 * every process re-reads that key once the change has committed and none hears of a rolled-back
 * one. A periodic full re-read covers a missed notification (a dropped LISTEN connection).
 */

export const SETTINGS_CHANGED = 'settings.changed';
/** The big-pull thresholds (top-pull ticker, notification default). */
export const PULL_THRESHOLDS_KEY = 'pulls.thresholds' as const;
export const SETTINGS_REFRESH_MS = 60_000;

export interface SettingsStore {
  get<K extends SettingKey>(key: K): SettingValue<K>;
  /** When each key was last written (null: never, the default applies). */
  updatedAt(key: SettingKey): Date | null;
  /** Resolves once the first load finished. */
  readonly ready: Promise<void>;
  /** Counts the changes of any value this process has applied (what was made from them is stale). */
  version(): number;
  load(): Promise<void>;
  reload(key: SettingKey): Promise<void>;
  close(): void;
}

type StoreDeps = { db: Db; bus: Bus; log: Logger; config?: Pick<Config, 'siteName' | 'depositMinCents' | 'depositMaxCents'>; shutdown?: AbortSignal };

/** A stored value that no longer validates (hand edit, older shape) falls back to the default. */
function parsed<K extends SettingKey>(key: K, value: unknown): SettingValue<K> {
  const r = SETTINGS[key].schema.safeParse(value);
  return (r.success ? r.data : SETTINGS[key].default) as SettingValue<K>;
}

export function defaultValues(): SettingValues {
  return Object.fromEntries(SETTING_KEYS.map((k) => [k, SETTINGS[k].default])) as SettingValues;
}

/**
 * Values the environment used to set, stored once when the key has no row yet (the first start);
 * from then on the admin screen decides. Only values that differ from the registry's default.
 */
async function seedFromEnvironment(db: DbOrTx, config: StoreDeps['config']): Promise<void> {
  if (!config) return;
  if (config.siteName && config.siteName !== SETTINGS['site.identity'].default.siteName) {
    await seedSetting(db, 'site.identity', { ...SETTINGS['site.identity'].default, siteName: config.siteName });
  }
  const d = SETTINGS['payments.depositLimits'].default;
  const min = config.depositMinCents ?? d.minCents;
  const max = config.depositMaxCents ?? d.maxCents;
  if (min !== d.minCents || max !== d.maxCents) await seedSetting(db, 'payments.depositLimits', { minCents: min, maxCents: max });
}

export function createSettingsStore(deps: StoreDeps, opts: { refreshMs?: number } = {}): SettingsStore {
  const values = defaultValues() as Record<SettingKey, unknown>;
  const stamps = new Map<SettingKey, Date | null>();
  // Every read gets a ticket; a result is applied only if no read that started later was applied
  // first (a later read sees a state at least as new), so out-of-order answers never go back.
  let tickets = 0;
  const applied = new Map<SettingKey, number>();
  let changes = 0;
  const apply = (k: SettingKey, ticket: number, row: { value: unknown; updatedAt: Date } | undefined) => {
    if ((applied.get(k) ?? 0) > ticket) return;
    applied.set(k, ticket);
    const next = row ? parsed(k, row.value) : SETTINGS[k].default;
    if (JSON.stringify(next) !== JSON.stringify(values[k])) changes++;
    values[k] = next;
    stamps.set(k, row?.updatedAt ?? null);
  };

  async function load() {
    const ticket = ++tickets;
    const rows = await deps.db.select().from(appSettings).where(inArray(appSettings.key, SETTING_KEYS));
    const byKey = new Map(rows.map((r) => [r.key, r]));
    for (const k of SETTING_KEYS) apply(k, ticket, byKey.get(k));
  }

  async function reload(key: SettingKey) {
    const ticket = ++tickets;
    const [row] = await deps.db.select().from(appSettings).where(sql`${appSettings.key} = ${key}`);
    apply(key, ticket, row);
  }

  const unsubscribe = deps.bus.subscribe((event) => {
    if (event.type !== SETTINGS_CHANGED) return;
    const key = (event.data as { key?: unknown } | null)?.key;
    if (typeof key !== 'string' || !isSettingKey(key)) return;
    reload(key).catch((err: unknown) => deps.log.error('settings reload failed', { err, key }));
  });
  const timer = setInterval(() => {
    load().catch((err: unknown) => deps.log.warn('periodic settings re-read failed', { err }));
  }, opts.refreshMs ?? SETTINGS_REFRESH_MS);
  timer.unref?.();
  const close = () => {
    clearInterval(timer);
    unsubscribe();
  };
  deps.shutdown?.addEventListener('abort', close, { once: true });

  const ready = seedFromEnvironment(deps.db, deps.config)
    .then(load)
    .catch((err: unknown) => deps.log.error('loading settings failed; defaults apply until the next re-read', { err }));

  return {
    get: <K extends SettingKey>(key: K) => values[key] as SettingValue<K>,
    updatedAt: (key) => stamps.get(key) ?? null,
    ready,
    version: () => changes,
    load,
    reload,
    close,
  };
}

// The process's store ------------------------------------------------------------------------------

let current: SettingsStore | null = null;

/**
 * Makes `deps` this process's settings source (createApp does it through the settings router).
 * A test that builds a second app in the same process moves the process store to it.
 */
export function attachProcessSettings(deps: StoreDeps): SettingsStore {
  current?.close();
  current = createSettingsStore(deps);
  return current;
}

/**
 * Writes a registry setting inside the caller's transaction. Once it commits (never after a
 * rollback) this process's cache reads it again and 'settings.changed' tells the others: on
 * PostgreSQL a NOTIFY sent with the commit itself (db/after-commit.ts `withCommit`), so no process
 * keeps the old value because this one stopped right after committing.
 */
export async function writeRegistrySetting<K extends SettingKey>(tx: Tx, key: K, value: SettingValue<K>): Promise<void> {
  await writeSetting(tx, key, value);
  const store = current;
  await afterCommit(tx, { topic: 'public', type: SETTINGS_CHANGED, data: { key } }, { withCommit: true });
  await afterCommit(tx, () => store?.reload(key));
}

/** The process store's count of applied changes (0 before an app exists). */
export function settingsVersion(): number {
  return current?.version() ?? 0;
}

/** Resolves once the process store (if any) has loaded. */
export function settingsReady(): Promise<void> {
  return current?.ready ?? Promise.resolve();
}

/** The process's store (throws before an app was created: nothing may read settings earlier). */
export function processSettings(): SettingsStore {
  if (!current) throw new Error('settings are read before the app was created (attachProcessSettings)');
  return current;
}

/** The cached value of `key` (the registry default before the app exists, e.g. in a script). */
export function setting<K extends SettingKey>(key: K): SettingValue<K> {
  return current ? current.get(key) : (SETTINGS[key].default as SettingValue<K>);
}
