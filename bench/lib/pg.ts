import { readdirSync, readFileSync } from 'node:fs';
import postgres from 'postgres';
import { postgresTarget } from '../../src/server/db/client.ts';
import { CLK_TCK, procStat } from './util.ts';

export type Sql = postgres.Sql;

export const ADMIN_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

export function urlFor(database: string): string {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${database}`;
  return u.toString();
}

export function connect(url: string, max = 4): Sql {
  const target = postgresTarget(url);
  return postgres(target.url, { ...(target.path ? { path: target.path } : {}), max, onnotice: () => {}, connect_timeout: 10, idle_timeout: 30 });
}

/** A fresh, empty database (dropped first if a previous run left it behind). */
export async function createDatabase(name: string): Promise<string> {
  const admin = connect(ADMIN_URL, 1);
  try {
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.unsafe(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  return urlFor(name);
}

export async function dropDatabase(name: string): Promise<void> {
  const admin = connect(ADMIN_URL, 1);
  try {
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
  } finally {
    await admin.end();
  }
}

/** libpq connection parameters for pgbench/psql, from the URL. */
export function libpqEnv(url: string): Record<string, string> {
  const u = new URL(url);
  const env: Record<string, string> = {
    // `?host=/var/run/postgresql` (a Unix socket directory, as postgres.js reads it) wins over the host name.
    PGHOST: u.searchParams.get('host') || u.hostname,
    PGPORT: u.port || '5432',
    PGUSER: decodeURIComponent(u.username || 'postgres'),
    PGDATABASE: u.pathname.slice(1),
  };
  if (u.password) env.PGPASSWORD = decodeURIComponent(u.password);
  return env;
}

/** A copy of `source` (nobody may be connected to it), so pgbench's writes never mix with the app's. */
export async function cloneDatabase(source: string, target: string): Promise<string> {
  const admin = connect(ADMIN_URL, 1);
  try {
    await admin.unsafe(`drop database if exists "${target}" with (force)`);
    // PostgreSQL 15 copies a template through the WAL by default: at 1M owned cards that is
    // hundreds of MB of WAL, whose checkpoint then ran during the app's closed loop (the large
    // database's single run read 420 opens/s against 524–550 side by side). FILE_COPY
    // checkpoints before and after the copy and writes no WAL for it.
    const [v] = await admin.unsafe(`select current_setting('server_version_num')::int as n`);
    const strategy = Number(v?.n) >= 150000 ? ' strategy = file_copy' : '';
    await admin.unsafe(`create database "${target}" template "${source}"${strategy}`);
  } finally {
    await admin.end();
  }
  return urlFor(target);
}

/** Writes every dirty page out now, so a phase does not pay for the previous phase's writes. */
export async function checkpoint(): Promise<void> {
  const admin = connect(ADMIN_URL, 1);
  try {
    await admin.unsafe('checkpoint');
  } finally {
    await admin.end();
  }
}

export const databaseName = (url: string) => new URL(url).pathname.slice(1);

/**
 * The PostgreSQL server's main process, when the server runs on this machine (its backend's pid is
 * a `postgres` process here); else null. Used to charge the database's CPU to each phase.
 */
export async function postmasterPid(): Promise<number | null> {
  const admin = connect(ADMIN_URL, 1);
  try {
    const [row] = await admin.unsafe(`select pg_backend_pid() as pid`);
    const pid = Number(row?.pid);
    const comm = (() => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      } catch {
        return '';
      }
    })();
    const ppid = comm === 'postgres' ? Number(procStat(pid)?.[1]) : NaN;
    return Number.isInteger(ppid) && ppid > 1 ? ppid : null;
  } finally {
    await admin.end();
  }
}

/**
 * CPU time (user + system, ms) the whole server has used so far: the main process, its live
 * children (backends, WAL writer, checkpointer, autovacuum) and the children that have exited
 * (pgbench's backends end with their connections; the kernel adds them to the parent's
 * cutime/cstime). A difference of two readings is what the database spent on a phase.
 */
export function postgresCpuMs(postmaster: number): number | null {
  // A child reaped between reading the main process and scanning its children would be counted
  // in neither: read again until the reaped children's total did not move during the scan.
  for (let attempt = 0; attempt < 5; attempt++) {
    const main = procStat(postmaster);
    if (!main) return null;
    // utime, stime, cutime, cstime: fields 14–17 overall, indexes 11–14 here.
    const reaped = Number(main[13]) + Number(main[14]);
    let ticks = Number(main[11]) + Number(main[12]) + reaped;
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const f = procStat(Number(name));
      if (f && Number(f[1]) === postmaster) ticks += Number(f[11]) + Number(f[12]);
    }
    const again = procStat(postmaster);
    if (again && Number(again[13]) + Number(again[14]) === reaped) return (ticks * 1000) / CLK_TCK;
  }
  return null;
}

let postmasterOnce: Promise<number | null> | undefined;

/** PostgreSQL's CPU so far (ms), or null when its processes are not visible from here. */
export async function databaseCpuMs(): Promise<number | null> {
  postmasterOnce ??= postmasterPid().catch(() => null);
  const pid = await postmasterOnce;
  return pid === null ? null : postgresCpuMs(pid);
}
