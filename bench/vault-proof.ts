// `npm run bench:vault` — proof of the vault at scale (issue 44, ADR 0030; docs/performance.md).
// On a fresh PostgreSQL database (BENCH_DATABASE_URL's server): 10,000 cards with stock and
// ~800,000 copies in 20,000 collectors' vaults (--copies=N for the total, default 1,000,000);
// then builds one snapshot while a worker thread runs opening-shaped transactions (take one from
// a card's stock, put a copy in a vault, one stock movement) on its own connection, and reports
// the build time (target ≤ 60 s), the openings' latency before and during the build (a lock wait
// would show there), and single-copy and whole-vault proof times (target ≤ 20 ms).
// Flags: --copies=N, --keep (leave the database).
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { loadConfig } from '../src/server/config.ts';
import { openPostgres } from '../src/server/db/client.ts';
import { migratePostgresUrl } from '../src/server/db/migrate.ts';
import type { Deps } from '../src/server/deps.ts';
import { createLogger } from '../src/server/lib/logger.ts';
import { buildSnapshot, proofFor } from '../src/server/modules/vault-proof/service.ts';
import type { Bus } from '../src/server/modules/realtime/bus.ts';
import { connect, createDatabase, databaseCpuMs, dropDatabase } from './lib/pg.ts';
import { seedCatalog, seedOwnedCards, seedUsers } from './lib/seed.ts';
import { log, percentile, round, table } from './lib/util.ts';

const args = process.argv.slice(2);
const total = Number(args.find((a) => a.startsWith('--copies='))?.split('=')[1] ?? 1_000_000);
const keep = args.includes('--keep');
const CARDS = 10_000;
const USERS = 20_000;
const STOCK_PER_CARD = Math.max(1, Math.round((total * 0.2) / CARDS));
// seedOwnedCards leaves one in ten sold back: seed enough that the rest fill the vaults.
const OWNED = Math.round((total - STOCK_PER_CARD * CARDS) / 0.9);

const OPENER = `
const { parentPort, workerData } = require('node:worker_threads');
const postgres = require(workerData.postgres);
const sql = postgres(workerData.url, { max: 1, onnotice: () => {} });
const lat = [];
let phase = 'before';
const out = { before: [], during: [] };
parentPort.on('message', (m) => { if (m === 'during') phase = 'during'; if (m === 'stop') phase = 'stop'; });
(async () => {
  while (phase !== 'stop') {
    const k = 1 + Math.floor(Math.random() * workerData.cards);
    const t0 = performance.now();
    await sql.begin(async (tx) => {
      const [c] = await tx\`update cards set stock = stock - 1, updated_at = now() where id = md5('card' || \${k})::uuid and stock > 0 returning id, stock, value_cents\`;
      if (!c) return;
      const u = 'bench' + (1 + Math.floor(Math.random() * workerData.users));
      await tx\`insert into owned_cards (card_id, owner_id, acquired_via, value_cents) values (\${c.id}, \${u}, 'grant', \${c.value_cents})\`;
      await tx\`insert into stock_movements (card_id, delta, stock_after, reason, note) values (\${c.id}, -1, \${c.stock}, 'grant', 'vault bench')\`;
    });
    out[phase === 'during' ? 'during' : 'before'].push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 5));
  }
  await sql.end();
  parentPort.postMessage(out);
})();`;

