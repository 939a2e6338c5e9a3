import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { CLK_TCK, log, procStat, sleep } from './util.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');
/** Fixed so the bench can sign session cookies itself (Better Auth HMACs the token with it). */
export const BENCH_SECRET = 'packvault-bench-secret-0123456789-abcdefghijklmnop';
/** Production cookies are __Secure- prefixed (useSecureCookies), even over plain HTTP. */
export const SESSION_COOKIE = '__Secure-better-auth.session_token';

/**
 * `npm run build` when dist/ is missing or older than its sources (scripts/build-state.mjs).
 * `need`: 'server' (npm run bench only runs dist/server) falls back to bundling just the server
 * when the SPA build fails (in a shared tree someone's half-saved page must not stop the bench);
 * 'web' falls back to the previous dist/web if there is one. Returns a note when it fell back.
 */
export async function ensureBuilt(need: 'server' | 'web'): Promise<string | null> {
  const { buildIsStale } = (await import(path.join(ROOT, 'scripts/build-state.mjs'))) as { buildIsStale: (root?: string) => string | null };
  const why = buildIsStale(ROOT);
  if (!why) return null;
  log(`build is ${why}; running npm run build`);
  const res = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (res.status === 0) return null;
  const first = (res.stderr ?? '').split('\n').find((l) => /error|failed/i.test(l)) ?? 'see npm run build';
  if (need === 'server') {
    const srv = spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: ROOT, stdio: 'inherit' });
    if (srv.status !== 0) throw new Error('the server bundle does not build (node scripts/build-server.mjs)');
    const note = `npm run build failed (${first.trim().slice(0, 200)}); the server was bundled alone, the SPA is from an earlier build`;
    log(note);
    return note;
  }
  if (existsSync(path.join(ROOT, 'dist/web/index.html'))) {
    const note = `npm run build failed (${first.trim().slice(0, 200)}); measured the previous dist/web`;
    log(note);
    return note;
  }
  throw new Error(`npm run build failed: ${first}`);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

export interface ServerHandle {
  pid: number;
  port: number;
  origin: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

export interface ServerOptions {
  databaseUrl?: string;
  dataDir?: string;
  poolSize?: number;
  statementLog?: string;
  logLevel?: string;
  extraEnv?: Record<string, string>;
  /** 'development' lets SEED_DEMO fill an empty database (the web bench needs real pages). */
  nodeEnv?: 'production' | 'development';
  /** Extra arguments for node before the script (e.g. a --require preload). */
  nodeArgs?: string[];
  /** Another build's server entry (`--ab`); this tree's dist/server/main.mjs by default. */
  entry?: string;
}

/** Starts dist/server/main.mjs as a child process in production mode and waits for /api/health. */
export async function startServer(opts: ServerOptions): Promise<ServerHandle> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: opts.nodeEnv ?? 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: origin,
    APP_SECRET: BENCH_SECRET,
    ALLOW_SANDBOX_PAYMENTS: 'true',
    // Production refuses to start without SMTP_URL unless mail is off on purpose.
    MAIL_DISABLED: 'true',
    SEED_DEMO: 'false',
    // The realtime bench holds thousands of streams from this one address.
    SSE_MAX_STREAMS_PER_ADDRESS: '1000000',
    // Per-request access lines would measure the terminal, not the server; warnings still show.
    LOG_LEVEL: opts.logLevel ?? 'warn',
    ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}),
    ...(opts.dataDir ? { DATA_DIR: opts.dataDir } : {}),
    ...(opts.poolSize ? { DB_POOL_SIZE: String(opts.poolSize) } : {}),
    ...(opts.statementLog ? { DB_STATEMENT_LOG: opts.statementLog } : {}),
    ...opts.extraEnv,
  };
  // BENCH_CPU_PROF=<dir>: the server writes a V8 CPU profile there when it stops (for finding hot code).
  // BENCH_NODE_ARGS='--flag …': more node flags for every server the bench starts (e.g. a GC probe).
  const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...prof, ...(opts.nodeArgs ?? []), ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []), opts.entry ?? path.join(ROOT, 'dist/server/main.mjs')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const keep = (d: Buffer) => {
    out += d.toString();
    if (out.length > 200_000) out = out.slice(-100_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let exited: number | null | undefined;
  child.on('exit', (code) => (exited = code));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (exited !== undefined) throw new Error(`the server exited (${exited}) during start-up:\n${out.slice(-3000)}`);
    try {
      const res = await fetch(`${origin}/api/health`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not answer /api/health within 90 s:\n${out.slice(-3000)}`);
    }
    await sleep(200);
  }
  return {
    pid: child.pid!,
    port,
    origin,
    child,
    output: () => out,
    async stop() {
      if (exited !== undefined) return;
      const done = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 8000);
      await done;
      clearTimeout(t);
    },
  };
}

/** CPU time (user + system, ms) of a process so far, from /proc/<pid>/stat. */
export function cpuMs(pid: number): number {
  const fields = procStat(pid);
  if (!fields) throw new Error(`no process ${pid}`);
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
}

/** Resident set size in KiB, from /proc/<pid>/status. */
export function rssKb(pid: number): number {
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : 0;
}
