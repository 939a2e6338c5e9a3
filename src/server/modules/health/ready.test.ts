import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journalHead } from '../../db/migrate.ts';
import { createTestContext, type TestContext } from '../../test/harness.ts';
import { healthRoutes } from './routes.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const ready = async (app: { request(path: string): Response | Promise<Response> }) => {
  const res = await app.request('/ready');
  return { status: res.status, body: (await res.json()) as unknown, cache: res.headers.get('cache-control') };
};

describe('/api/ready', () => {
  it('is 200 when the database answers and has every migration of the journal', async () => {
    const res = await t.request('/api/ready');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ready' });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('is 503 migrations_pending when the journal has a migration the database lacks', async () => {
    const head = journalHead();
    const fake = { tag: '9999_not_applied', when: head.when + 1 };
    expect(await ready(healthRoutes(t.deps, { migrationHead: () => fake }))).toEqual({
      status: 503,
      body: { status: 'not_ready', reason: 'migrations_pending' },
      cache: 'no-store',
    });
  });

  it('reads the migrations table itself, and once at head stays so', async () => {
    const head = journalHead();
    const [row] = await t.deps.dbh.query<{ id: number; hash: string; created_at: string }>(
      sql`select id, hash, created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`,
    );
    expect(Number(row!.created_at)).toBe(head.when);
    const remove = () => t.deps.dbh.query(sql`delete from drizzle.__drizzle_migrations where id = ${row!.id}`);
    const restore = () =>
      t.deps.dbh.query(sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${row!.id}, ${row!.hash}, ${row!.created_at})`);

    // The last migration not applied (as on a database an older build migrated).
    await remove();
    const app = healthRoutes(t.deps);
    try {
      expect((await ready(app)).body).toEqual({ status: 'not_ready', reason: 'migrations_pending' });
    } finally {
      await restore();
    }
    expect((await ready(app)).status).toBe(200);
    // Cached once true: migrations only move forward, so the probe stops asking.
    await remove();
    try {
      expect((await ready(app)).status).toBe(200);
    } finally {
      await restore();
    }
  });

  it('is 503 shutting_down as soon as shutdown starts; /api/health stays 200', async () => {
    const ctl = new AbortController();
    const app = healthRoutes({ ...t.deps, shutdown: ctl.signal });
    expect((await ready(app)).status).toBe(200);
    ctl.abort();
    expect((await ready(app)).body).toEqual({ status: 'not_ready', reason: 'shutting_down' });
    expect((await app.request('/health')).status).toBe(200);
  });
});
