import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { openDatabase } from '../bootstrap.ts';
import { testConfig } from '../test/harness.ts';
import { openPostgres } from './client.ts';

/**
 * Behind PgBouncer in transaction mode (docs/deploy.md): LISTEN must reach PostgreSQL directly
 * (DATABASE_DIRECT_URL), and before PgBouncer 1.21 no named statement may be sent
 * (DATABASE_PREPARE=false). Without a PgBouncer here, the direct connection is told apart by its
 * application_name (postgres.js passes URL parameters on as connection parameters).
 */
describe.runIf(inject('dbKind') === 'postgres')('openPostgres for a transaction pooler', () => {
  const adminUrl = inject('postgresAdminUrl');
  const name = `pv_t_pooler_${randomBytes(4).toString('hex')}`;
  let url = '';

  beforeAll(async () => {
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${name}" template "${inject('postgresTemplate')}"`);
    await admin.end();
    const u = new URL(adminUrl);
    u.pathname = `/${name}`;
    url = u.toString();
  });
  afterAll(async () => {
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
  });

  it('migrates an empty database at start, and leaves it alone with MIGRATE_ON_START=false', async () => {
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    const empty = `${name}_empty`;
    await admin.unsafe(`create database "${empty}"`);
    try {
      const u = new URL(adminUrl);
      u.pathname = `/${empty}`;
      const migrated = async () => {
        const sql = postgres(u.toString(), { max: 1, onnotice: () => {} });
        try {
          return (await sql`select to_regclass('drizzle.__drizzle_migrations') is not null as ok`)[0]!.ok as boolean;
        } finally {
          await sql.end();
        }
      };
      const pooled = new URL(u);
      pooled.searchParams.set('application_name', 'pv_pooled');
      const skip = await openDatabase(testConfig({ databaseUrl: pooled.toString(), databaseDirectUrl: u.toString(), migrateOnStart: false }));
      await skip.dbh.close();
      expect(await migrated()).toBe(false);
      const run = await openDatabase(testConfig({ databaseUrl: pooled.toString(), databaseDirectUrl: u.toString() }));
      await run.dbh.close();
      expect(await migrated()).toBe(true);
    } finally {
      await admin.unsafe(`drop database if exists "${empty}" with (force)`);
      await admin.end();
    }
  });

  const preparedCount = async (dbh: Awaited<ReturnType<typeof openPostgres>>) =>
    (await dbh.query<{ n: number }>(sql`select count(*)::int as n from pg_prepared_statements`))[0]!.n;

  it('listens on the direct URL and still hears NOTIFY sent through the pooled one', async () => {
    const direct = new URL(url);
    direct.searchParams.set('application_name', 'pv_direct_listen');
    const dbh = await openPostgres(url, 1, { directUrl: direct.toString(), prepare: false });
    try {
      const heard: string[] = [];
      const unlisten = await dbh.listen('pv_pooler_test', (p) => heard.push(p));
      const listeners = await dbh.query<{ app: string }>(
        sql`select application_name as app from pg_stat_activity where datname = current_database() and query ilike 'listen%'`,
      );
      expect(listeners.map((r) => r.app)).toEqual(['pv_direct_listen']);
      await dbh.query(sql`select pg_notify('pv_pooler_test', 'hello')`);
      await expect.poll(() => heard).toEqual(['hello']);
      await unlisten();
    } finally {
      await dbh.close();
    }
  });

  it('sends no named statement with prepare off, and names them with it on', async () => {
    const off = await openPostgres(url, 1, { prepare: false });
    try {
      for (let i = 0; i < 2; i++) expect(await off.run<{ n: number }>('select $1::int + 1 as n', [i])).toEqual([{ n: i + 1 }]);
      await off.db.transaction(async (tx) => tx.execute(sql`select ${1}::int as one`));
      expect(await preparedCount(off)).toBe(0);
    } finally {
      await off.close();
    }
    const on = await openPostgres(url, 1, { prepare: true });
    try {
      await on.run('select $1::int + 1 as n', [1]);
      expect(await preparedCount(on)).toBeGreaterThan(0);
    } finally {
      await on.close();
    }
  });
});
