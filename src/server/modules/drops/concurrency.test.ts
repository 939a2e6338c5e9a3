import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DropProofDto } from '../../../shared/contracts/drops.ts';
import { verifyDrop } from '../../../shared/drop-draw.ts';
import { createApp } from '../../app.ts';
import { openPostgres } from '../../db/client.ts';
import { auditLog } from '../../db/schema/audit.ts';
import { dropEntries, dropWinners, drops } from '../../db/schema/drops.ts';
import { ownedCards } from '../../db/schema/inventory.ts';
import type { Deps } from '../../deps.ts';
import { runJobOnce } from '../../jobs/scheduler.ts';
import { createBus } from '../realtime/bus.ts';
import { makeCard, makeClass, stockOf } from '../buyback/test-support.ts';
import { nodeFair } from '../fairness/crypto.ts';
import { moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';
import { dropsJob, runDropTransitions } from './lifecycle.ts';
import { booksReconcile, createDrop, dropInput, pastClose } from './test-support.ts';

/**
 * Drops under load and across processes (issue 16): entries race each other and the close, and
 * two app instances on one PostgreSQL both run the close job. On PGlite (one process) the same
 * tests run what can run there.
 */

const onPostgres = inject('dbKind') === 'postgres';

let t: MoneyTestContext;
let admin: string;
let classId: string;
beforeAll(async () => {
  t = await moneyTestContext();
  admin = await t.makeUser({ role: 'admin' });
  classId = (await makeClass(t)).id;
});
afterAll(() => t.close());

const body = async <T>(res: Response) => (await res.json()) as T;

async function proofOf(dropId: string): Promise<DropProofDto> {
  const res = await t.request(`/api/drops/${dropId}/proof`);
  expect(res.status).toBe(200);
  return body<DropProofDto>(res);
}

async function expectVerified(proof: DropProofDto) {
  const v = await verifyDrop(nodeFair, { ...proof, winners: proof.winners.map((w) => w.entryId) });
  expect(v.problems).toEqual([]);
}

/** A second app process on the same PostgreSQL database: its own connections, bus and app. */
async function secondInstance(): Promise<{ deps: Deps; close(): Promise<void> }> {
  const [row] = await t.deps.dbh.query<{ db: string }>(sql`select current_database() as db`);
  const name = row!.db;
  const u = new URL(inject('postgresAdminUrl'));
  u.pathname = `/${name}`;
  const dbh = await openPostgres(u.toString(), 10);
  const bus = await createBus(dbh, t.deps.log);
  const shutdown = new AbortController();
  const deps: Deps = { ...t.deps, dbh, db: dbh.db, bus, shutdown: shutdown.signal };
  createApp(deps);
  return {
    deps,
    async close() {
      shutdown.abort();
      await bus.close();
      await dbh.close();
    },
  };
}

describe('entering at once', () => {
  it('500 users entering at once make 500 entries', async () => {
    const c = await makeCard(t, { classId, valueCents: 100, stock: 1 });
    const d = await createDrop(t, admin, dropInput(c.id));
    const users = await Promise.all(Array.from({ length: 500 }, () => t.makeUser()));
    const res = await Promise.all(users.map((u) => t.as(u).post(`/api/drops/${d.id}/entries`)));
    expect(res.map((r) => r.status).filter((s) => s !== 201)).toEqual([]);
    const ids = new Set(await Promise.all(res.map(async (r) => (await body<{ entry: { entryId: string } }>(r)).entry.entryId)));
    expect(ids.size).toBe(500);
    const [{ n }] = (await t.deps.db.select({ n: sql<number>`count(*)::int` }).from(dropEntries).where(eq(dropEntries.dropId, d.id))) as [{ n: number }];
    expect(n).toBe(500);
  }, 120_000);

  it("one user's 20 simultaneous entries make one, and every answer names it", async () => {
    const c = await makeCard(t, { classId, valueCents: 100, stock: 1 });
    const d = await createDrop(t, admin, dropInput(c.id));
    const u = await t.makeUser();
    const res = await Promise.all(Array.from({ length: 20 }, () => t.as(u).post(`/api/drops/${d.id}/entries`)));
    const statuses = res.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(19);
    const ids = new Set(await Promise.all(res.map(async (r) => (await body<{ entry: { entryId: string } }>(r)).entry.entryId)));
    expect(ids.size).toBe(1);
    expect(await t.deps.db.select().from(dropEntries).where(and(eq(dropEntries.dropId, d.id), eq(dropEntries.userId, u)))).toHaveLength(1);
  }, 60_000);

  it('entries racing the close: every accepted entry is in the frozen list, every refused one is not', async () => {
    const c = await makeCard(t, { classId, valueCents: 100, stock: 2 });
    const d = await createDrop(t, admin, dropInput(c.id, { prizes: [{ cardId: c.id, quantity: 2 }], winnerCount: 2 }));
    const users = await Promise.all(Array.from({ length: 120 }, () => t.makeUser()));
    const entering = users.map((u, i) =>
      new Promise((r) => setTimeout(r, i % 40)).then(() => t.as(u).post(`/api/drops/${d.id}/entries`)),
    );
    const closing = new Promise((r) => setTimeout(r, 15)).then(async () => {
      await t.deps.dbh.query(sql`update drops set closes_at = now() where id = ${d.id}::uuid`);
      return runDropTransitions(t.deps);
    });
    const [res] = await Promise.all([Promise.all(entering), closing]);
    await runDropTransitions(t.deps);
    const accepted: string[] = [];
    for (const r of res) {
      if (r.status === 201) accepted.push((await body<{ entry: { entryId: string } }>(r)).entry.entryId);
      else expect((await body<{ error: { code: string } }>(r)).error.code).toBe('drop_closed');
    }
    const proof = await proofOf(d.id);
    expect([...proof.entryIds].sort()).toEqual([...accepted].sort());
    await expectVerified(proof);
    await booksReconcile(t);
  }, 60_000);
});

describe('drawn exactly once', () => {
  it.skipIf(!onPostgres)('two app instances on one PostgreSQL both run the close job: one draw', async () => {
    const second = await secondInstance();
    try {
      const c = await makeCard(t, { classId, valueCents: 700, stock: 5 });
      const d = await createDrop(t, admin, dropInput(c.id, { prizes: [{ cardId: c.id, quantity: 3 }], winnerCount: 3 }));
      const users = await Promise.all(Array.from({ length: 30 }, () => t.makeUser()));
      await Promise.all(users.map((u) => t.as(u).post(`/api/drops/${d.id}/entries`)));
      await pastClose(t, d.id);
      const job = dropsJob();
      // Both processes, several times each, by the job runner and directly (a duplicate job).
      await Promise.all([
        runDropTransitions(t.deps),
        runDropTransitions(second.deps),
        job.run(t.deps, new AbortController().signal),
        job.run(second.deps, new AbortController().signal),
        runJobOnce(t.deps, job),
        runJobOnce(second.deps, job),
        runDropTransitions(second.deps),
      ]);
      const winners = await t.deps.db.select().from(dropWinners).where(eq(dropWinners.dropId, d.id));
      expect(winners).toHaveLength(3);
      const copies = await t.deps.db.select().from(ownedCards).where(and(eq(ownedCards.acquiredVia, 'drop'), eq(ownedCards.cardId, c.id)));
      expect(copies).toHaveLength(3);
      const draws = await t.deps.db.select().from(auditLog).where(and(eq(auditLog.targetId, d.id), eq(auditLog.action, 'drop.draw')));
      expect(draws).toHaveLength(1);
      expect(await stockOf(t, c.id)).toBe(2);
      const proof = await proofOf(d.id);
      expect(proof.entryIds).toHaveLength(30);
      await expectVerified(proof);
      await booksReconcile(t);
    } finally {
      await second.close();
    }
  }, 60_000);

  it('a drop whose close passed while no process ran is drawn at start-up', async () => {
    const c = await makeCard(t, { classId, valueCents: 300, stock: 1 });
    const d = await createDrop(t, admin, dropInput(c.id));
    const users = await Promise.all(Array.from({ length: 5 }, () => t.makeUser()));
    for (const u of users) await t.as(u).post(`/api/drops/${d.id}/entries`);
    await pastClose(t, d.id);
    // The "restart": a fresh process (on PostgreSQL, new connections) runs main.ts's catch-up.
    const restarted = onPostgres ? await secondInstance() : null;
    try {
      const r = await runDropTransitions(restarted?.deps ?? t.deps);
      expect(r.closed).toBeGreaterThanOrEqual(1);
      expect(r.drawn).toBeGreaterThanOrEqual(1);
    } finally {
      await restarted?.close();
    }
    const proof = await proofOf(d.id);
    expect(proof.winners).toHaveLength(1);
    await expectVerified(proof);
    await booksReconcile(t);
  }, 60_000);

  it('a process that died mid-way (the drop left "drawing") is drawn by the next run, once', async () => {
    const c = await makeCard(t, { classId, valueCents: 300, stock: 1 });
    const d = await createDrop(t, admin, dropInput(c.id));
    const u = await t.makeUser();
    await t.as(u).post(`/api/drops/${d.id}/entries`);
    await pastClose(t, d.id);
    await t.deps.db.update(drops).set({ status: 'drawing' }).where(eq(drops.id, d.id));
    await Promise.all([runDropTransitions(t.deps), runDropTransitions(t.deps)]);
    const proof = await proofOf(d.id);
    expect(proof.winners.map((w) => w.entryId)).toEqual(proof.entryIds);
    await expectVerified(proof);
    await booksReconcile(t);
  });
});
