/**
 * `npm run test:crash`: the built server (dist/server/main.mjs) under concurrent buy-and-open and
 * buyback requests is killed with SIGKILL at a random moment, restarted on the same data, and the
 * data must hold:
 *   - every acknowledged (2xx) request is there, and replaying its Idempotency-Key returns the
 *     same answer;
 *   - nothing is half-written (purchase → packs → openings → cards, sale → lines → card status →
 *     ledger credit → stock);
 *   - every balance equals the sum of its ledger;
 *   - stock plus owned (unsold) copies equals the initial stock of every card.
 * PGlite always (ROUNDS_PGLITE kill/restart rounds, default 1); PostgreSQL when TEST_DATABASE_URL
 * is set (a fresh database made from it and dropped after, ROUNDS_PG rounds, default 3).
 * Any broken invariant is printed and the process exits non-zero; child servers are killed.
 *
 *   node --import tsx scripts/crash-test.ts [--only pglite|postgres]
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomInt, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { createPglite } from '../src/server/db/pglite.ts';
import { makeSignature } from 'better-auth/crypto';
import postgres from 'postgres';
import { NONCE_BASE } from '../bench/lib/pgbench.ts';
import { PRODUCT_ID, seedCatalog, seedUsers, type Exec } from '../bench/lib/seed.ts';
import { postgresTarget } from '../src/server/db/client.ts';
import { migratePgliteClient, migratePostgresUrl } from '../src/server/db/migrate.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const SECRET = 'packvault-crash-test-secret-0123456789-abcdefgh';
/** NODE_ENV=development: plain (not __Secure-) cookie names. */
const SESSION_COOKIE = 'better-auth.session_token';
const USERS = 8;
const WORKERS_PER_USER = 2;
const ROUNDS_PG = Number(process.env.ROUNDS_PG ?? 3);
const ROUNDS_PGLITE = Number(process.env.ROUNDS_PGLITE ?? 1);
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const started = Date.now();
function log(msg: string) {
  process.stdout.write(`[crash ${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s] ${msg}\n`);
}

class InvariantError extends Error {}

// ── processes ────────────────────────────────────────────────────────────────────────────────

const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    for (const c of children) c.kill('SIGKILL');
    process.exit(130);
  });
}

