import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness.ts';
import { sseReader } from '../../test/sse.ts';
import { projectRoot } from '../../lib/paths.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

async function connect(headers: Record<string, string> = {}) {
  const ctl = new AbortController();
  const res = await t.request('/api/events', { headers, signal: ctl.signal });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const reader = sseReader(res);
  return {
    reader,
    close: async () => {
      await reader.close();
      ctl.abort();
    },
  };
}

describe('GET /api/events', () => {
  it('greets, then delivers public events to an anonymous client', async () => {
    const c = await connect();
    const hello = await c.reader.next('hello');
    expect(JSON.parse(hello.data)).toEqual({ user: false });
    await t.deps.bus.publish('public', 'pull.created', { openingId: 'o1' });
    const ev = await c.reader.next('pull.created');
    expect(JSON.parse(ev.data)).toEqual({ openingId: 'o1' });
    expect(ev.id).toBeTruthy();
    await c.close();
  });

  it("does not leak another user's events to a visitor", async () => {
    const c = await connect();
    await c.reader.next('hello');
    await t.deps.bus.publish('user:someone', 'balance.changed', { balanceCents: 5 });
    await t.deps.bus.publish('public', 'marker', {});
    const next = await c.reader.next();
    expect(next.event).toBe('marker');
    await c.close();
  });

  it('replays missed events after Last-Event-ID, and asks for a reset when the gap is unknown', async () => {
    const first = await t.deps.bus.publish('public', 'pull.created', { n: 1 });
    await t.deps.bus.publish('public', 'pull.created', { n: 2 });
    await t.deps.bus.publish('public', 'pull.created', { n: 3 });
    // On PostgreSQL a publish returns once its NOTIFY is sent; this process has the events in its
    // history when they come back over LISTEN, which a loaded machine can take a while to do.
    // A client that missed them reconnects after that, not in between.
    await expect.poll(() => t.deps.bus.since(first.id)?.length, { timeout: 10_000 }).toBe(2);
    const c = await connect({ 'last-event-id': first.id });
    await c.reader.next('hello');
    expect(JSON.parse((await c.reader.next('pull.created')).data)).toEqual({ n: 2 });
    expect(JSON.parse((await c.reader.next('pull.created')).data)).toEqual({ n: 3 });
    await c.close();

    const d = await connect({ 'last-event-id': 'long-gone' });
    await d.reader.next('hello');
    await d.reader.next('reset');
    await d.close();
  });
});

describe('across processes', () => {
  it('an event published by another process reaches this process’s client (PostgreSQL)', async (ctx) => {
    if (t.deps.dbh.kind !== 'postgres') ctx.skip();
    const c = await connect();
    await c.reader.next('hello');
    const marker = `m-${Date.now()}`;
    const [row] = await t.deps.dbh.query<{ name: string }>(sql`select current_database() as name`);
    const base = new URL(process.env.TEST_DATABASE_URL!);
    base.pathname = `/${row!.name}`;
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(projectRoot, 'src/server/test/publish-child.ts'), base.toString(), marker],
      { encoding: 'utf8', timeout: 20_000 },
    );
    expect(child.status, child.stderr).toBe(0);
    // Skips any event an earlier test published that reached this process only now (PostgreSQL
    // delivers a process's own events back over LISTEN, later on a loaded machine).
    let data: { marker?: string; pid?: number } = {};
    const until = Date.now() + 10_000;
    while (data.marker !== marker) data = JSON.parse((await c.reader.next('pull.created', Math.max(1, until - Date.now()))).data);
    expect(data.marker).toBe(marker);
    expect(data.pid).not.toBe(process.pid);
    await c.close();
  });
});
