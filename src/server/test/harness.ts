import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createPglite } from '../db/pglite.ts';
import postgres from 'postgres';
import { inject } from 'vitest';
import { createApp, type AppOptions } from '../app.ts';
import type { Config } from '../config.ts';
import { openPglite, openPostgres, type DbHandle } from '../db/client.ts';
import type { Deps } from '../deps.ts';
import { createLogger } from '../lib/logger.ts';
import { createBus } from '../modules/realtime/bus.ts';
import { settingsReady } from '../modules/settings/store.ts';

export const TEST_ORIGIN = 'http://localhost:3000';

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    env: 'test',
    isProduction: false,
    port: 3000,
    host: '127.0.0.1',
    dataDir: '/tmp/packvault-test-data',
    databaseUrl: undefined,
    dbPoolSize: 5,
    secret: 'test-secret-test-secret-test-secret-0123456789',
    publicUrl: TEST_ORIGIN,
    siteName: 'Packvault',
    currency: 'USD',
    smtpUrl: undefined,
    mailFrom: 'Packvault <no-reply@packvault.test>',
    sentryDsn: undefined,
    logLevel: 'silent',
    trustProxy: false,
    seedDemo: false,
    ...overrides,
  };
}

/** A fresh database copied from the migrated template (see global-setup.ts). */
export async function createTestDb(): Promise<DbHandle> {
  if (inject('dbKind') === 'postgres') {
    const adminUrl = inject('postgresAdminUrl');
    const name = `pv_t_${process.ppid}_${randomBytes(5).toString('hex')}`;
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`create database "${name}" template "${inject('postgresTemplate')}"`);
    } finally {
      await admin.end();
    }
    const u = new URL(adminUrl);
    u.pathname = `/${name}`;
    const handle = await openPostgres(u.toString(), 20);
    const close = handle.close;
    handle.close = async () => {
      await close();
      const a = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists "${name}" with (force)`).catch(() => {});
      await a.end();
    };
    return handle;
  }
  const tar = readFileSync(inject('pgliteTemplate'));
  const client = await createPglite(undefined, { loadDataDir: new Blob([tar]) });
  return openPglite(client);
}

export interface TestContext {
  deps: Deps;
  app: ReturnType<typeof createApp>;
  /** app.request with a same-origin Origin header and JSON helpers. */
  request(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  close(): Promise<void>;
}

export type CreateAppFn = (deps: Deps, options?: AppOptions) => ReturnType<typeof createApp>;

/**
 * One isolated app + database for a test file:
 *   const t = await createTestContext(); afterAll(() => t.close());
 */
export async function createTestContext(
  opts: { config?: Partial<Config>; appOptions?: AppOptions; createApp?: CreateAppFn } = {},
): Promise<TestContext> {
  const dbh = await createTestDb();
  // Silent unless a test asks for a level (e.g. 'error' to see a 5xx with its stack).
  const log = createLogger(opts.config?.logLevel ?? 'silent');
  const shutdown = new AbortController();
  const bus = await createBus(dbh, log);
  const deps: Deps = {
    config: testConfig(opts.config),
    dbh,
    db: dbh.db,
    bus,
    log,
    shutdown: shutdown.signal,
  };
  const app = (opts.createApp ?? createApp)(deps, opts.appOptions);
  await settingsReady();
  return {
    deps,
    app,
    request(path, init = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has('origin')) headers.set('origin', TEST_ORIGIN);
      let body = init.body;
      if (init.json !== undefined) {
        headers.set('content-type', 'application/json');
        body = JSON.stringify(init.json);
      }
      return Promise.resolve(app.request(`${TEST_ORIGIN}${path}`, { ...init, headers, body }));
    },
    async close() {
      shutdown.abort();
      await bus.close();
      await dbh.close();
    },
  };
}
