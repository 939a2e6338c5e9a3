import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import type { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';
import { postgresTarget } from './client.ts';
import { migrationsDir } from '../lib/paths.ts';

/** Arbitrary constant: every app process takes this advisory lock while migrating. */
const MIGRATION_LOCK_ID = 7_041_991;

export async function migratePgliteClient(client: PGlite): Promise<void> {
  await migratePglite(drizzlePglite(client), { migrationsFolder: migrationsDir });
}

/**
 * Several app processes may start at once against one PostgreSQL; the advisory lock makes
 * exactly one of them apply pending migrations while the others wait and then find nothing to do.
 */
export async function migratePostgresUrl(url: string): Promise<void> {
  const target = postgresTarget(url);
  const sql = postgres(target.url, { ...(target.path ? { path: target.path } : {}), max: 1, onnotice: () => {} });
  try {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
    try {
      await migratePostgres(drizzlePostgres(sql), { migrationsFolder: migrationsDir });
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`;
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}
