import postgres from 'postgres';
import { postgresTarget } from '../../src/server/db/client.ts';

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
