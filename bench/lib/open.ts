import { readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BIG_PULL_THRESHOLD } from '../../src/shared/contracts/notifications.ts';
import type { BenchOptions } from './options.ts';
import { startAutoanalyze } from './autoanalyze.ts';
import { essentialScript } from './essential.ts';
import { buildScript, pgbench, type PgbenchResult, type Script, type Statement } from './pgbench.ts';
import { checkpoint, cloneDatabase, connect, databaseCpuMs, databaseName, dropDatabase } from './pg.ts';
import { ARCHITECT_ID, CLASS_IDS, PACK_ID, PRODUCT_ID, sessionCookie } from './seed.ts';
import { cpuMs, startServer, type ServerHandle } from './server.ts';
import { load, type LoadResult } from './load.ts';
import { log, round } from './util.ts';

export const OPEN_PATH = '/api/shop/open';
const CONSTANT_IDS = new Set([PRODUCT_ID, PACK_ID, ARCHITECT_ID, ...CLASS_IDS]);
const BODY = JSON.stringify({ productId: PRODUCT_ID, quantity: 1 });

let seq = 0;
const runTag = Date.now().toString(36);
export const newKey = () => `bench-${runTag}-${(seq++).toString(36)}`;

/** Round-robin over the users: with N users and fewer connections, no two in-flight requests share a user. */
export function userRotation(users: number, from = 1) {
  let next = 0;
  const cookies: string[] = [];
  return {
    async prepare() {
      for (let i = 0; i < users; i++) cookies.push(await sessionCookie(from + i));
    },
    headers(origin: string) {
      const cookie = cookies[next++ % cookies.length]!;
      return { cookie, 'idempotency-key': newKey(), origin };
    },
  };
}

export async function openOnce(server: ServerHandle, userNumber: number): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.origin}${OPEN_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.origin, cookie: await sessionCookie(userNumber), 'idempotency-key': newKey() },
    body: BODY,
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** Whether the buy-and-open endpoint exists yet on this build (the shop issue may still be in progress). */
export async function endpointExists(server: ServerHandle): Promise<boolean> {
  const r = await openOnce(server, 1);
  return !(r.status === 404 && /No API endpoint/.test(String(r.body?.error?.message ?? '')));
}

/**
 * Every user opens once, before any clock starts: the server then holds each user's seed pair and
 * next nonce, and each session's last-seen time is fresh, as in a shop that has been running and
 * as in the captured SQL that pgbench replays (captureOpenSql opens once per captured user first).
 * A 15-second loop over 2,000 users would otherwise spend 0.4 extra statements per opening on
 * first-request work that a running process does once a minute (last seen) or once (the seed).
 */
export async function warmEveryUser(server: ServerHandle, users: ReturnType<typeof userRotation>, count: number) {
  const r = await load({ url: `${server.origin}${OPEN_PATH}`, method: 'POST', body: BODY, connections: 8, duration: 60, amount: count, perRequest: () => ({ headers: users.headers(server.origin) }) });
  return r.ok;
}

/** One app closed loop of POST /api/shop/open against `server`, with the server's and PostgreSQL's CPU over it (ms). */
export async function appLoop(server: ServerHandle, users: ReturnType<typeof userRotation>, seconds: number, connections: number) {
  const db0 = await databaseCpuMs();
  const cpu0 = cpuMs(server.pid);
  const r = await load({ url: `${server.origin}${OPEN_PATH}`, method: 'POST', body: BODY, connections, duration: seconds, perRequest: () => ({ headers: users.headers(server.origin) }) });
  const cpu = cpuMs(server.pid) - cpu0;
  const db1 = await databaseCpuMs();
  return { r, cpu, dbCpu: db0 === null || db1 === null ? null : db1 - db0 };
}

export interface CaptureResult {
  scripts: Array<{ script: Script; weight: number }>;
  statements_per_open: number;
  shapes: number;
  opens: number;
}

/**
 * Starts the server with DB_STATEMENT_LOG, makes a few warm-up opens (first-use work such as the
 * pool snapshot insert happens once per pool, not per open), then `count` opens one at a time and
 * cuts the statement log per request.
 */
