import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DropProofDto } from '../../../shared/contracts/drops.ts';
import { verifyDrop } from '../../../shared/drop-draw.ts';
import { auditLog } from '../../db/schema/audit.ts';
import { dropWinners } from '../../db/schema/drops.ts';
import { projectRoot } from '../../lib/paths.ts';
import { TEST_ORIGIN } from '../../test/harness.ts';
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

interface Proc {
  port: Promise<number>;
  stop(): Promise<void>;
  output(): string;
}

function startServer(env: Record<string, string>): Proc {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(projectRoot, 'src/server/main.ts')], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const port = new Promise<number>((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /"msg":"listening".*?"url":"http:\/\/[^":]+:(\d+)"/.exec(out);
      if (m) {
        clearInterval(timer);
        resolve(Number(m[1]));
      }
    }, 50);
    void exited.then(() => {
      clearInterval(timer);
      reject(new Error(`server exited before listening: ${out}`));
    });
  });
  port.catch(() => {});
  return {
    port,
    output: () => out,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

let t: MoneyTestContext;
let admin: string;
let classId: string;
let env: Record<string, string>;
beforeAll(async () => {
  t = await moneyTestContext();
  admin = await t.makeUser({ role: 'admin' });
  classId = (await makeClass(t)).id;
  if (!onPostgres) return;
  const [row] = await t.deps.dbh.query<{ db: string }>(sql`select current_database() as db`);
  const u = new URL(inject('postgresAdminUrl'));
  u.pathname = `/${row!.db}`;
  // Development mode (plain cookie names, as the test's sessions have), without demo data.
  env = {
    APP_SECRET: t.deps.config.secret,
    PUBLIC_URL: TEST_ORIGIN,
    SEED_DEMO: 'false',
    DATABASE_URL: u.toString(),
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

    const a = startServer({ ...env, DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'pv-drops-a-')) });
    const b = startServer({ ...env, DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'pv-drops-b-')) });
    try {
      const [pa, pb] = await Promise.all([a.port, b.port]);
      // Both caught up before listening: the missed drop is drawn, once.
      for (const port of [pa, pb]) {
        const res = await proofFrom(port, missed.id);
        expect(res.status, a.output() + b.output()).toBe(200);
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
      expect(proof, a.output() + b.output()).not.toBeNull();
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
