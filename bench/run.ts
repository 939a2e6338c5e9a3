// `npm run bench` — see docs/performance.md. Creates fresh databases on BENCH_DATABASE_URL's
// server, starts the built server as a child process and measures, in one run: the buy-and-open
// limit (pgbench on the captured SQL) against the app (autocannon closed loop; fixed rates from
// lib/open-loop.ts, as pgbench -R), the invariants afterwards,
// growth (100,000 cards, 1,000,000 owned), the read path, realtime fan-out, embedded PGlite and the
// admin dashboard at 1M ledger postings (lib/dashboard.ts).
// Flags: --quick (small and short, for developing the bench), --only=read,realtime,open,growth,pglite,dashboard,
// --seconds=N, --rates=a,b,c (--rates= for none), --users=N, --keep (leave the databases). Exit code ≠ 0 only on errors.
// Every open run also replays the hand-written essential transaction, as statements
// (bench/sql/essential-open.sql) and as one statement (essential-open-one-statement.sql), and
// reports app ÷ essential beside app ÷ captured SQL, with PostgreSQL's CPU per transaction of each.
// --ab=<dir>: only the closed loop of this build (dist/) against another build copied to <dir>,
// side by side (lib/ab.ts), for changes smaller than the machine's drift.
// --processes=1,2,3: only the closed loop against N app processes on one database, with each part's
// CPU share (lib/processes.ts); with --pooler=<PgBouncer URL> the app goes through PgBouncer, with
// --no-prepare it sends unnamed statements (DATABASE_PREPARE=false, PgBouncer < 1.21).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createPglite } from '../src/server/db/pglite.ts';
import { migratePgliteClient, migratePostgresUrl } from '../src/server/db/migrate.ts';
import { abBench } from './lib/ab.ts';
import { dashboardBench, dashboardTable, DASHBOARD_P95_MS, type DashboardBenchResult } from './lib/dashboard.ts';
import { checkInvariants, type Invariants } from './lib/invariants.ts';
import { load, type LoadResult } from './lib/load.ts';
import { alternatedGrowth, endpointExists, openBench, OPEN_PATH, userRotation, type AlternatedGrowth, type OpenBenchResult } from './lib/open.ts';
import { parseOptions } from './lib/options.ts';
import { probeMachine } from './lib/probe.ts';
import { processesBench, processesTable } from './lib/processes.ts';
import { ADMIN_URL, cloneDatabase, connect, createDatabase, dropDatabase } from './lib/pg.ts';
import { realtimeBench, type RealtimeResult } from './lib/realtime.ts';
import { PRODUCT_ID, seedCatalog, seedOwnedCards, seedUsers, type Exec } from './lib/seed.ts';
import { cpuMs, ensureBuilt, ROOT, startServer } from './lib/server.ts';
import { log, machine, round, table } from './lib/util.ts';

const TARGETS = {
  ratio: 0.5,
  p99_ms_at_1000: 25,
  growth: 0.9, // issue 21: growth (100k cards, 1M owned) ≥ 0.9
  pglite_opens_per_s: 500,
  read_ratio: 0.4,
  realtime_p99_ms: 250,
};

const o = parseOptions(process.argv.slice(2));
// --processes is a run of its own: the other phases only when --only names them.
const want = (phase: string) => (o.only ? o.only.has(phase) : !o.processes);
const runId = `${Date.now().toString(36)}`;
const notes: string[] = [];
const errors: string[] = [];

/** Every database this run created, dropped at the end (unless --keep), even after a failure. */
const created: string[] = [];

