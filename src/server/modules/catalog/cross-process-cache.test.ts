import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEFAULT_LAYOUT } from '../../../shared/contracts/catalog.ts';
import { createApp } from '../../app.ts';
import { openPostgres, type DbHandle } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { TEST_ORIGIN } from '../../test/harness.ts';
import { createBus, type Bus } from '../realtime/bus.ts';
import { as, catalogTestContext, uploadImage } from './test-support.ts';

/**
 * Issue 20: two apps on one PostgreSQL, each with its own connection pool and its own bus, as two
 * processes would be. A catalog edit through A shows on B's cached public list after one bus
 * round trip, not after the cache's TTL. PostgreSQL only: PGlite is one process.
 */

const onPostgres = inject('dbKind') === 'postgres';

describe.runIf(onPostgres)('the public card list across two app instances', () => {
  let t: Awaited<ReturnType<typeof catalogTestContext>>;
  let bh: DbHandle;
  let bBus: Bus;
  let b: ReturnType<typeof createApp>;
  const stop = new AbortController();

  beforeAll(async () => {
    t = await catalogTestContext();
    const [row] = await t.deps.dbh.query<{ db: string }>(sql`select current_database() as db`);
    const u = new URL(inject('postgresAdminUrl'));
    u.pathname = `/${row!.db}`;
    bh = await openPostgres(u.toString(), 5);
    bBus = await createBus(bh, t.deps.log);
    const deps: Deps = { ...t.deps, dbh: bh, db: bh.db, bus: bBus, shutdown: stop.signal };
    b = createApp(deps);
  });
  afterAll(async () => {
    stop.abort();
    await bBus?.close();
    await bh?.close();
    await t.close();
  });

  it('an edit through A clears B within the bus round trip', async () => {
    const admin = as(t, 'admin');
    const imageKey = await uploadImage(t, '#33aa55');
    const frameKey = await uploadImage(t, '#111111');
    const classId = (await (await admin.post('/api/admin/catalog/classes', { name: 'Shared', colour: '#A855F7', sortOrder: 1 })).json()).class.id;
    const architectId = (await (await admin.post('/api/admin/catalog/architects', { name: 'Shared frame', frameImageKey: frameKey, layout: DEFAULT_LAYOUT })).json())
      .architect.id;
    const created = await admin.post('/api/admin/catalog/cards', { name: 'Before', setName: 'Xproc', number: 1, classId, architectId, imageKey, valueCents: 500, stock: 1 });
    expect(created.status, await created.clone().text()).toBe(201);
    const cardId = ((await created.json()) as { card: { id: string } }).card.id;

    const LIST = `${TEST_ORIGIN}/api/cards?set=Xproc`;
    const namesOnB = async () => ((await (await b.request(LIST)).json()) as { items: Array<{ name: string }> }).items.map((i) => i.name);
    expect(await namesOnB()).toEqual(['Before']);
    expect(await namesOnB()).toEqual(['Before']); // now from B's cache

    const edited = await admin.patch(`/api/admin/catalog/cards/${cardId}`, { name: 'After' });
    expect(edited.status, await edited.clone().text()).toBe(200);
    // A's own list is fresh at once; B's within the NOTIFY round trip (its TTL is 10 s).
    expect(((await (await t.request('/api/cards?set=Xproc')).json()) as { items: Array<{ name: string }> }).items.map((i) => i.name)).toEqual(['After']);
    const started = Date.now();
    let names = await namesOnB();
    while (names[0] !== 'After' && Date.now() - started < 1000) {
      await new Promise((r) => setTimeout(r, 20));
      names = await namesOnB();
    }
    expect(names).toEqual(['After']);
  });
});