async function main() {
  const name = `pv_vault_bench_${Date.now().toString(36)}`;
  const url = await createDatabase(name);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pv-vault-bench-'));
  try {
    log(`migrating and seeding ${name}: ${CARDS} cards × ${STOCK_PER_CARD} in stock, ${OWNED} owned (${USERS} users)`);
    await migratePostgresUrl(url);
    const admin = connect(url, 2);
    const exec = (q: string) => admin.unsafe(q) as unknown as Promise<Array<Record<string, unknown>>>;
    const seedStart = performance.now();
    await seedCatalog(exec, { cards: CARDS, stockPerCard: STOCK_PER_CARD });
    await seedUsers(exec, USERS);
    await seedOwnedCards(exec, { count: OWNED, users: USERS, cards: CARDS });
    await exec('vacuum analyze');
    log(`seeded in ${round((performance.now() - seedStart) / 1000)} s`);

    const config = loadConfig({ NODE_ENV: 'development', APP_SECRET: 'x'.repeat(48), DATA_DIR: dataDir, DATABASE_URL: url, LOG_LEVEL: 'silent' });
    const dbh = await openPostgres(url, 4);
    const shutdown = new AbortController();
    const deps: Deps = { config, dbh, db: dbh.db, bus: {} as Bus, log: createLogger('silent'), shutdown: shutdown.signal };

    const worker = new Worker(OPENER, { eval: true, workerData: { url, cards: CARDS, users: USERS, postgres: createRequire(import.meta.url).resolve('postgres') } });
    const results = new Promise<{ before: number[]; during: number[] }>((resolve) => worker.once('message', resolve));
    await new Promise((r) => setTimeout(r, 5_000));
    worker.postMessage('during');
    // CPU as well as wall time: on a shared, loaded machine the wall time says more about the
    // neighbours than about the build; this process's CPU plus PostgreSQL's is what it costs.
    const cpu0 = process.cpuUsage();
    const pg0 = await databaseCpuMs();
    const built = await buildSnapshot(deps, { trigger: 'owner' });
    const cpu = process.cpuUsage(cpu0);
    const pg1 = await databaseCpuMs();
    const nodeCpuMs = (cpu.user + cpu.system) / 1000;
    const pgCpuMs = pg0 !== null && pg1 !== null ? pg1 - pg0 : null;
    worker.postMessage('stop');
    const opens = await results;
    await worker.terminate();
    log(`snapshot ${built.seq}: ${built.leafCount} copies (${built.stockCopies} in stock, ${built.vaultCopies} in vaults) in ${built.buildMs} ms (${JSON.stringify(built.phases)})`);

    // Proofs: one copy of a random collector, and a collector's whole vault.
    const owners = (await admin.unsafe(`select owner_id, (leaves->0->>2) as copy, jsonb_array_length(leaves) as n from vault_holdings where seq = ${built.seq} order by random() limit 200`)) as unknown as Array<{ owner_id: string; copy: string; n: number }>;
    const one: number[] = [];
    const all: number[] = [];
    for (const o of owners) {
      const id = /^owned:([0-9a-f-]{36})/.exec(o.copy)![1]!;
      let t0 = performance.now();
      const p = await proofFor(deps, o.owner_id, { ownedCardId: id });
      one.push(performance.now() - t0);
      if (p.leaves.length !== 1 || p.leaves[0]!.path.length < Math.floor(Math.log2(built.leafCount))) throw new Error('a proof came back short');
      t0 = performance.now();
      await proofFor(deps, o.owner_id);
      all.push(performance.now() - t0);
    }
    const copiesEach = owners.reduce((a, o) => a + Number(o.n), 0) / Math.max(1, owners.length);
    const sizes = (await admin.unsafe(`select pg_size_pretty(pg_total_relation_size('vault_tree_chunks')) as tree, pg_size_pretty(pg_total_relation_size('vault_holdings')) as holdings`)) as unknown as Array<{ tree: string; holdings: string }>;
    await admin.end();
    await dbh.close();

    const ms = (v: number | null) => (v === null ? '—' : String(round(v)));
    process.stdout.write(
      `\n${table([
        ['measure', 'value', 'target'],
        ['copies in the snapshot', built.leafCount, '1,000,000'],
        ['load average (1 min) at the end', os.loadavg()[0]!.toFixed(1), ''],
        ['build (read, hash, sort, sign, store), s', round(built.buildMs / 1000, 2), '≤ 60'],
        ['CPU: this process / PostgreSQL (all backends), s', `${round(nodeCpuMs / 1000, 2)} / ${pgCpuMs === null ? '—' : round(pgCpuMs / 1000, 2)}`, ''],
        ['  of which read+hash / tree / write, s', `${round(built.phases.readMs / 1000, 2)} / ${round(built.phases.treeMs / 1000, 2)} / ${round(built.phases.writeMs / 1000, 2)}`, ''],
        ['stored: tree / holdings', `${sizes[0]!.tree} / ${sizes[0]!.holdings}`, ''],
        ['openings before: n, p50, p99, max ms', `${opens.before.length}, ${ms(percentile(opens.before, 50))}, ${ms(percentile(opens.before, 99))}, ${ms(Math.max(...opens.before))}`, ''],
        ['openings during build: n, p50, p99, max ms', `${opens.during.length}, ${ms(percentile(opens.during, 50))}, ${ms(percentile(opens.during, 99))}, ${ms(Math.max(...opens.during))}`, 'no lock waits'],
        ['one copy’s proof p50 / p95 / max ms', `${ms(percentile(one, 50))} / ${ms(percentile(one, 95))} / ${ms(Math.max(...one))}`, '≤ 20'],
        [`whole vault (≈${Math.round(copiesEach)} copies) p50 / p95 ms`, `${ms(percentile(all, 50))} / ${ms(percentile(all, 95))}`, ''],
      ])}\n`,
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    if (!keep) await dropDatabase(name);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
