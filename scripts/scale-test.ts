/**
 * `npm run test:scale` (issue 20, "many processes, one truth"): three built app processes
 * (dist/server/main.mjs) on one fresh PostgreSQL database, behind nginx (Debian's package, run as a
 * local non-daemon process with a generated config; a tiny Node proxy if nginx is not installed).
 * It proves, printing PASS/FAIL for each:
 *   a. a pull made through A reaches SSE clients connected to C and to nginx;
 *   b. a catalog edit through A shows at once on B's (cached) public card list;
 *   c. a settings change and the maintenance switch through A reach B and C;
 *   d. rate limits are shared: the combined limit, spread over A, B and C through nginx, then 429 on each;
 *   e. a session made on A (sign-up, verified, sign-in) works on B;
 *   f. scheduled jobs run once: every claim of a job is logged by a trigger, and three processes
 *      ticking claim each run once.
 * Needs PostgreSQL: TEST_DATABASE_URL's server (CI sets it; a database of its own is made and
 * dropped). Without it: "skipped", exit 0 (local development on PGlite). Children are killed and
 * the database dropped on any exit.
 *
 *   node --import tsx scripts/scale-test.ts
 *     SCALE_PORT=<n>      listen on n…n+3 instead of free ports
 *     SCALE_PROXY=node    the Node proxy even where nginx is installed (to check the fallback)
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { makeSignature } from 'better-auth/crypto';
import { connect as connectPg } from '../bench/lib/pg.ts';
import { checkInvariants } from '../bench/lib/invariants.ts';
import { CLASS_IDS, PRODUCT_ID, seedCatalog, seedUsers } from '../bench/lib/seed.ts';
import { freePort } from '../bench/lib/server.ts';
import { sleep } from '../bench/lib/util.ts';
import { DEFAULT_PULL_THRESHOLDS } from '../src/shared/contracts/settings.ts';
import { migratePostgresUrl } from '../src/server/db/migrate.ts';
import { BOOKS_RECONCILE_EVERY_MS } from '../src/server/modules/books/service.ts';
import { DASHBOARD_ROLLUP_EVERY_MS } from '../src/server/modules/dashboard/rollup.ts';
import { DROPS_TICK_MS } from '../src/server/modules/drops/lifecycle.ts';
import { SHARES_EVERY_MS } from '../src/server/modules/referrals/shares.ts';
import { MARKET_EXPIRY_EVERY_MS } from '../src/server/modules/market/expiry-job.ts';
import { MAIL_OUTBOX_EVERY_MS } from '../src/server/modules/mail/service.ts';
import { VAULT_SNAPSHOT_EVERY_MS } from '../src/server/modules/vault-proof/service.ts';
import { INVITE_LOOKUPS } from '../src/server/modules/referrals/routes.ts';
import { sseReader } from '../src/server/test/sse.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const SECRET = 'packvault-scale-test-secret-0123456789-abcdefgh';
/** NODE_ENV=development: plain (not __Secure-) cookie names. */
const SESSION_COOKIE = 'better-auth.session_token';
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx', '/usr/local/sbin/nginx'].find((p) => existsSync(p));
/** How long a change may take to reach another process: the NOTIFY round trip, with room. */
const PROPAGATION_MS = 1000;
/** The jobs' intervals (main.ts; prune at its default PRUNE_INTERVAL_MINUTES). */
const JOB_EVERY_MS: Record<string, number> = {
  drops: DROPS_TICK_MS,
  'referral-shares': SHARES_EVERY_MS,
  'dashboard-rollup': DASHBOARD_ROLLUP_EVERY_MS,
  'books-reconcile': BOOKS_RECONCILE_EVERY_MS,
  prune: 60 * 60_000,
  'mail-outbox': MAIL_OUTBOX_EVERY_MS,
  'market-expiry': MARKET_EXPIRY_EVERY_MS,
  'vault-snapshot': VAULT_SNAPSHOT_EVERY_MS,
};

const started = Date.now();
const log = (msg: string) => process.stdout.write(`[scale ${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s] ${msg}\n`);

// ── processes ────────────────────────────────────────────────────────────────────────────────

/**
 * Each child with the signal that ends it: SIGKILL for the app processes; SIGTERM for nginx,
 * whose master then stops its workers (a SIGKILLed master leaves them running, port and all).
 */