async function seedPostgres(name: string, cards: number, owned: number) {
  created.push(name);
  const url = await createDatabase(name);
  await migratePostgresUrl(url);
  const sql = connect(url, 2);
  const exec: Exec = (s) => sql.unsafe(s) as unknown as Promise<Array<Record<string, unknown>>>;
  try {
    const t0 = Date.now();
    await seedCatalog(exec, { cards, stockPerCard: 100_000 });
    await seedUsers(exec, o.users);
    if (owned) await seedOwnedCards(exec, { count: owned, users: o.users, cards });
    await exec('vacuum analyze');
    // Write the seeded pages out now: otherwise the checkpoint that a million-row seed is due
    // falls inside the measurement (the growth runs swung 0.69–0.89 with pgbench's own growth
    // 0.73–1.08 before this).
    await exec('checkpoint');
    log(`seeded ${name}: ${cards} cards, ${o.users} users, ${owned} owned cards (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  } finally {
    await sql.end();
  }
  return { url, name };
}

async function invariantsOf(url: string, expected: number): Promise<Invariants> {
  const sql = connect(url, 1);
  try {
    return await checkInvariants((s) => sql.unsafe(s) as unknown as Promise<Array<Record<string, unknown>>>, expected);
  } finally {
    await sql.end();
  }
}

interface ReadResult {
  cards: LoadResult;
  config: LoadResult;
  ratio: number | null;
  /** The same reads as a visitor's server-drawn pages (ADR 0027): /cards and a product page. */
  html_cards: LoadResult;
  html_product: LoadResult;
  api_product: LoadResult;
  /** GET /api/cards as a browser asks for it (gzip), beside the pages. */
  api_cards_gzip: LoadResult;
  /** HTML /cards (gzip) ÷ /api/config: the API figure's ratio, for the page. */
  html_ratio: number | null;
  /** GET /api/cards (gzip) ÷ /api/config, measured beside the pages: the like-for-like API figure. */
  api_gzip_ratio: number | null;
  /** HTML /shop/{id} ÷ GET /api/shop/products/{id}. */
  html_product_ratio: number | null;
}

/** GET /api/cards (a page of 48) against GET /api/config, alternating halves so drift hits both. */
async function readBench(origin: string): Promise<ReadResult> {
  const half = Math.max(1, Math.round(o.seconds / 2));
  const run = (p: string, headers?: Record<string, string>) => load({ url: `${origin}${p}`, connections: o.connections, duration: half, ...(headers ? { headers } : {}) });
  // A page is asked for as every browser asks: taking gzip (its HTML is ~280 KB plain, ~32 KB gzipped).
  const page = (p: string) => run(p, { 'accept-encoding': 'gzip' });
  await run('/api/cards?page=1&pageSize=48'); // warm-up (JIT, plans, caches)
  const c1 = await run('/api/config');
  const k1 = await run('/api/cards?page=1&pageSize=48');
  const c2 = await run('/api/config');
  const k2 = await run('/api/cards?page=1&pageSize=48');
  const merge = (a: LoadResult, b: LoadResult): LoadResult => ({
    ...a,
    rps: round((a.ok + b.ok) / (a.duration_s + b.duration_s), 1)!,
    ok: a.ok + b.ok,
    non2xx: a.non2xx + b.non2xx,
    errors: a.errors + b.errors,
    p50_ms: Math.max(a.p50_ms ?? 0, b.p50_ms ?? 0),
    p99_ms: Math.max(a.p99_ms ?? 0, b.p99_ms ?? 0),
    duration_s: round(a.duration_s + b.duration_s, 2)!,
    status: Object.fromEntries([...new Set([...Object.keys(a.status), ...Object.keys(b.status)])].map((k) => [k, (a.status[k] ?? 0) + (b.status[k] ?? 0)])),
  });
  const config = merge(c1, c2);
  const cards = merge(k1, k2);
  // The public pages as a visitor's first HTML (drawn by the server from the same reads).
  const products = (await (await fetch(`${origin}/api/shop/products`)).json()) as { items: Array<{ id: string }> };
  const productId = products.items[0]!.id;
  await page('/cards'); // warm-up: the first drawing of each page
  await page(`/shop/${productId}`);
  // As a browser asks for both (gzip), in mirrored order so drift hits each the same.
  const c3 = await run('/api/config');
  const h1 = await page('/cards');
  const g1 = await page('/api/cards?page=1&pageSize=48');
  const hp1 = await page(`/shop/${productId}`);
  const p1 = await page(`/api/shop/products/${productId}`);
  const p2 = await page(`/api/shop/products/${productId}`);
  const hp2 = await page(`/shop/${productId}`);
  const g2 = await page('/api/cards?page=1&pageSize=48');
  const h2 = await page('/cards');
  const c4 = await run('/api/config');
  const configHtml = merge(c3, c4);
  const htmlCards = merge(h1, h2);
  const apiCardsGzip = merge(g1, g2);
  const htmlProduct = merge(hp1, hp2);
  const apiProduct = merge(p1, p2);
  return {
    cards,
    config,
    ratio: config.rps ? round(cards.rps / config.rps, 3) : null,
    html_cards: htmlCards,
    api_cards_gzip: apiCardsGzip,
    html_product: htmlProduct,
    api_product: apiProduct,
    html_ratio: configHtml.rps ? round(htmlCards.rps / configHtml.rps, 3) : null,
    api_gzip_ratio: configHtml.rps ? round(apiCardsGzip.rps / configHtml.rps, 3) : null,
    html_product_ratio: apiProduct.rps ? round(htmlProduct.rps / apiProduct.rps, 3) : null,
  };
}

interface PgliteResult {
  closed: LoadResult;
  cpu_ms_per_open: number | null;
  invariants: Invariants;
}

async function pgliteBench(): Promise<PgliteResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pv-bench-pglite-'));
  const users = Math.min(o.users, 1000);
  try {
    const client = await createPglite(path.join(dataDir, 'pglite'));
    await migratePgliteClient(client);
    const exec: Exec = async (s) => (await client.query<Record<string, unknown>>(s)).rows;
    await seedCatalog(exec, { cards: o.smallCards, stockPerCard: 100_000 });
    await seedUsers(exec, users);
    await client.exec('vacuum analyze');
    await client.close();
    const server = await startServer({ dataDir });
    let result: LoadResult;
    let cpu: number;
    let opened = 0;
    try {
      const rot = userRotation(users);
      await rot.prepare();
      const perRequest = () => ({ headers: rot.headers(server.origin) });
      const body = JSON.stringify({ productId: PRODUCT_ID, quantity: 1 });
      const url = `${server.origin}${OPEN_PATH}`;
      opened += (await load({ url, method: 'POST', body, connections: 4, duration: 2, perRequest })).ok;
      log(`pglite: app closed loop (${o.connections} connections, ${o.seconds} s)`);
      const cpu0 = cpuMs(server.pid);
      result = await load({ url, method: 'POST', body, connections: o.connections, duration: o.seconds, perRequest });
      cpu = cpuMs(server.pid) - cpu0;
      opened += result.ok;
    } finally {
      await server.stop();
    }
    const after = await createPglite(path.join(dataDir, 'pglite'));
    try {
      const invariants = await checkInvariants(async (s) => (await after.query<Record<string, unknown>>(s)).rows, opened);
      return { closed: result, cpu_ms_per_open: result.ok ? round(cpu / result.ok, 2) : null, invariants };
    } finally {
      await after.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** --processes: seeds a small database, runs lib/processes.ts, prints and writes its table. */
async function processesMain(counts: number[]) {
  await ensureBuilt('server').then((n) => n && notes.push(n));
  const before = await machine();
  try {
    const s = await seedPostgres(`packvault_bench_${runId}_procs`, o.smallCards, 0);
    const runs = await processesBench(o, { databaseUrl: s.url, counts, poolerUrl: o.poolerUrl, prepare: o.prepare });
    const inv = await invariantsOf(s.url, runs.reduce((n, r) => n + r.opened, 0));
    const after = await machine();
    console.log(`\n${table(processesTable(runs))}\n`);
    console.log(`invariants: ${inv.ok ? 'hold' : `BROKEN (${inv.failures.join(', ')})`}`);
    console.log(`load average before ${before.loadavg.join(' ')}, after ${after.loadavg.join(' ')} (${before.cpus} cores)`);
    if (!inv.ok) errors.push('invariants broken');
    const outDir = path.join(ROOT, 'bench/results');
    mkdirSync(outDir, { recursive: true });
    const name = `processes${o.poolerUrl ? '-pgbouncer' : ''}${o.prepare ? '' : '-noprepare'}${o.quick ? '.partial' : ''}.json`;
    const file = path.join(outDir, name);
    writeFileSync(file, `${JSON.stringify({ runs, invariants: inv, machine_before: before, machine_after: after, postgres: await serverVersion(), options: { ...o, only: null }, notes }, null, 2)}\n`);
    log(`wrote ${path.relative(ROOT, file)}`);
  } finally {
    if (!o.keep) for (const d of created) await dropDatabase(d).catch(() => {});
  }
}

/** --ab=<dir>: this build against another, side by side on copies of one seeded database (lib/ab.ts). */
async function abMain(bDist: string) {
  await ensureBuilt('server').then((n) => n && notes.push(n));
  const before = await machine();
  const probe = await probeMachine(ADMIN_URL);
  try {
    const s = await seedPostgres(`packvault_bench_${runId}_ab_a`, o.smallCards, 0);
    const bName = `packvault_bench_${runId}_ab_b`;
    created.push(bName);
    const bUrl = await cloneDatabase(s.name, bName);
    const pairs = o.quick ? 1 : 3;
    const r = await abBench(o, { bDist, urls: { a: s.url, b: bUrl }, pairs });
    const inv = { a: await invariantsOf(s.url, r.opened.a), b: await invariantsOf(bUrl, r.opened.b) };
    const after = await machine();
    const rows: Array<Array<string | number | null>> = [['build', 'opens/s per round', 'mean opens/s', 'server CPU ms/open', 'PostgreSQL CPU ms/open']];
    for (const build of ['a', 'b'] as const) {
      const side = r[build];
      rows.push([`${build}: ${r.builds[build]}`, r.rounds.filter((x) => x.build === build).map((x) => x.rps).join(', '), side.rps, side.cpu_ms_per_open, side.db_cpu_ms_per_open]);
    }
    console.log(`\n${table(rows)}\n`);
    console.log(`b / a: ${r.ratio}   invariants: a ${inv.a.ok ? 'hold' : 'BROKEN'}, b ${inv.b.ok ? 'hold' : 'BROKEN'}`);
    console.log(`load average before ${before.loadavg.join(' ')}, after ${after.loadavg.join(' ')} (${before.cpus} cores)`);
    console.log(`machine: select 1 ${probe.select1_per_s}/s on one connection, JS loop ${probe.js_loop_ms} ms`);
    if (!inv.a.ok || !inv.b.ok) errors.push('invariants broken');
    const outDir = path.join(ROOT, 'bench/results');
    mkdirSync(outDir, { recursive: true });
    const file = path.join(outDir, 'ab.partial.json');
    writeFileSync(file, `${JSON.stringify({ ...r, invariants: inv, machine_before: before, machine_after: after, machine_probe: probe, options: { ...o, only: null }, notes }, null, 2)}\n`);
    log(`wrote ${path.relative(ROOT, file)}`);
  } finally {
    if (!o.keep) for (const d of created) await dropDatabase(d).catch(() => {});
  }
}

async function main() {
  if (o.ab) return abMain(o.ab);
  if (o.processes && !o.only) return processesMain(o.processes);
  const started = new Date();
  log(`packvault bench (${o.quick ? 'quick' : 'full'}) against ${ADMIN_URL.replace(/:[^:@/]*@/, ':***@')}`);
  // The dashboard phase calls the service in-process: no build needed for it alone.
  const needsServer = ['read', 'realtime', 'open', 'growth', 'pglite'].some(want);
  const buildNote = needsServer ? await ensureBuilt('server') : null;
  if (buildNote) notes.push(buildNote);
  const before = await machine();
  const probe = await probeMachine(ADMIN_URL);
  log(`machine: select 1 ${probe.select1_per_s}/s on one connection, JS loop ${probe.js_loop_ms} ms`);
  const results: Record<string, unknown> = {};
  let small: OpenBenchResult | null = null;
  let smallInv: Invariants | null = null;
  let large: OpenBenchResult | null = null;
  let largeInv: Invariants | null = null;
  let side: AlternatedGrowth | null = null;
  let smallUrl: string | null = null;
  let read: ReadResult | null = null;
  let realtime: RealtimeResult | null = null;
  let pglite: PgliteResult | null = null;
  let dashboard: DashboardBenchResult | null = null;
  let endpoint = true;

  try {
    if (want('read') || want('realtime') || want('open')) {
      const s = await seedPostgres(`packvault_bench_${runId}_small`, o.smallCards, 0);
      // With the realtime phase the server gets lib/heap-probe.mjs, so the heap per SSE connection can be read.
      const heapFile = want('realtime') ? path.join(mkdtempSync(path.join(tmpdir(), 'pv-heap-')), 'heap.json') : undefined;
      const server = await startServer({
        databaseUrl: s.url,
        poolSize: o.poolSize,
        ...(heapFile ? { nodeArgs: ['--expose-gc', '--import', pathToFileURL(path.join(ROOT, 'bench/lib/heap-probe.mjs')).href], extraEnv: { BENCH_HEAP_FILE: heapFile } } : {}),
      });
      try {
        endpoint = await endpointExists(server);
        if (want('read')) {
          log('read path: /api/cards vs /api/config');
          read = await readBench(server.origin);
        }
        if (want('realtime')) {
          log(`realtime: ${o.sseClients} SSE clients`);
          realtime = await realtimeBench({ origin: server.origin, databaseUrl: s.url, pid: server.pid, clients: o.sseClients, events: o.sseEvents, heapFile });
        }
      } finally {
        await server.stop();
      }
      if (want('open')) {
        if (!endpoint) notes.push(`POST ${OPEN_PATH} does not exist in this build yet: opening benchmarks skipped.`);
        else {
          small = await openBench(o, { databaseUrl: s.url, cards: o.smallCards, rates: o.rates, label: `open @${o.smallCards} cards` });
          smallUrl = s.url;
          // +1: endpointExists() opened one pack.
          smallInv = await invariantsOf(s.url, small.opened + 1);
        }
      }
    }
    // A failing phase is reported (and the exit code says so) without losing the others' figures.
    if (want('growth') && endpoint) {
      try {
        const l = await seedPostgres(`packvault_bench_${runId}_large`, o.largeCards, o.ownedCards);
        large = await openBench(o, { databaseUrl: l.url, cards: o.largeCards, rates: [], label: `open @${o.largeCards} cards` });
        if (small && smallUrl) {
          side = await alternatedGrowth(o, { small: smallUrl, large: l.url });
          // The side-by-side rounds opened more packs on the small database: judge it again.
          smallInv = await invariantsOf(smallUrl, small.opened + 1 + side.opened.small);
        }
        largeInv = await invariantsOf(l.url, large.opened + (side?.opened.large ?? 0));
      } catch (err) {
        errors.push(`growth: ${(err as Error).message}`);
      }
    }
    if (want('pglite') && endpoint) {
      log('pglite: embedded database');
      try {
        pglite = await pgliteBench();
      } catch (err) {
        errors.push(`pglite: ${(err as Error).message}`);
      }
    }
    if (want('dashboard')) {
      log('dashboard: 1M ledger postings');
      try {
        dashboard = await dashboardBench({ users: 20_000, entries: o.quick ? 50_000 : 500_000, rounds: o.quick ? 8 : 40, keep: o.keep });
      } catch (err) {
        errors.push(`dashboard: ${(err as Error).message}`);
      }
    }
  } finally {
    if (!o.keep) for (const d of created) await dropDatabase(d).catch(() => {});
  }

  const after = await machine();
  const at = (r: OpenBenchResult | null, rate: number) => ({
    app: r?.app.rates.find((x) => x.target_rate === rate) ?? null,
    db: r?.db.rates.find((x) => x.target_rate === rate) ?? null,
    essentialOne: r?.essential_one_rates.find((x) => x.target_rate === rate) ?? null,
  });
  const singleGrowth = small && large ? round(large.app.closed.rps / small.app.closed.rps, 3) : null;
  // The target is judged on the side-by-side rounds when they ran (alternatedGrowth says why).
  const growthRatio = side?.ratio ?? singleGrowth;
  const p99At1000 = at(small, 1000).app?.p99_ms ?? null;

  const summary = {
    opens_per_s: small?.app.closed.rps ?? null,
    db_tps: small?.db.closed.tps ?? null,
    ratio: small?.ratio ?? null,
    essential_tps: small?.essential.tps ?? null,
    essential_ratio: small?.essential_ratio ?? null,
    essential_one_tps: small?.essential_one.tps ?? null,
    essential_one_ratio: small?.essential_one_ratio ?? null,
    cpu_ms_per_open: small?.app.cpu_ms_per_open ?? null,
    // PostgreSQL's CPU per transaction (every server process), where the server is on this machine.
    db_cpu_ms: small
      ? { app: small.app.db_cpu_ms_per_open, captured: small.db.closed.db_cpu_ms_per_tx, essential: small.essential.db_cpu_ms_per_tx, essential_one: small.essential_one.db_cpu_ms_per_tx }
      : null,
    statements_per_open: small?.capture.statements_per_open ?? null,
    rates: o.rates.map((rate) => {
      const x = at(small, rate);
      return {
        rate,
        app_achieved: x.app?.rps ?? null,
        app_p50_ms: x.app?.p50_ms ?? null,
        app_p99_ms: x.app?.p99_ms ?? null,
        db_achieved: x.db?.tps ?? null,
        db_p50_ms: x.db?.p50_ms ?? null,
        db_p99_ms: x.db?.p99_ms ?? null,
        essential_one_achieved: x.essentialOne?.tps ?? null,
        essential_one_p50_ms: x.essentialOne?.p50_ms ?? null,
        essential_one_p99_ms: x.essentialOne?.p99_ms ?? null,
      };
    }),
    growth: large
      ? {
          cards: o.largeCards,
          owned_cards: o.ownedCards,
          opens_per_s: large.app.closed.rps,
          db_tps: large.db.closed.tps,
          p99_ms: large.app.closed.p99_ms,
          ratio_to_small: growthRatio,
          single_runs_ratio: singleGrowth,
          side_by_side: side ? { small_rps: side.small_rps, large_rps: side.large_rps, ratio: side.ratio, rounds: side.rounds } : null,
          db_ratio_to_small: small ? round(large.db.closed.tps / small.db.closed.tps, 3) : null,
        }
      : null,
    read_path: read
      ? {
          cards_rps: read.cards.rps,
          config_rps: read.config.rps,
          ratio: read.ratio,
          cards_p99_ms: read.cards.p99_ms,
          config_p99_ms: read.config.p99_ms,
          html_cards_rps: read.html_cards.rps,
          html_cards_p99_ms: read.html_cards.p99_ms,
          html_ratio: read.html_ratio,
          api_cards_gzip_rps: read.api_cards_gzip.rps,
          api_gzip_ratio: read.api_gzip_ratio,
          html_product_rps: read.html_product.rps,
          api_product_rps: read.api_product.rps,
          html_product_ratio: read.html_product_ratio,
        }
      : null,
    realtime: realtime
      ? { clients: realtime.connected, p50_ms: realtime.p50_ms, p95_ms: realtime.p95_ms, p99_ms: realtime.p99_ms, max_ms: realtime.max_ms, delivered: `${realtime.deliveries}/${realtime.expected_deliveries}`, kb_per_connection: realtime.kb_per_connection, heap_kb_per_connection: realtime.heap_kb_per_connection }
      : null,
    pglite: pglite ? { opens_per_s: pglite.closed.rps, p50_ms: pglite.closed.p50_ms, p99_ms: pglite.closed.p99_ms, cpu_ms_per_open: pglite.cpu_ms_per_open } : null,
    invariants_ok: [smallInv, largeInv, pglite?.invariants].filter(Boolean).every((i) => i!.ok),
  };

  const targets = {
    ratio: { target: `≥ ${TARGETS.ratio}`, value: summary.ratio, met: summary.ratio === null ? null : summary.ratio >= TARGETS.ratio },
    p99_at_1000: { target: `≤ ${TARGETS.p99_ms_at_1000} ms at 1000/s`, value: p99At1000, achieved_rate: at(small, 1000).app?.rps ?? null, met: p99At1000 === null ? null : p99At1000 <= TARGETS.p99_ms_at_1000 && (at(small, 1000).app?.rps ?? 0) >= 950 },
    growth: { target: `≥ ${TARGETS.growth}`, value: growthRatio, met: growthRatio === null ? null : growthRatio >= TARGETS.growth },
    pglite: { target: `≥ ${TARGETS.pglite_opens_per_s} opens/s`, value: summary.pglite?.opens_per_s ?? null, met: summary.pglite ? summary.pglite.opens_per_s >= TARGETS.pglite_opens_per_s : null },
    read_ratio: { target: `≥ ${TARGETS.read_ratio}`, value: read?.ratio ?? null, met: read?.ratio == null ? null : read.ratio >= TARGETS.read_ratio },
    realtime_p99: {
      target: `≤ ${TARGETS.realtime_p99_ms} ms to ${o.sseClients} clients`,
      value: realtime?.p99_ms ?? null,
      met: realtime ? realtime.p99_ms !== null && realtime.p99_ms <= TARGETS.realtime_p99_ms && realtime.deliveries === realtime.expected_deliveries && realtime.connected === o.sseClients : null,
    },
    invariants: { target: 'all hold', value: summary.invariants_ok, met: summary.invariants_ok },
    dashboard_p95: {
      target: `< ${DASHBOARD_P95_MS} ms for every range`,
      value: dashboard ? Math.max(...dashboard.cases.map((c) => c.p95_ms)) : null,
      met: dashboard ? dashboard.met : null,
    },
  };

  Object.assign(results, {
    ...summary,
    targets,
    detail: { small, small_invariants: smallInv, large, large_invariants: largeInv, read, realtime, pglite, dashboard },
    run: {
      started: started.toISOString(),
      finished: new Date().toISOString(),
      quick: o.quick,
      options: { ...o, only: o.only ? [...o.only] : null },
      machine_before: before,
      machine_probe: probe,
      machine_after: after,
      postgres: await serverVersion(),
      notes,
      errors,
    },
  });

  const rows: Array<Array<string | number | null>> = [['measure', 'value', 'target', 'met']];
  const yes = (m: boolean | null) => (m === null ? 'n/a' : m ? 'yes' : 'NO');
  rows.push(['app opens/s (closed loop)', summary.opens_per_s, '', '']);
  rows.push(['pgbench tps, same SQL', summary.db_tps, '', '']);
  rows.push(['ratio app / pgbench', summary.ratio, targets.ratio.target, yes(targets.ratio.met)]);
  rows.push(['pgbench tps, essential transaction', summary.essential_tps, '', '']);
  rows.push(['ratio app / essential', summary.essential_ratio, '', '']);
  rows.push(['pgbench tps, essential as one statement', summary.essential_one_tps, '', '']);
  rows.push(['ratio app / essential (one statement)', summary.essential_one_ratio, '', '']);
  rows.push(['CPU ms per open (server)', summary.cpu_ms_per_open, '', '']);
  if (summary.db_cpu_ms) {
    const d = summary.db_cpu_ms;
    const ms = (x: number | null) => (x === null ? '—' : String(x));
    rows.push(['PostgreSQL CPU ms per tx: app, same SQL, essential, one statement', `${ms(d.app)}, ${ms(d.captured)}, ${ms(d.essential)}, ${ms(d.essential_one)}`, '', '']);
    if (d.app !== null && summary.cpu_ms_per_open !== null) {
      // Cores the server and the database need to sustain 1,000 opens/s (load generator not counted).
      rows.push(['cores needed at 1,000 opens/s (server + PostgreSQL)', round((summary.cpu_ms_per_open + d.app), 2), `< ${before.cpus}`, '']);
    }
  }
  for (const r of summary.rates) {
    rows.push([`@${r.rate}/s app achieved, p50/p99 ms`, `${r.app_achieved ?? '—'}, ${r.app_p50_ms ?? '—'}/${r.app_p99_ms ?? '—'}`, r.rate === 1000 ? targets.p99_at_1000.target : '', r.rate === 1000 ? yes(targets.p99_at_1000.met) : '']);
    rows.push([`@${r.rate}/s pgbench achieved, p50/p99 ms`, `${r.db_achieved ?? '—'}, ${r.db_p50_ms ?? '—'}/${r.db_p99_ms ?? '—'}`, '', '']);
    rows.push([`@${r.rate}/s essential as one statement achieved, p50/p99 ms`, `${r.essential_one_achieved ?? '—'}, ${r.essential_one_p50_ms ?? '—'}/${r.essential_one_p99_ms ?? '—'}`, '', '']);
  }
  if (summary.growth) {
    rows.push([`opens/s @${o.largeCards} cards + ${o.ownedCards} owned`, summary.growth.opens_per_s, '', '']);
    if (side) {
      rows.push(['growth side by side: small, large opens/s', `${side.rounds.map((r) => `${r.size[0]} ${r.rps}`).join(', ')}`, '', '']);
      rows.push(['growth ratio (large / small, side by side)', side.ratio, targets.growth.target, yes(targets.growth.met)]);
      rows.push(['growth ratio (single runs, minutes apart)', singleGrowth, '', '']);
    } else rows.push(['growth ratio (large / small)', summary.growth.ratio_to_small, targets.growth.target, yes(targets.growth.met)]);
    rows.push(['pgbench growth ratio', summary.growth.db_ratio_to_small, '', '']);
  }
  if (summary.pglite) rows.push(['PGlite opens/s', summary.pglite.opens_per_s, targets.pglite.target, yes(targets.pglite.met)]);
  if (read) {
    rows.push(['GET /api/cards req/s (p99 ms)', `${read.cards.rps} (${read.cards.p99_ms})`, '', '']);
    rows.push(['GET /api/config req/s (p99 ms)', `${read.config.rps} (${read.config.p99_ms})`, '', '']);
    rows.push(['read ratio cards / config', read.ratio, targets.read_ratio.target, yes(targets.read_ratio.met)]);
    rows.push(['GET /cards (HTML) req/s (p99 ms)', `${read.html_cards.rps} (${read.html_cards.p99_ms})`, '', '']);
    rows.push(['GET /api/cards gzip req/s (p99 ms)', `${read.api_cards_gzip.rps} (${read.api_cards_gzip.p99_ms})`, '', '']);
    rows.push(['read ratio /api/cards gzip / config', read.api_gzip_ratio, '', '']);
    rows.push(['read ratio /cards HTML / config', read.html_ratio, `within 10 % of ${read.api_gzip_ratio} (gzip)`, yes(read.html_ratio != null && read.api_gzip_ratio != null && read.html_ratio >= read.api_gzip_ratio * 0.9)]);
    rows.push(['  … against the plain API figure', read.html_ratio, `within 10 % of ${read.ratio}`, yes(read.html_ratio != null && read.ratio != null && read.html_ratio >= read.ratio * 0.9)]);
    rows.push(['GET /shop/{id} HTML vs API req/s (gzip)', `${read.html_product.rps} vs ${read.api_product.rps}`, '', '']);
    rows.push(['read ratio /shop/{id} HTML / API', read.html_product_ratio, '≥ 0.9', yes(read.html_product_ratio != null && read.html_product_ratio >= 0.9)]);
  }
  if (realtime) {
    rows.push(['SSE clients connected', realtime.connected, '', '']);
    rows.push(['SSE connect all (s), p50/p99 ms each', `${realtime.connect_all_s}, ${realtime.connect_p50_ms}/${realtime.connect_p99_ms}`, '', '']);
    rows.push(['SSE delivery p50/p95/p99/max ms', `${realtime.p50_ms}/${realtime.p95_ms}/${realtime.p99_ms}/${realtime.max_ms}`, targets.realtime_p99.target, yes(targets.realtime_p99.met)]);
    rows.push(['SSE delivered, clients missing events', `${realtime.deliveries}/${realtime.expected_deliveries}, ${realtime.clients_missing_events}`, 'all', yes(realtime.deliveries === realtime.expected_deliveries)]);
    rows.push(['SSE KB per connection, RSS / heap', `${realtime.kb_per_connection} / ${realtime.heap_kb_per_connection ?? '—'}`, '', '']);
    rows.push(['SSE load average before/after', `${realtime.load_before}/${realtime.load_after}`, '', '']);
  }
  if (dashboard) {
    for (const c of dashboard.cases) {
      rows.push([`dashboard ${c.range} ×${c.concurrency} p50/p95 ms`, `${c.p50_ms}/${c.p95_ms}`, `p95 < ${DASHBOARD_P95_MS} ms`, yes(c.met)]);
    }
  }
  rows.push(['invariants', summary.invariants_ok ? 'hold' : 'BROKEN', 'all hold', yes(summary.invariants_ok)]);
  rows.push(['machine: select 1 per s (one connection), JS loop ms', `${probe.select1_per_s}, ${probe.js_loop_ms}`, '', '']);
  console.log(`\n${table(rows)}\n`);
  for (const inv of [smallInv, largeInv, pglite?.invariants]) if (inv && !inv.ok) console.log(`invariant failures: ${inv.failures.join(', ')}`);
  for (const n of notes) console.log(`note: ${n}`);
  for (const e of errors) console.log(`ERROR: ${e}`);
  if (dashboard) console.log(`${dashboardTable(dashboard)}\n`);
  console.log(`load average before ${before.loadavg.join(' ')}, after ${after.loadavg.join(' ')} (${before.cpus} cores)`);

  const outDir = path.join(ROOT, 'bench/results');
  mkdirSync(outDir, { recursive: true });
  const partial = o.quick || o.only;
  const file = path.join(outDir, partial ? 'latest.partial.json' : 'latest.json');
  const { script: _s1, ...smallOut } = small ?? { script: '' };
  const { script: _s2, ...largeOut } = large ?? { script: '' };
  (results.detail as Record<string, unknown>).small = small ? smallOut : null;
  (results.detail as Record<string, unknown>).large = large ? largeOut : null;
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  if (small) writeFileSync(path.join(outDir, partial ? 'open-sql.partial.pgbench' : 'open-sql.pgbench'), `-- The SQL of one POST /api/shop/open as captured from the server (most frequent shape), as replayed by pgbench.\n-- Constants are passed with -D; see bench/lib/pgbench.ts.\n${small.script}`);
  log(`wrote ${path.relative(ROOT, file)}`);
}

async function serverVersion() {
  const sql = connect(ADMIN_URL, 1);
  try {
    const [r] = await sql<Array<{ v: string }>>`select current_setting('server_version') as v`;
    return r?.v ?? null;
  } finally {
    await sql.end();
  }
}

main().then(
  () => process.exit(errors.length ? 1 : 0),
  (err: unknown) => {
    console.error(`bench failed: ${(err as Error).stack ?? String(err)}`);
    process.exit(1);
  },
);
