import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DropProofDto } from '../../../shared/contracts/drops.ts';
import { verifyDrop } from '../../../shared/drop-draw.ts';
import { auditLog } from '../../db/schema/audit.ts';
import { dropWinners } from '../../db/schema/drops.ts';
import { TEST_ORIGIN } from '../../test/harness.ts';
import { sharedDatabaseEnv, startServerProcess } from '../../test/server-process.ts';
import { createSessionCookie } from '../auth/users.ts';
import { makeCard, makeClass } from '../buyback/test-support.ts';
import { nodeFair } from '../fairness/crypto.ts';
import { moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';
import { booksReconcile, createDrop, dropInput, pastClose } from './test-support.ts';

/**
 * The issue's own check, on real processes (src/server/main.ts) sharing one PostgreSQL: drops are
 * entered over HTTP through both, drawn once by whichever process gets there, drawn at start-up
 * when the close passed while no process ran, and every winner is recomputed from the published
 * proof. PostgreSQL only: PGlite is one process by design.
 */

const onPostgres = inject('dbKind') === 'postgres';


let t: MoneyTestContext;
let admin: string;
let classId: string;
let env: Record<string, string>;
beforeAll(async () => {
  t = await moneyTestContext();
  admin = await t.makeUser({ role: 'admin' });
  classId = (await makeClass(t)).id;
  if (!onPostgres) return;
  // Development mode (plain cookie names, as the test's sessions have), without demo data.
  env = {
    ...(await sharedDatabaseEnv(t.deps)),
  };
});
afterAll(() => t.close());

async function proofFrom(port: number, dropId: string): Promise<Response> {
  return fetch(`http://127.0.0.1:${port}/api/drops/${dropId}/proof`);
}

async function expectVerified(proof: DropProofDto) {
  const v = await verifyDrop(nodeFair, { ...proof, winners: proof.winners.map((w) => w.entryId) });
  expect(v.problems).toEqual([]);
}

describe.skipIf(!onPostgres)('two server processes on one PostgreSQL', () => {
  it('draw at start-up of a drop closed while down; entries over HTTP through both; one draw; proofs verify', async () => {
    // Down time: a drop closed with entries and nobody to draw it.
    const c = await makeCard(t, { classId, valueCents: 500, stock: 10 });
    const missed = await createDrop(t, admin, dropInput(c.id, { prizes: [{ cardId: c.id, quantity: 2 }], winnerCount: 2 }));
    const early = await Promise.all(Array.from({ length: 6 }, () => t.makeUser()));
    for (const u of early) await t.as(u).post(`/api/drops/${missed.id}/entries`);
    await pastClose(t, missed.id);

    const a = startServerProcess({ ...env, HOST: '127.0.0.1', DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'pv-drops-a-')) });
    const b = startServerProcess({ ...env, HOST: '127.0.0.1', DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'pv-drops-b-')) });
    try {
      const [pa, pb] = await Promise.all([a.listening, b.listening]);
      // Both caught up before listening: the missed drop is drawn, once.
      for (const port of [pa, pb]) {
        const res = await proofFrom(port, missed.id);
        expect(res.status, a.log() + b.log()).toBe(200);
        await expectVerified((await res.json()) as DropProofDto);
      }

      // A drop that closes in a few seconds, entered over HTTP through both processes.
      const live = await createDrop(t, admin, dropInput(c.id, { closesAt: new Date(Date.now() + 6_000).toISOString(), prizes: [{ cardId: c.id, quantity: 3 }], winnerCount: 3 }));
      const users = await Promise.all(Array.from({ length: 20 }, () => t.makeUser()));
      const cookies = await Promise.all(users.map(async (u) => (await createSessionCookie(t.deps, u)).cookie));
      const res = await Promise.all(
        cookies.flatMap((cookie, i) =>
          [pa, pb].map((port) =>
            fetch(`http://127.0.0.1:${port}/api/drops/${live.id}/entries`, { method: 'POST', headers: { cookie, origin: TEST_ORIGIN }, signal: AbortSignal.timeout(20_000) }).then(
              async (r) => ({ i, status: r.status, body: (await r.json()) as { entry: { entryId: string } } }),
            ),
          ),
        ),
      );
      expect(res.filter((r) => r.status !== 200 && r.status !== 201), JSON.stringify(res.slice(0, 2))).toEqual([]);
      expect(res.filter((r) => r.status === 201)).toHaveLength(20);
      const entryIds = new Set(res.map((r) => r.body.entry.entryId));
      expect(entryIds.size).toBe(20);

      // The drops job of either process closes and draws it.
      let proof: DropProofDto | null = null;
      for (let tries = 0; tries < 120 && !proof; tries++) {
        const r = await proofFrom(tries % 2 ? pa : pb, live.id);
        if (r.status === 200) proof = (await r.json()) as DropProofDto;
        else await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(proof, a.log() + b.log()).not.toBeNull();
      expect(new Set(proof!.entryIds)).toEqual(entryIds);
      expect(proof!.winners).toHaveLength(3);
      await expectVerified(proof!);
      for (const d of [missed.id, live.id]) {
        const draws = await t.deps.db.select().from(auditLog).where(and(eq(auditLog.targetId, d), eq(auditLog.action, 'drop.draw')));
        expect(draws).toHaveLength(1);
      }
      expect(await t.deps.db.select().from(dropWinners).where(eq(dropWinners.dropId, live.id))).toHaveLength(3);
      await booksReconcile(t);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  }, 240_000);
});
