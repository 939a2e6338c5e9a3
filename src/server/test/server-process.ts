import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { inject } from 'vitest';
import type { Deps } from '../deps.ts';
import { projectRoot } from '../lib/paths.ts';
import { TEST_ORIGIN } from './harness.ts';

export interface ServerProcess {
  /** The exit code, once it exits. */
  exited: Promise<number | null>;
  /** The port it listens on (PORT=0 lets the OS choose); rejects if it exits first. */
  listening: Promise<number>;
  output: () => { out: string; err: string };
  /** stdout then stderr, for assertion messages. */
  log: () => string;
  /** SIGTERM, then its exit code. */
  stop: () => Promise<number | null>;
}

/**
 * Starts the real server (src/server/main.ts) as a child process, for tests of what one process
 * can't show: start-up checks, and several processes sharing one PostgreSQL. The environment is
 * clean apart from PATH and HOME (unset NODE_ENV must mean development), so each test states the
 * configuration it runs with.
 */
export function startServerProcess(env: Record<string, string>): ServerProcess {
  const base: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), PORT: '0', LOG_LEVEL: 'info' };
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(projectRoot, 'src/server/main.ts')], {
    cwd: projectRoot,
    env: { ...base, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const listening = new Promise<number>((resolve, reject) => {
    const timer = setInterval(() => {
      // One JSON object per line; pino writes `msg` last, so match the fields in either order.
      const line = out.split('\n').find((l) => l.includes('"msg":"listening"')) ?? '';
      const m = /"url":"http:\/\/[^":]+:(\d+)"/.exec(line);
      if (m) {
        clearInterval(timer);
        resolve(Number(m[1]));
      }
    }, 50);
    void exited.then((code) => {
      clearInterval(timer);
      reject(new Error(`server exited (${code}) before listening: ${err || out}`));
    });
  });
  // Tests that expect an early exit await `exited` instead.
  listening.catch(() => {});
  return {
    exited,
    listening,
    output: () => ({ out, err }),
    log: () => out + err,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/**
 * The environment for a server process that shares a test's PostgreSQL database and secret: it
 * reads the rows the test wrote and accepts the test's session cookies (development mode, no demo
 * data). Each test adds what it is about (Stripe keys, a shutdown deadline…).
 */
export async function sharedDatabaseEnv(deps: Pick<Deps, 'dbh' | 'config'>): Promise<Record<string, string>> {
  const [row] = await deps.dbh.query<{ db: string }>(sql`select current_database() as db`);
  const url = new URL(inject('postgresAdminUrl'));
  url.pathname = `/${row!.db}`;
  return { APP_SECRET: deps.config.secret, PUBLIC_URL: TEST_ORIGIN, SEED_DEMO: 'false', DATABASE_URL: url.toString() };
}