const children = new Map<ChildProcess, NodeJS.Signals>();
const cleanups: Array<() => Promise<void> | void> = [];
const killChildren = () => {
  for (const [c, sig] of children) c.kill(sig);
};
process.on('exit', killChildren);
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    void cleanup().finally(() => process.exit(130));
  });
}

let cleaned = false;
async function cleanup() {
  if (cleaned) return;
  cleaned = true;
  await Promise.all(
    [...children].map(async ([c, sig]) => {
      const gone = new Promise<void>((r) => c.once('exit', () => r()));
      c.kill(sig);
      await Promise.race([gone, sleep(3000)]);
      if (children.has(c)) c.kill('SIGKILL');
    }),
  );
  for (const f of cleanups.reverse()) await Promise.resolve(f()).catch(() => {});
}

function track(child: ChildProcess, name: string, stopSignal: NodeJS.Signals = 'SIGKILL') {
  children.set(child, stopSignal);
  let out = '';
  const keep = (d: Buffer) => {
    out += d.toString();
    if (out.length > 200_000) out = out.slice(-100_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exit: number | null | undefined;
  child.on('exit', (code) => {
    exit = code;
    children.delete(child);
  });
  return { output: () => out, exited: () => exit !== undefined, name };
}

async function waitFor(url: string, what: string, alive: () => boolean, output: () => string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (!alive()) throw new Error(`${what} exited during start-up:\n${output().slice(-3000)}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`${what} did not answer ${url} within 60 s:\n${output().slice(-3000)}`);
    await sleep(100);
  }
}

interface App {
  name: string;
  origin: string;
  output(): string;
  alive(): boolean;
  kill(signal: NodeJS.Signals): void;
}

function startApp(name: string, port: number, databaseUrl: string, publicUrl: string, dataDir: string): App {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    // One site: every process answers for the address nginx serves.
    PUBLIC_URL: publicUrl,
    APP_SECRET: SECRET,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    DB_POOL_SIZE: '5',
  };
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/server/main.mjs')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const t = track(child, name);
  return { name, origin: `http://127.0.0.1:${port}`, output: t.output, alive: () => !t.exited(), kill: (sig) => child.kill(sig) };
}

/** nginx from Debian's package, as a local foreground process with everything in `dir`. */
function startNginx(dir: string, port: number, upstreams: string[]): { output(): string; alive(): boolean } {
  const conf = `
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream packvault { ${upstreams.map((u) => `server ${u};`).join(' ')} keepalive 16; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://packvault;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      # Server-Sent Events: pass every byte on at once, and keep idle streams open.
      proxy_buffering off;
      proxy_read_timeout 1h;
    }
  }
}
`;
  writeFileSync(path.join(dir, 'nginx.conf'), conf);
  const child = spawn(NGINX!, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log'), '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const t = track(child, 'nginx', 'SIGTERM');
  return { output: t.output, alive: () => !t.exited() };
}

/** Only when nginx is not installed: round-robin HTTP proxy, streaming both ways (SSE included). */
function startNodeProxy(port: number, upstreams: string[]): Promise<{ output(): string; alive(): boolean }> {
  let next = 0;
  const server = http.createServer((req, res) => {
    const [host, p] = upstreams[next++ % upstreams.length]!.split(':');
    const up = http.request({ host, port: Number(p), method: req.method, path: req.url, headers: { ...req.headers, 'x-forwarded-for': req.socket.remoteAddress ?? '' } }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(up);
  });
  cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve({ output: () => '', alive: () => server.listening })));
}

const connect = (url: string) => connectPg(url, 1);

// ── checks ───────────────────────────────────────────────────────────────────────────────────

const results: Array<{ point: string; ok: boolean; detail: string }> = [];
async function point(name: string, fn: () => Promise<string>) {
  try {
    const detail = await fn();
    results.push({ point: name, ok: true, detail });
    log(`PASS ${name}: ${detail}`);
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    results.push({ point: name, ok: false, detail });
    log(`FAIL ${name}: ${detail}`);
  }
}

function assert(cond: unknown, msg: string): asserts cond {
  if (!cond) throw new Error(msg);
}

/** Polls `check` until it holds or `ms` pass; returns how long it took. */
async function within(ms: number, what: string, check: () => Promise<boolean>): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    if (await check()) return Date.now() - t0;
    if (Date.now() - t0 > ms) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(20);
  }
}

async function main() {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    log('skipped: needs PostgreSQL (TEST_DATABASE_URL)');
    return true;
  }
  const { buildIsStale } = (await import(path.join(ROOT, 'scripts/build-state.mjs'))) as { buildIsStale: (root?: string) => string | null };
  const why = buildIsStale(ROOT);
  if (why) {
    log(`build is ${why}; running npm run build`);
    const res = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
    if (res.status !== 0) throw new Error('npm run build failed');
  }

  // A database of our own on TEST_DATABASE_URL's server.
  const dbName = `pv_scale_${Date.now().toString(36)}_${process.pid}`;
  try {
    const admin = connect(adminUrl);
    await admin.unsafe(`create database "${dbName}"`);
    await admin.end();
  } catch (err) {
    throw new Error(`no PostgreSQL reachable at TEST_DATABASE_URL: ${(err as Error).message}`, { cause: err });
  }
  cleanups.push(async () => {
    const a = connect(adminUrl);
    await a.unsafe(`drop database if exists "${dbName}" with (force)`).catch(() => {});
    await a.end();
  });
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  const databaseUrl = u.toString();
  await migratePostgresUrl(databaseUrl);
  const sql = connect(databaseUrl);
  cleanups.push(() => sql.end());
  await seedCatalog((s) => sql.unsafe(s) as never, { cards: 100, stockPerCard: 50 });
  await seedUsers((s) => sql.unsafe(s) as never, 2);
  // bench1 is the owner, with two-factor passed on its session (as the e2e owner's would be).
  await sql.unsafe(`update "user" set role = 'owner', two_factor_enabled = true where id = 'bench1'`);
  await sql.unsafe(`update session set mfa_verified_at = now() where id = 'bs1'`);
  // Every claim of a scheduled job, as the database saw it (job_runs keeps only the latest).
  await sql.unsafe(`create table scale_job_claims (name text not null, started_at timestamptz not null, claimed_at timestamptz not null default clock_timestamp())`);
  await sql.unsafe(`create function scale_log_claim() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' or new.started_at is distinct from old.started_at then
        insert into scale_job_claims (name, started_at) values (new.name, new.started_at);
      end if;
      return new;
    end $$`);
  await sql.unsafe(`create trigger scale_log_claim after insert or update on job_runs for each row execute function scale_log_claim()`);
  log(`database ${dbName}: migrated and seeded`);

  const base = process.env.SCALE_PORT ? Number(process.env.SCALE_PORT) : null;
  const ports = base ? [base, base + 1, base + 2, base + 3] : await Promise.all([0, 1, 2, 3].map(() => freePort()));
  const site = `http://127.0.0.1:${ports[0]}`;
  const dir = mkdtempSync(path.join(tmpdir(), 'pv-scale-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const app = (n: string, i: number) => startApp(n, ports[i]!, databaseUrl, site, mkdtempSync(path.join(dir, `data-${n}-`)));
  const [A, B, C] = [app('A', 1), app('B', 2), app('C', 3)];
  const apps: App[] = [A, B, C];
  await Promise.all(apps.map((a) => waitFor(`${a.origin}/api/health`, `process ${a.name}`, a.alive, a.output)));
  const appsUpAt = Date.now();
  const upstreams = apps.map((a) => a.origin.replace('http://', ''));
  const useNginx = NGINX !== undefined && process.env.SCALE_PROXY !== 'node';
  const proxy = useNginx ? startNginx(dir, ports[0]!, upstreams) : await startNodeProxy(ports[0]!, upstreams);
  await waitFor(`${site}/api/health`, useNginx ? 'nginx' : 'node proxy', proxy.alive, proxy.output);
  log(`A ${A.origin}, B ${B.origin}, C ${C.origin}, ${useNginx ? 'nginx' : 'node proxy'} ${site}`);

  const ownerToken = 'bt1';
  const owner = `${SESSION_COOKIE}=${encodeURIComponent(`${ownerToken}.${await makeSignature(ownerToken, SECRET)}`)}`;
  const player = `${SESSION_COOKIE}=${encodeURIComponent(`bt2.${await makeSignature('bt2', SECRET)}`)}`;
  const send = (app: App | string, p: string, init: { method?: string; cookie?: string; json?: unknown; headers?: Record<string, string> } = {}) =>
    fetch(`${typeof app === 'string' ? app : app.origin}${p}`, {
      method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
      headers: {
        origin: site,
        ...(init.cookie ? { cookie: init.cookie } : {}),
        ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
    });
  const ok = async (res: Response, what: string) => {
    const text = await res.text();
    assert(res.ok, `${what}: ${res.status} ${text.slice(0, 300)}`);
    return text ? (JSON.parse(text) as any) : null;
  };

  const via = useNginx ? 'nginx' : 'the Node proxy';
  /** Opens a pack on A and waits until every reader has streamed each of its pulls' events. */
  const pullOnAReaches = async (readers: Array<ReturnType<typeof sseReader>>, what: string) => {
    // Let the streams subscribe before the pull (each first sends a hello or a ping).
    await sleep(200);
    const opened = await ok(
      await send(A, '/api/shop/open', { cookie: player, json: { productId: PRODUCT_ID, quantity: 1 }, headers: { 'Idempotency-Key': randomUUID() } }),
      what,
    );
    const pulled = new Set<string>(opened.openings.flatMap((o: { cards: Array<{ ownedCardId: string }> }) => o.cards.map((c) => c.ownedCardId)));
    const seen = async (r: ReturnType<typeof sseReader>) => {
      for (;;) {
        const e = await r.next('pull.created', 5000);
        if (pulled.has((JSON.parse(e.data) as { ownedCardId: string }).ownedCardId)) return;
      }
    };
    const t0 = Date.now();
    await Promise.all(readers.map(seen));
    return { pulled: pulled.size, ms: Date.now() - t0 };
  };
  await point(`a. a pull through A reaches SSE clients on C and through ${via}`, async () => {
    // Every pull counts as a top pull, so the opening announces it whatever it draws.
    await ok(await send(A, '/api/admin/settings/pulls.thresholds', { method: 'PUT', cookie: owner, json: { value: { ...DEFAULT_PULL_THRESHOLDS, topPullMinCents: 1 } } }), 'threshold');
    const onC = sseReader(await send(C, '/api/events'));
    const viaNginx = sseReader(await send(site, '/api/events'));
    try {
      const { pulled, ms } = await pullOnAReaches([onC, viaNginx], 'open on A');
      return `${pulled} cards pulled on A; pull.created on C and through ${via} in ${ms} ms`;
    } finally {
      await Promise.all([onC.close(), viaNginx.close()]);
    }
  });

  await point('b. a catalog edit through A shows at once on B’s public card list', async () => {
    // A class rename: every card of the class shows its class name (the list's refs).
    const classNames = async () =>
      ((await ok(await send(B, '/api/cards?sort=name&pageSize=48'), 'list on B')).refs.classes as Array<{ id: string; name: string }>).map((c) => c.name);
    await classNames();
    const before = await classNames(); // served from B's cache from here on (its TTL is 10 s)
    const name = `Scale ${Date.now().toString(36)}`;
    assert(!before.includes(name), 'the new name is already listed');
    await ok(await send(A, `/api/admin/catalog/classes/${CLASS_IDS[0]}`, { method: 'PATCH', cookie: owner, json: { name } }), 'edit on A');
    const took = await within(PROPAGATION_MS, 'B still lists the old class name', async () => (await classNames()).includes(name));
    return `class renamed on A; B's cached list shows the new name after ${took} ms`;
  });

  await point('c. a settings change and the maintenance switch through A reach B and C', async () => {
    const siteName = `Scale ${Date.now().toString(36)}`;
    await ok(await send(A, '/api/admin/settings/site.identity', { method: 'PUT', cookie: owner, json: { value: { siteName, supportEmail: 'support@packvault.test' } } }), 'settings on A');
    const named = async (app: App | string) => (await ok(await send(app, '/api/config'), 'config')).siteName === siteName;
    const tookB = await within(PROPAGATION_MS, 'site name on B', () => named(B));
    const tookC = await within(PROPAGATION_MS, 'site name on C', () => named(C));
    for (let i = 0; i < 3; i++) assert(await named(site), `a process behind ${via} has the old site name`);

    const endsAt = new Date(Date.now() + 3_600_000).toISOString();
    await ok(await send(A, '/api/admin/maintenance', { method: 'PUT', cookie: owner, json: { enabled: true, message: 'Scale test.', endsAt } }), 'maintenance on A');
    const products = async (app: App | string) => (await send(app, '/api/shop/products')).status;
    const onB = await within(PROPAGATION_MS, 'maintenance on B', async () => (await products(B)) === 503);
    const onC = await within(PROPAGATION_MS, 'maintenance on C', async () => (await products(C)) === 503);
    await ok(await send(A, '/api/admin/maintenance', { method: 'PUT', cookie: owner, json: { enabled: false } }), 'maintenance off on A');
    const offB = await within(PROPAGATION_MS, 'maintenance off on B', async () => (await products(B)) === 200);
    const offC = await within(PROPAGATION_MS, 'maintenance off on C', async () => (await products(C)) === 200);
    return `site name on B ${tookB} ms, C ${tookC} ms; maintenance on B ${onB} ms, C ${onC} ms; off B ${offB} ms, C ${offC} ms`;
  });

  await point('d. rate limits are shared', async () => {
    // Referral invite look-ups: INVITE_LOOKUPS a minute per address. nginx spreads them over A, B
    // and C (round robin); each process alone would allow INVITE_LOOKUPS.
    const code = 'SCALEX';
    const statuses: number[] = [];
    for (let i = 0; i < INVITE_LOOKUPS; i++) statuses.push((await send(site, `/api/referrals/invite/${code}`)).status);
    assert(statuses.every((s) => s === 404), `under the limit: ${JSON.stringify([...new Set(statuses)])}`);
    const after = await Promise.all([A, B, C].map(async (app) => (await send(app, `/api/referrals/invite/${code}`)).status));
    assert(after.every((s) => s === 429), `after ${INVITE_LOOKUPS} look-ups spread over the processes, A/B/C answered ${after.join('/')}`);
    return `${INVITE_LOOKUPS} look-ups through ${via}, then 429 on A, B and C`;
  });

  await point('e. a session made on A works on B', async () => {
    const id = Date.now().toString(36);
    const email = `scale-${id}@packvault.test`;
    const password = `scale-pass-${id}-Secret!`;
    const username = `s_${id}`.slice(0, 20);
    await ok(await send(A, '/api/auth/sign-up/email', { json: { email, password, name: username, username, ageConfirmed: true, termsAccepted: true } }), 'sign-up on A');
    // The mailed link's effect (crash-test and bench users are verified in SQL the same way).
    await sql.unsafe(`update "user" set email_verified = true where email = '${email}'`);
    const signIn = await send(A, '/api/auth/sign-in/email', { json: { email, password } });
    await ok(signIn.clone(), 'sign-in on A');
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .filter((c) => c.startsWith(`${SESSION_COOKIE}=`))
      .join('; ');
    assert(cookie, 'sign-in on A set no session cookie');
    const me = await ok(await send(B, '/api/me', { cookie }), 'me on B');
    assert(JSON.stringify(me).includes(username), `B answered /api/me for someone else: ${JSON.stringify(me).slice(0, 200)}`);
    return `signed up and in on A; B knows ${username}`;
  });

  await point('f. scheduled jobs run once across the three processes', async () => {
    // Each process ticks the drops job every 5 s (first at 5 s) and the others from 10 s on; wait
    // until every process has ticked at least twice for drops and once for the rest.
    const wait = appsUpAt + 13_000 - Date.now();
    if (wait > 0) await sleep(wait);
    const claims = (await sql.unsafe(`select name, extract(epoch from started_at) * 1000 as at from scale_job_claims order by name, started_at`)) as unknown as Array<{ name: string; at: string }>;
    const byJob = new Map<string, number[]>();
    for (const c of claims) byJob.set(c.name, [...(byJob.get(c.name) ?? []), Number(c.at)]);
    for (const job of ['drops', 'books-reconcile', 'referral-shares']) assert(byJob.has(job), `${job} never ran: ${JSON.stringify([...byJob.keys()])}`);
    // Two claims of one job closer than its interval would be a run per process, not per interval.
    for (const [job, runs] of byJob) {
      const every = JOB_EVERY_MS[job];
      assert(every, `unknown job ${job}`);
      for (let i = 1; i < runs.length; i++) {
        assert(runs[i]! - runs[i - 1]! >= every - 10, `${job} ran twice within its ${every / 1000} s interval: ${runs.map((d) => new Date(d).toISOString()).join(', ')}`);
      }
    }
    return [...byJob].map(([n, runs]) => `${n} ×${runs.length}`).join(', ') + ' (three processes ticking; never two runs within an interval)';
  });

  await point('g. B killed mid-load and restarted: every open answered 2xx is kept once, none half-done, and B rejoins', async () => {
    // Two clients buy and open through the proxy without pause. Each retries a failed attempt
    // with the same Idempotency-Key, as the SPA does: a 502 or a cut connection when B dies under
    // it, a 409 while the first attempt is still running on another process.
    const [{ n: before }] = (await sql.unsafe(`select count(*)::int as n from openings`)) as unknown as [{ n: number }];
    const answered = new Map<string, string[]>();
    const failures = new Map<string, number>();
    let stop = false;
    const openUntilAnswered = async () => {
      const key = randomUUID();
      for (let attempt = 1; ; attempt++) {
        let status = 0;
        try {
          const res = await send(site, '/api/shop/open', { cookie: player, json: { productId: PRODUCT_ID, quantity: 1 }, headers: { 'Idempotency-Key': key } });
          status = res.status;
          if (res.ok) {
            const body = (await res.json()) as { openings: Array<{ id: string }> };
            answered.set(key, body.openings.map((o) => o.id));
            return;
          }
          await res.body?.cancel();
        } catch {
          /* the connection was cut */
        }
        failures.set(String(status || 'cut'), (failures.get(String(status || 'cut')) ?? 0) + 1);
        assert(status === 0 || status === 502 || status === 503 || status === 409, `an open answered ${status}, which a retry cannot mend`);
        assert(attempt < 100, `an open still failed after ${attempt} attempts`);
        await sleep(50);
      }
    };
    const client = async () => {
      while (!stop) await openUntilAnswered();
    };
    const clients = [client(), client()];
    await sleep(1500);
    B.kill('SIGKILL');
    const killedAt = answered.size;
    await within(5000, 'B still running after SIGKILL', async () => !B.alive());
    await sleep(1500);
    const B2 = app('B', 2);
    apps.push(B2);
    await waitFor(`${B2.origin}/api/ready`, 'process B (restarted)', B2.alive, B2.output);
    await sleep(1000);
    stop = true;
    await Promise.all(clients);

    // Every answered opening is in the database once; nothing else was opened; the books hold.
    const ids = [...answered.values()].flat();
    const [{ n: found }] = (await sql.unsafe(`select count(*)::int as n from openings where id = any($1::uuid[])`, [ids])) as unknown as [{ n: number }];
    const [{ n: after }] = (await sql.unsafe(`select count(*)::int as n from openings`)) as unknown as [{ n: number }];
    assert(found === ids.length, `${ids.length - found} of ${ids.length} answered openings are not in the database`);
    assert(after - before === ids.length, `${after - before} openings were made for ${ids.length} answered`);
    const inv = await checkInvariants((q) => sql.unsafe(q) as never);
    assert(inv.ok, `invariants broken: ${inv.failures.join('; ')}`);

    // The restarted B is on the bus again: it streams a pull made on A, and serves a fresh card list.
    const onB = sseReader(await send(B2, '/api/events'));
    try {
      await pullOnAReaches([onB], 'open on A after the restart');
    } finally {
      await onB.close();
    }
    const retried = [...failures].map(([k, v]) => `${k} ×${v}`).join(', ') || 'none';
    return `${ids.length} openings answered (${killedAt} before the kill), each in the database once; retried attempts: ${retried}; invariants hold; restarted B streams A's pull`;
  });

  for (const app of apps) {
    const errors = app
      .output()
      .split('\n')
      // Request lines of 5xx answers are logged at error level: maintenance's 503s are expected.
      .filter((l) => /"level":"error"/.test(l) && !(/"msg":"request"/.test(l) && /"status":503/.test(l)));
    if (errors.length) log(`process ${app.name} logged ${errors.length} error(s):\n  ${errors.slice(0, 5).join('\n  ')}`);
  }
  const failed = results.filter((r) => !r.ok);
  log(failed.length ? `scale test FAILED: ${failed.map((f) => f.point.split('.')[0]).join(', ')}` : `scale test passed (${results.length} points)`);
  return failed.length === 0;
}

main().then(
  async (passed) => {
    await cleanup();
    process.exit(passed ? 0 : 1);
  },
  async (err: unknown) => {
    process.stderr.write(`\nscale test FAILED: ${(err as Error).stack ?? String(err)}\n`);
    await cleanup();
    process.exit(1);
  },
);