/** SIGKILLs every server still running and waits for it to exit (before a failed run cleans up). */
async function killAll() {
  await Promise.all(
    [...children].map((c) => {
      const gone = new Promise<void>((r) => c.once('exit', () => r()));
      c.kill('SIGKILL');
      return gone;
    }),
  );
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

interface Server {
  origin: string;
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

async function startServer(target: Target): Promise<Server> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: origin,
    APP_SECRET: SECRET,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
    DATA_DIR: target.dataDir,
    ...(target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : {}),
  };
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/server/main.mjs')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let out = '';
  const keep = (d: Buffer) => {
    out += d.toString();
    if (out.length > 100_000) out = out.slice(-50_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let done = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      done = true;
      children.delete(child);
      resolve({ code, signal });
    }),
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (done) throw new InvariantError(`the server exited during start-up:\n${out.slice(-3000)}`);
    try {
      if ((await fetch(`${origin}/api/health`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new InvariantError(`the server did not answer /api/health within 60 s:\n${out.slice(-3000)}`);
    }
    await sleep(100);
  }
  return { origin, child, exited, output: () => out };
}

async function stopServer(s: Server) {
  s.child.kill('SIGTERM');
  const { code } = await s.exited;
  if (code !== 0) throw new InvariantError(`the server exited with ${code} on SIGTERM:\n${s.output().slice(-3000)}`);
}

// ── databases ────────────────────────────────────────────────────────────────────────────────

interface Target {
  name: 'pglite' | 'postgres';
  dataDir: string;
  databaseUrl?: string;
  /** Runs SQL directly on the data (the server must be stopped for PGlite). */
  withDb<T>(fn: (exec: Exec) => Promise<T>): Promise<T>;
  cleanup(): Promise<void>;
}

function pgliteTarget(): Target {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pv-crash-'));
  return {
    name: 'pglite',
    dataDir,
    async withDb(fn) {
      const client = await createPglite(path.join(dataDir, 'pglite'));
      try {
        return await fn(async (s) => (await client.query<Record<string, unknown>>(s)).rows);
      } finally {
        await client.close();
      }
    },
    async cleanup() {
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function connect(url: string) {
  const t = postgresTarget(url);
  return postgres(t.url, { ...(t.path ? { path: t.path } : {}), max: 1, onnotice: () => {}, connect_timeout: 10 });
}

async function postgresDbTarget(adminUrl: string): Promise<Target> {
  const dbName = `pv_crash_${Date.now().toString(36)}_${process.pid}`;
  const admin = connect(adminUrl);
  await admin.unsafe(`create database "${dbName}"`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  const databaseUrl = u.toString();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pv-crash-'));
  return {
    name: 'postgres',
    dataDir,
    databaseUrl,
    async withDb(fn) {
      const sql = connect(databaseUrl);
      try {
        return await fn((s) => sql.unsafe(s) as unknown as Promise<Array<Record<string, unknown>>>);
      } finally {
        await sql.end();
      }
    },
    async cleanup() {
      rmSync(dataDir, { recursive: true, force: true });
      const a = connect(adminUrl);
      await a.unsafe(`drop database if exists "${dbName}" with (force)`).catch(() => {});
      await a.end();
    },
  };
}

async function seed(target: Target) {
  if (target.databaseUrl) await migratePostgresUrl(target.databaseUrl);
  else {
    const client = await createPglite(path.join(target.dataDir, 'pglite'));
    await migratePgliteClient(client);
    await client.close();
  }
  log(`${target.name}: migrated`);
  await target.withDb(async (exec) => {
    // 100 cards (every class has some), 100 copies each: enough for every round, and the rarest card runs low.
    await seedCatalog(exec, { cards: 100, stockPerCard: 100 });
    await seedUsers(exec, USERS);
  });
}

// ── load ─────────────────────────────────────────────────────────────────────────────────────

interface Acked {
  kind: 'open' | 'buyback';
  user: number;
  key: string;
  path: string;
  body: unknown;
  status: number;
  response: any;
}

const cookies = new Map<number, string>();
async function cookieOf(user: number) {
  let c = cookies.get(user);
  if (!c) {
    const token = `bt${user}`; // bench seedUsers: session token of user n
    c = `${SESSION_COOKIE}=${encodeURIComponent(`${token}.${await makeSignature(token, SECRET)}`)}`;
    cookies.set(user, c);
  }
  return c;
}

async function post(origin: string, user: number, p: string, body: unknown, key: string) {
  const res = await fetch(`${origin}${p}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, cookie: await cookieOf(user), 'Idempotency-Key': key },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json, replayed: res.headers.get('idempotent-replayed') === 'true' };
}

interface RoundResult {
  acked: Acked[];
  sent: number;
  statuses: Map<number, number>;
  refusals: Map<string, number>;
  serverErrors: string[];
  killedAfterMs: number;
}

/**
 * Workers send buy-and-open and buyback requests (some twice at once with one key) until the
 * server is killed: after a random number of acknowledged requests and a random delay.
 */
async function loadAndKill(server: Server, vault: Map<number, string[]>): Promise<RoundResult> {
  const acked: Acked[] = [];
  const statuses = new Map<number, number>();
  const serverErrors: string[] = [];
  const refusals = new Map<string, number>();
  let sent = 0;
  let stopped = false;
  const killAt = randomInt(5, 60);
  const t0 = Date.now();

  const send = async (kind: Acked['kind'], user: number, p: string, body: unknown, key: string) => {
    sent++;
    try {
      const r = await post(server.origin, user, p, body, key);
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      if (r.status >= 200 && r.status < 300) {
        acked.push({ kind, user, key, path: p, body, status: r.status, response: r.json });
        if (kind === 'open' && !r.replayed) {
          const owned = vault.get(user)!;
          for (const o of (r.json as { openings: Array<{ cards: Array<{ ownedCardId: string }> }> }).openings) {
            for (const c of o.cards) owned.push(c.ownedCardId);
          }
        }
      } else if (r.status >= 500 && r.status !== 503) {
        serverErrors.push(`${r.status} ${p} ${JSON.stringify(r.json)}`);
      } else {
        const code = `${r.status} ${(r.json as { error?: { code?: string } } | null)?.error?.code ?? ''}`;
        refusals.set(code, (refusals.get(code) ?? 0) + 1);
      }
    } catch {
      // Connection refused or reset: the server died with this request in flight (not acknowledged).
    }
  };

  const worker = async (user: number) => {
    while (!stopped) {
      const owned = vault.get(user)!;
      const key = randomUUID();
      let job: () => Promise<void>;
      if (owned.length >= 3 && Math.random() < 0.4) {
        // Sell back 1–4 known cards (taken out of the known vault at once, so workers never pick the same ones).
        const n = Math.min(owned.length, 1 + randomInt(4));
        const ids = owned.splice(randomInt(owned.length - n + 1), n);
        job = () => send('buyback', user, '/api/buyback', { ownedCardIds: ids }, key);
      } else {
        const body = { productId: PRODUCT_ID, quantity: 1 + randomInt(3) };
        job = () => send('open', user, '/api/shop/open', body, key);
      }
      // One request in ten is sent twice at once with the same key (a retry racing the first).
      await (Math.random() < 0.1 ? Promise.all([job(), job()]) : job());
    }
  };

  const workers = Array.from({ length: USERS * WORKERS_PER_USER }, (_, i) => worker(1 + (i % USERS)));
  const deadline = Date.now() + 60_000;
  while (acked.length < killAt) {
    if (Date.now() > deadline) {
      stopped = true;
      server.child.kill('SIGKILL');
      await Promise.all(workers);
      throw new InvariantError(
        `only ${acked.length} of ${sent} requests were acknowledged in 60 s (refusals ${JSON.stringify(Object.fromEntries(refusals))}):\n${server.output().slice(-3000)}`,
      );
    }
    await sleep(5);
  }
  await sleep(randomInt(0, 400));
  const killedAfterMs = Date.now() - t0;
  server.child.kill('SIGKILL');
  await server.exited;
  stopped = true;
  await Promise.all(workers);
  const logged = server.output().split('\n').filter((l) => l.includes('"level":"error"'));
  return { acked, sent, statuses, refusals, serverErrors: serverErrors.length ? [...serverErrors, ...logged] : [], killedAfterMs };
}

// ── checks ───────────────────────────────────────────────────────────────────────────────────

/** Each acknowledged request replayed with its key must answer the same. */
async function checkReplays(server: Server, acked: Acked[]): Promise<string[]> {
  const failures: string[] = [];
  const queue = [...acked];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let a = queue.shift(); a; a = queue.shift()) {
        const r = await post(server.origin, a.user, a.path, a.body, a.key);
        if (r.status !== a.status || !isDeepStrictEqual(r.json, a.response)) {
          failures.push(
            `replay of ${a.kind} ${a.key} (user ${a.user}) answered ${r.status} ${JSON.stringify(r.json).slice(0, 300)}; first answer ${a.status} ${JSON.stringify(a.response).slice(0, 300)}`,
          );
        }
      }
    }),
  );
  return failures;
}

const q = (s: string) => `'${s.replace(/'/g, "''")}'`;
const list = (ids: string[]) => (ids.length ? ids.map(q).join(', ') : 'null');

/** Structural invariants and the presence of everything acknowledged, read straight from the database. */
async function checkDatabase(exec: Exec, acked: Acked[]): Promise<{ failures: string[]; counts: Record<string, number> }> {
  const failures: string[] = [];
  const check = async (name: string, query: string) => {
    const rows = await exec(query);
    if (rows.length) failures.push(`${name}: ${rows.length} row(s), e.g. ${JSON.stringify(rows.slice(0, 3))}`);
  };

  // Money.
  await check('balance ≠ sum of its ledger', `
    select coalesce(b.user_id, l.user_id) as user_id, b.cents, l.s from balances b
    full join (select user_id, sum(amount_cents) as s from ledger_entries group by user_id) l on l.user_id = b.user_id
    where coalesce(b.cents, 0) <> coalesce(l.s, 0)`);
  await check('balance ≠ balance_after of its last entry', `
    select b.user_id, b.cents, last.balance_after from balances b
    join lateral (select balance_after from ledger_entries e where e.user_id = b.user_id order by seq desc limit 1) last on true
    where last.balance_after <> b.cents`);
  await check('negative balance', `select user_id, cents from balances where cents < 0`);

  // Purchases, packs, openings, cards.
  await check('purchase whose ledger entry is not its debit', `
    select p.id, p.total_cents, e.amount_cents, e.kind from purchases p join ledger_entries e on e.id = p.ledger_entry_id
    where e.amount_cents <> -p.total_cents or e.kind <> 'pack_purchase' or e.user_id <> p.user_id`);
  await check('pack_purchase ledger entry without its purchase', `
    select e.id from ledger_entries e left join purchases p on p.ledger_entry_id = e.id where e.kind = 'pack_purchase' and p.id is null`);
  await check('purchase whose packs ≠ its quantity', `
    select p.id, p.quantity, u.k from purchases p left join (select purchase_id, count(*) as k from user_packs group by purchase_id) u on u.purchase_id = p.id
    where coalesce(u.k, 0) <> p.quantity`);
  await check('purchase whose openings ≠ its quantity (buy-and-open)', `
    select p.id, p.quantity, o.k from purchases p left join (select purchase_id, count(*) as k from openings group by purchase_id) o on o.purchase_id = p.id
    where coalesce(o.k, 0) <> p.quantity`);
  await check('pack without its opening', `
    select up.id from user_packs up left join openings op on op.user_pack_id = up.id
    where op.id is null or up.opening_id is distinct from op.id or up.opened_at is null`);
  await check('opening whose cards ≠ its slots', `
    select op.id, jsonb_array_length(op.slots) as slots, o.k from openings op
    left join (select opening_id, count(*) as k from owned_cards where opening_id is not null group by opening_id) o on o.opening_id = op.id
    where coalesce(o.k, 0) <> jsonb_array_length(op.slots)`);
  await check('opening whose total ≠ its cards', `
    select op.id, op.total_value_cents, o.v from openings op
    join (select opening_id, sum(value_cents) as v from owned_cards where opening_id is not null group by opening_id) o on o.opening_id = op.id
    where o.v <> op.total_value_cents`);
  await check('seed nonce counter ≠ its openings', `
    select s.id, s.next_nonce, o.k from user_seeds s left join (select seed_id, count(*) as k from openings group by seed_id) o on o.seed_id = s.id
    where s.next_nonce - ${NONCE_BASE} <> coalesce(o.k, 0)`);

  // Sales.
  await check('sale whose lines ≠ its card count or total', `
    select b.id, b.card_count, b.total_cents, l.k, l.s from buybacks b
    left join (select buyback_id, count(*) as k, sum(amount_cents) as s from buyback_lines group by buyback_id) l on l.buyback_id = b.id
    where coalesce(l.k, 0) <> b.card_count or coalesce(l.s, 0) <> b.total_cents`);
  await check('sale without its ledger credit', `
    select b.id, b.total_cents, e.amount_cents, e.kind from buybacks b left join ledger_entries e on e.id = b.ledger_entry_id
    where b.total_cents > 0 and (e.id is null or e.amount_cents <> b.total_cents or e.kind <> 'buyback' or e.reference_id <> b.id::text or e.user_id <> b.user_id)`);
  await check('buyback ledger entry without its sale', `
    select e.id from ledger_entries e left join buybacks b on b.ledger_entry_id = e.id where e.kind = 'buyback' and b.id is null`);
  await check('sold card not marked sold_back', `
    select l.owned_card_id, c.status from buyback_lines l join owned_cards c on c.id = l.owned_card_id where c.status <> 'sold_back'`);
  await check('card marked sold_back without a sale', `
    select c.id from owned_cards c left join buyback_lines l on l.owned_card_id = c.id where c.status = 'sold_back' and l.id is null`);
  await check('stock returned by sales ≠ cards sold', `
    select coalesce(l.card_id, a.card_id) as card_id, l.k, a.d from (select card_id, count(*) as k from buyback_lines group by card_id) l
    full join (select card_id, sum(delta) as d from stock_movements where reason = 'buyback_return' group by card_id) a on a.card_id = l.card_id
    where coalesce(l.k, 0) <> coalesce(a.d, 0)`);

  // Stock.
  await check('stock + owned copies ≠ initial stock', `
    select i.card_id, i.stock as initial, c.stock, coalesce(o.k, 0) as owned from bench_initial_stock i join cards c on c.id = i.card_id
    left join (select card_id, count(*) as k from owned_cards where status not in ('sold_back', 'revoked') group by card_id) o on o.card_id = i.card_id
    where c.stock + coalesce(o.k, 0) <> i.stock`);
  await check('negative stock', `select id, stock from cards where stock < 0`);

  // Idempotency: never a half state, and every acknowledged request remembered as answered.
  await check('idempotency key without its answer', `select user_id, key from idempotency_keys where response_status is null`);

  const opens = acked.filter((a) => a.kind === 'open');
  const sales = acked.filter((a) => a.kind === 'buyback');
  const keys = [...new Set(acked.map((a) => `${a.user}\u0000${a.key}`))].map((k) => k.split('\u0000') as [string, string]);
  if (keys.length) {
    await check('acknowledged request whose key is not stored with a 2xx', `
      select a.user_id, a.key, k.response_status from (values ${keys.map(([u, k]) => `(${q(`bench${u}`)}, ${q(k)})`).join(', ')}) a(user_id, key)
      left join idempotency_keys k on k.user_id = a.user_id and k.key = a.key
      where k.response_status is null or k.response_status not between 200 and 299`);
  }
  const purchaseIds = [...new Set(opens.map((a) => a.response.purchase.id as string))];
  const openingIds = [...new Set(opens.flatMap((a) => a.response.openings.map((o: { id: string }) => o.id)))];
  const ownedIds = [...new Set(opens.flatMap((a) => a.response.openings.flatMap((o: { cards: Array<{ ownedCardId: string }> }) => o.cards.map((c) => c.ownedCardId))))];
  const buybackIds = [...new Set(sales.map((a) => a.response.buyback.id as string))];
  const soldIds = [...new Set(sales.flatMap((a) => a.response.lines.map((l: { ownedCardId: string }) => l.ownedCardId)))];
  const missing = async (what: string, table: string, ids: string[], extra = '') => {
    if (!ids.length) return;
    await check(`acknowledged ${what} missing`, `
      select x.id from (select unnest(array[${list(ids)}]::uuid[]) as id) x
      where not exists (select 1 from ${table} t where t.id = x.id ${extra})`);
  };
  await missing('purchase', 'purchases', purchaseIds);
  await missing('opening', 'openings', openingIds);
  await missing('pulled card', 'owned_cards', ownedIds);
  await missing('sale', 'buybacks', buybackIds);
  await missing('sold card (as sold_back)', 'owned_cards', soldIds, `and t.status = 'sold_back'`);

  const count = async (s: string) => Number(Object.values((await exec(s))[0] ?? {})[0] ?? 0);
  const counts = {
    purchases: await count('select count(*) from purchases'),
    openings: await count('select count(*) from openings'),
    sales: await count('select count(*) from buybacks'),
    soldCards: await count('select count(*) from buyback_lines'),
  };
  return { failures, counts };
}

// ── main ─────────────────────────────────────────────────────────────────────────────────────

async function runTarget(target: Target, rounds: number) {
  log(`${target.name}: seeding ${USERS} users and a catalog`);
  await seed(target);
  log(`${target.name}: seeded; starting the server`);
  const vault = new Map(Array.from({ length: USERS }, (_, i) => [i + 1, [] as string[]]));
  const allAcked: Acked[] = [];
  let server = await startServer(target);
  for (let round = 1; round <= rounds; round++) {
    const r = await loadAndKill(server, vault);
    allAcked.push(...r.acked);
    log(
      `${target.name} round ${round}/${rounds}: SIGKILL after ${r.killedAfterMs} ms; ${r.sent} requests sent, ${r.acked.length} acknowledged ` +
        `(${r.acked.filter((a) => a.kind === 'open').length} opens, ${r.acked.filter((a) => a.kind === 'buyback').length} sales); statuses ${JSON.stringify(Object.fromEntries(r.statuses))}, refusals ${JSON.stringify(Object.fromEntries(r.refusals))}`,
    );
    if (r.serverErrors.length) throw new InvariantError(`${target.name}: the server answered 5xx during the load:\n  ${r.serverErrors.slice(0, 10).join('\n  ')}`);

    server = await startServer(target);
    const replays = await checkReplays(server, allAcked);
    await stopServer(server);
    const { failures, counts } = await target.withDb((exec) => checkDatabase(exec, allAcked));
    failures.unshift(...replays);
    if (failures.length) throw new InvariantError(`${target.name} round ${round}: ${failures.length} invariant(s) broken:\n  ${failures.join('\n  ')}`);
    log(`${target.name} round ${round}/${rounds}: all invariants hold (${allAcked.length} replays; ${JSON.stringify(counts)})`);
    if (round < rounds) server = await startServer(target);
  }
}

async function ensureBuilt() {
  const { buildIsStale } = (await import(path.join(ROOT, 'scripts/build-state.mjs'))) as { buildIsStale: (root?: string) => string | null };
  const why = buildIsStale(ROOT);
  if (!why) return;
  log(`build is ${why}; running npm run build`);
  const res = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  if (res.status !== 0) throw new InvariantError('npm run build failed');
}

async function main() {
  await ensureBuilt();
  const plan: Array<() => Promise<void>> = [];
  if (only !== 'postgres') {
    plan.push(async () => {
      const t = pgliteTarget();
      try {
        await runTarget(t, ROUNDS_PGLITE);
      } finally {
        await killAll();
        await t.cleanup();
      }
    });
  }
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (only !== 'pglite') {
    if (pgUrl) {
      plan.push(async () => {
        const t = await postgresDbTarget(pgUrl);
        try {
          await runTarget(t, ROUNDS_PG);
        } finally {
          await killAll();
          await t.cleanup();
        }
      });
    } else log('TEST_DATABASE_URL is not set: PostgreSQL part skipped');
  }
  for (const step of plan) await step();
  log('crash test passed');
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    for (const c of children) c.kill('SIGKILL');
    process.stderr.write(`\ncrash test FAILED: ${err instanceof InvariantError ? err.message : ((err as Error).stack ?? String(err))}\n`);
    process.exit(1);
  },
);
