import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { postgresTarget, type DbHandle } from './client.ts';
import { migrationsDir } from '../lib/paths.ts';

/** Arbitrary constant: every app process takes this advisory lock while migrating. */
const MIGRATION_LOCK_ID = 7_041_991;

export interface MigrateOptions {
  /** Stop after this migration (its tag, e.g. '0008_prune-indexes'): tests of a data migration. */
  upTo?: string;
}

/** The migrations folder, or a copy of it that ends at `upTo`. */
function migrationsFolder(opts: MigrateOptions): string {
  if (!opts.upTo) return migrationsDir;
  const journal = JSON.parse(readFileSync(path.join(migrationsDir, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> };
  const at = journal.entries.findIndex((e) => e.tag === opts.upTo);
  if (at < 0) throw new Error(`No migration tagged ${opts.upTo}`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'packvault-migrations-'));
  mkdirSync(path.join(dir, 'meta'));
  const entries = journal.entries.slice(0, at + 1);
  writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
  for (const e of entries) copyFileSync(path.join(migrationsDir, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
  return dir;
}

export async function migratePgliteClient(client: PGlite, opts: MigrateOptions = {}): Promise<void> {
  await migratePglite(drizzlePglite(client), { migrationsFolder: migrationsFolder(opts) });
}

/**
 * Several app processes may start at once against one PostgreSQL; the advisory lock makes
 * exactly one of them apply pending migrations while the others wait and then find nothing to do.
 */
export async function migratePostgresUrl(url: string, opts: MigrateOptions = {}): Promise<void> {
  const target = postgresTarget(url);
  const sql = postgres(target.url, { ...(target.path ? { path: target.path } : {}), max: 1, onnotice: () => {} });
  try {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
    try {
      await migratePostgres(drizzlePostgres(sql), { migrationsFolder: migrationsFolder(opts) });
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`;
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** The newest migration this build ships: the last entry of drizzle/meta/_journal.json. */
export interface MigrationHead {
  tag: string;
  /** The journal's `when`, which drizzle stores as `created_at` of the applied row. */
  when: number;
}

export function journalHead(dir: string = migrationsDir): MigrationHead {
  const journal = JSON.parse(readFileSync(path.join(dir, 'meta', '_journal.json'), 'utf8')) as { entries: MigrationHead[] };
  const last = journal.entries.at(-1);
  if (!last) throw new Error(`No migrations in ${dir}`);
  return { tag: last.tag, when: last.when };
}

/**
 * Whether the database has every migration of this build. Drizzle applies the journal entries
 * newer than its newest `created_at`, so that one number says it; a database a newer build has
 * already migrated further is at head for this one too. False if the table is missing (nothing
 * applied); other errors (database unreachable) are thrown.
 */
export async function migrationsAtHead(dbh: DbHandle, head: MigrationHead): Promise<boolean> {
  const [exists] = await dbh.query<{ t: string | null }>(sql`select to_regclass('drizzle.__drizzle_migrations')::text as t`);
  if (!exists?.t) return false;
  const [row] = await dbh.query<{ last: string | number | null }>(sql`select max(created_at) as last from drizzle.__drizzle_migrations`);
  return row?.last != null && Number(row.last) >= head.when;
}