export async function captureOpenSql(opts: { databaseUrl: string; poolSize: number; users: number; cards: number; count: number }): Promise<CaptureResult> {
  const file = path.join(tmpdir(), `pv-bench-statements-${process.pid}-${Date.now()}.jsonl`);
  const server = await startServer({ databaseUrl: opts.databaseUrl, poolSize: opts.poolSize, statementLog: file });
  const sql = connect(opts.databaseUrl, 1);
  let opens = 0;
  try {
    const cardRows = await sql<Array<{ id: string; number: number }>>`select id::text as id, number from cards`;
    const cardNumbers = new Map(cardRows.map((r) => [r.id, r.number]));
    const size = () => {
      try {
        return statSync(file).size;
      } catch {
        return 0;
      }
    };
    // Users from the top of the range, so the load phases start on untouched users anyway.
    let user = opts.users;
    // The captured script is the opening's own request. A pull above the user's big-pull threshold
    // also sends a notification after the commit, in a small transaction of its own that the
    // response does not wait for (notifications/service.ts notifyBigPullLater); replayed with the
    // captured dedupe key it would insert nothing. The captured users' threshold is above every
    // card, so their window holds only the request's statements; the load phases keep the
    // default threshold and pay for those notifications in the app's numbers.
    await sql`
      insert into notification_preferences (user_id, kind, in_app, email, threshold_cents)
      select 'bench' || g, 'big_pull', true, false, ${BIG_PULL_THRESHOLD.maxCents}
      from generate_series(${Math.max(1, opts.users - opts.count - 3)}::int, ${opts.users}::int) g
      on conflict (user_id, kind) do update set threshold_cents = excluded.threshold_cents`;
    // Work that trails a response (post-commit notifies) must not spill into the next window.
    const settled = async () => {
      for (let last = -1, now = size(); now !== last; last = now, now = size()) await new Promise((r) => setTimeout(r, 150));
    };
    for (let w = 0; w < 3; w++) {
      const r = await openOnce(server, user--);
      if (r.status !== 201) throw new Error(`warm-up open answered ${r.status}: ${JSON.stringify(r.body)}`);
      opens++;
    }
    const groups = new Map<string, { script: Script; weight: number }>();
    let statements = 0;
    let skipped = 0;
    for (let i = 0; i < opts.count; i++) {
      const n = user--;
      // Each captured user has opened once before: the server then knows the user's seed pair and
      // next nonce, as for every later opening (shop/one-statement-open.ts). The load phases
      // warm every user the same way before their clock (warmEveryUser).
      const first = await openOnce(server, n);
      if (first.status !== 201) throw new Error(`warm-up open answered ${first.status}: ${JSON.stringify(first.body)}`);
      opens++;
      await settled();
      const before = size();
      const key = newKey();
      const res = await fetch(`${server.origin}${OPEN_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.origin, cookie: await sessionCookie(n), 'idempotency-key': key },
        body: BODY,
      });
      const body = (await res.json()) as { openings: Array<{ fairness: { nonce: number } }> };
      if (res.status !== 201) throw new Error(`captured open answered ${res.status}: ${JSON.stringify(body)}`);
      opens++;
      // Statements are appended synchronously, but post-commit notifies may trail the response a little.
      await settled();
      const lines = readFileSync(file).subarray(before).toString('utf8').split('\n').filter(Boolean);
      // Not the request's: the realtime batch (bus.ts), sent after the commit, one statement per
      // batch of many requests' events (ADR 0019).
      const stmts = lines.map((l) => JSON.parse(l) as Statement).filter((st) => !/^select pg_notify\(/i.test(st.query.trim()));
      // A background job (they run every few seconds) fell in the window: this capture is not one request's SQL.
      if (stmts.some((st) => /"job_runs"/.test(st.query))) {
        skipped++;
        continue;
      }
      statements += stmts.length;
      const [seed] = await sql<Array<{ id: string; hash: string; version: string; odds: string }>>`
        select id::text as id, server_seed_hash as hash, (select pool_version::text from catalog_state where id = 1) as version,
          (select odds_version::text from catalog_state where id = 1) as odds
        from user_seeds where user_id = ${`bench${n}`} and active`;
      const script = await buildScript(
        stmts,
        {
          userNumber: n,
          cardNumbers,
          seedId: seed!.id,
          serverSeedHash: seed!.hash,
          idempotencyKey: key,
          nonce: body.openings[0]!.fairness.nonce,
          // The pool and odds versions are the catalogue's, the same for every transaction of the run.
          constants: new Set([...CONSTANT_IDS, seed!.version, seed!.odds]),
        },
        { users: opts.users, cards: opts.cards },
        `s${groups.size}`,
        async (table, id) => (await sql.unsafe(`select 1 from "${table}" where id::text = $1`, [id])).length > 0,
      );
      const g = groups.get(script.shape);
      if (g) g.weight++;
      else groups.set(script.shape, { script, weight: 1 });
    }
    return { scripts: [...groups.values()], statements_per_open: round(statements / Math.max(1, opts.count - skipped), 1)!, shapes: groups.size, opens };
  } finally {
    await sql.end();
    await server.stop();
    rmSync(file, { force: true });
  }
}

export interface OpenBenchResult {
  capture: Omit<CaptureResult, 'scripts'>;
  db: { closed: PgbenchResult; rates: PgbenchResult[]; mode: string; clients: number };
  /** pgbench on the hand-written essential transaction (bench/sql/essential-open.sql), same clients. */
  essential: PgbenchResult;
  /** The same work as one statement (bench/sql/essential-open-one-statement.sql), same clients. */
  essential_one: PgbenchResult;
  /**
   * That one statement at the fixed rates too: the floor of the p99 target. Whatever the app
   * does, it cannot answer a rate faster than its essential database work alone does here.
   */
  essential_one_rates: PgbenchResult[];
  app: { closed: LoadResult; rates: LoadResult[]; cpu_ms_per_open: number | null; db_cpu_ms_per_open: number | null; connections: number };
  ratio: number | null;
  /** App closed-loop opens/s ÷ essential tps: how close the app comes to the essential work. */
  essential_ratio: number | null;
  /** The same against the one-statement essential transaction. */
  essential_one_ratio: number | null;
  /** 201 answers in total (captures included), for the invariants. */
  opened: number;
  /** The most frequent request shape as a pgbench script (written next to the results). */
  script: string;
}

/**
 * The limit (pgbench on the captured SQL) and the app on the endpoint, closed loop (autocannon) and
 * at fixed rates (open-loop.ts: Poisson arrivals, latency from the scheduled time, as pgbench -R).
 */
export async function openBench(
  o: BenchOptions,
  opts: { databaseUrl: string; cards: number; rates: number[]; label: string },
): Promise<OpenBenchResult> {
  log(`${opts.label}: capturing the SQL of buy-and-open`);
  const cap = await captureOpenSql({ databaseUrl: opts.databaseUrl, poolSize: o.poolSize, users: o.users, cards: opts.cards, count: o.quick ? 6 : 16 });
  log(`${opts.label}: ${cap.statements_per_open} statements per open, ${cap.shapes} shape(s)`);
  let opened = cap.opens;

  // The app sends named prepared statements (src/server/db/client.ts: parsed once per connection,
  // then bind + execute): pgbench replays them the same way (-M prepared), on as many connections
  // as the app's pool. It runs on a copy of the database, so the invariants afterwards judge the
  // app's writes only.
  const mode = 'prepared' as const;
  const copyName = `${databaseName(opts.databaseUrl)}_pgbench`;
  const copyUrl = await cloneDatabase(databaseName(opts.databaseUrl), copyName);
  const ratesDb: PgbenchResult[] = [];
  const ratesEssentialOne: PgbenchResult[] = [];
  let closedDb: PgbenchResult;
  let essential: PgbenchResult;
  let essentialOne: PgbenchResult;
  const copyAnalyzer = startAutoanalyze(copyUrl);
  try {
    log(`${opts.label}: pgbench closed loop (${o.poolSize} clients, ${o.seconds} s)`);
    closedDb = await pgbench({ url: copyUrl, scripts: cap.scripts, clients: o.poolSize, seconds: o.seconds, mode });
    log(`${opts.label}: pgbench essential transaction (${o.poolSize} clients, ${o.seconds} s)`);
    essential = await pgbench({ url: copyUrl, scripts: [{ script: essentialScript({ users: o.users, cards: opts.cards }), weight: 1 }], clients: o.poolSize, seconds: o.seconds, mode });
    log(`${opts.label}: pgbench essential transaction as one statement (${o.poolSize} clients, ${o.seconds} s)`);
    const oneStatement = [{ script: essentialScript({ users: o.users, cards: opts.cards }, 'oneStatement'), weight: 1 }];
    essentialOne = await pgbench({ url: copyUrl, scripts: oneStatement, clients: o.poolSize, seconds: o.seconds, mode });
    for (const rate of opts.rates) {
      log(`${opts.label}: pgbench at ${rate}/s`);
      ratesDb.push(await pgbench({ url: copyUrl, scripts: cap.scripts, clients: o.poolSize, seconds: o.seconds, rate, mode }));
      log(`${opts.label}: pgbench essential as one statement at ${rate}/s`);
      ratesEssentialOne.push(await pgbench({ url: copyUrl, scripts: oneStatement, clients: o.poolSize, seconds: o.seconds, rate, mode }));
    }
  } finally {
    await copyAnalyzer.stop();
    if (!o.keep) await dropDatabase(copyName);
  }
  // pgbench's writes to the copy are still dirty in shared buffers: out before the app's clock.
  await checkpoint();

  const analyzer = startAutoanalyze(opts.databaseUrl);
  const server = await startServer({ databaseUrl: opts.databaseUrl, poolSize: o.poolSize });
  try {
    const users = userRotation(o.users);
    await users.prepare();
    const perRequest = () => ({ headers: users.headers(server.origin) });
    const url = `${server.origin}${OPEN_PATH}`;
    opened += await warmEveryUser(server, users, o.users);
    log(`${opts.label}: app closed loop (${o.connections} connections, ${o.seconds} s)`);
    const { r: closed, cpu, dbCpu } = await appLoop(server, users, o.seconds, o.connections);
    opened += closed.ok;
    const rates: LoadResult[] = [];
    for (const rate of opts.rates) {
      log(`${opts.label}: app at ${rate}/s`);
      // Open loop (open-loop.ts): these connections are opened before the clock starts, more
      // when all are busy (up to 512).
      const r = await load({ url, method: 'POST', body: BODY, connections: Math.max(o.connections, Math.ceil(rate / 10)), duration: o.seconds, rate, perRequest });
      opened += r.ok;
      rates.push(r);
    }
    return {
      capture: { statements_per_open: cap.statements_per_open, shapes: cap.shapes, opens: cap.opens },
      db: { closed: closedDb, rates: ratesDb, mode, clients: o.poolSize },
      app: {
        closed,
        rates,
        cpu_ms_per_open: closed.ok ? round(cpu / closed.ok, 2) : null,
        db_cpu_ms_per_open: closed.ok && dbCpu !== null ? round(dbCpu / closed.ok, 2) : null,
        connections: o.connections,
      },
      ratio: closedDb.tps ? round(closed.rps / closedDb.tps, 3) : null,
      essential,
      essential_ratio: essential.tps ? round(closed.rps / essential.tps, 3) : null,
      essential_one: essentialOne,
      essential_one_rates: ratesEssentialOne,
      essential_one_ratio: essentialOne.tps ? round(closed.rps / essentialOne.tps, 3) : null,
      opened,
      script: [...cap.scripts].sort((a, b) => b.weight - a.weight)[0]!.script.text,
    };
  } finally {
    await server.stop();
    await analyzer.stop();
  }
}

export interface AlternatedGrowth {
  /** Each round in the order run: which database, its opens/s and its server's CPU per open. */
  rounds: Array<{ size: 'small' | 'large'; rps: number; ok: number; cpu_ms_per_open: number | null }>;
  small_rps: number;
  large_rps: number;
  ratio: number | null;
  /** 201 answers per database (warm-ups included), for the invariants. */
  opened: { small: number; large: number };
}

/**
 * Growth measured side by side: one server on each database, app closed loops in the order
 * small, large, large, small (each `seconds` long), the ratio of the large rounds' opens to the
 * small rounds'. The single runs of openBench are minutes apart, with a seed, a checkpoint and a
 * fixed-rate phase between them, and this machine's throughput drifts by ±10 % over minutes
 * (pgbench's own growth of the same SQL read 0.85–1.08 that way); the ABBA order cancels a drift
 * that is linear over the four rounds.
 */
export async function alternatedGrowth(o: BenchOptions, urls: { small: string; large: string }): Promise<AlternatedGrowth> {
  const servers = {
    small: await startServer({ databaseUrl: urls.small, poolSize: o.poolSize }),
    large: await startServer({ databaseUrl: urls.large, poolSize: o.poolSize }),
  };
  const analyzers = [startAutoanalyze(urls.small), startAutoanalyze(urls.large)];
  try {
    const users = userRotation(o.users);
    await users.prepare();
    const opened = { small: 0, large: 0 };
    const run = async (size: 'small' | 'large', seconds: number, connections: number) => {
      const loop = await appLoop(servers[size], users, seconds, connections);
      opened[size] += loop.r.ok;
      return loop;
    };
    // Warm both (JIT, prepared statements, the pool cache, every user's seed) before the clock counts.
    for (const size of ['small', 'large'] as const) opened[size] += await warmEveryUser(servers[size], users, o.users);
    const rounds: AlternatedGrowth['rounds'] = [];
    for (const size of ['small', 'large', 'large', 'small'] as const) {
      log(`growth side by side: ${size} (${o.connections} connections, ${o.seconds} s)`);
      const { r, cpu } = await run(size, o.seconds, o.connections);
      rounds.push({ size, rps: r.rps, ok: r.ok, cpu_ms_per_open: r.ok ? round(cpu / r.ok, 2) : null });
    }
    const mean = (size: 'small' | 'large') => {
      const of = rounds.filter((x) => x.size === size);
      return round(of.reduce((s, x) => s + x.rps, 0) / of.length, 1)!;
    };
    const small_rps = mean('small');
    const large_rps = mean('large');
    return { rounds, small_rps, large_rps, ratio: small_rps ? round(large_rps / small_rps, 3) : null, opened };
  } finally {
    await servers.small.stop();
    await servers.large.stop();
    for (const a of analyzers) await a.stop();
  }
}
