import { randomBytes } from 'node:crypto';
import { createPglite } from './pglite.ts';
import postgres from 'postgres';
import { inject } from 'vitest';
import { openPglite, openPostgres, type DbHandle } from './client.ts';
import { migratePgliteClient, migratePostgresUrl } from './migrate.ts';

/**
 * For the tests of a data migration on a database filled by the old code: a fresh database
 * (PGlite, or a scratch PostgreSQL database when the run has one) migrated up to `before`, raw SQL
 * to fill it the way the old code did, then the rest of the migrations.
 */

export type Exec = (text: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>;

export interface FreshDb {
  exec: Exec;
  /** The remaining migrations, or those up to `upTo` (to fill in another step of old data). */
  migrateRest(upTo?: string): Promise<void>;
  open(): Promise<DbHandle>;
  close(): Promise<void>;
}

export async function freshDbUpTo(before: string): Promise<FreshDb> {
  if (inject('dbKind') === 'postgres') {
    const adminUrl = inject('postgresAdminUrl');
    const name = `pv_mig_${randomBytes(5).toString('hex')}`;
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${name}"`);
    const u = new URL(adminUrl);
    u.pathname = `/${name}`;
    const url = u.toString();
    await migratePostgresUrl(url, { upTo: before });
    const raw = postgres(url, { max: 1, onnotice: () => {} });
    let handle: DbHandle | undefined;
    return {
      exec: async (text, params = []) => [...(await raw.unsafe(text, params as never[]))] as Array<Record<string, unknown>>,
      migrateRest: (upTo) => migratePostgresUrl(url, { upTo }),
      open: async () => (handle = await openPostgres(url, 2)),
      async close() {
        await handle?.close();
        await raw.end();
        await admin.unsafe(`drop database if exists "${name}" with (force)`).catch(() => {});
        await admin.end();
      },
    };
  }
  const client = await createPglite();
  await migratePgliteClient(client, { upTo: before });
  return {
    exec: async (text, params = []) => (await client.query<Record<string, unknown>>(text, params)).rows,
    migrateRest: (upTo) => migratePgliteClient(client, { upTo }),
    open: () => openPglite(client),
    close: () => client.close(),
  };
}

/** What any card needs before it can be inserted by raw SQL: an image upload, a class, a frame. */
export async function insertCardPrerequisites(exec: Exec): Promise<{ imageKey: string; classId: string; architectId: string }> {
  const imageKey = 'f'.repeat(64);
  await exec(`insert into uploads (key, mime, width, height, bytes, variants) values ($1, 'image/webp', 10, 14, 100, '{}'::jsonb)`, [imageKey]);
  const [cls] = await exec(`insert into card_classes (name, colour) values ('Legend', '#a855f7') returning id`);
  const [arch] = await exec(`insert into architects (name, frame_image_key, layout) values ('Frame', $1, '{}'::jsonb) returning id`, [imageKey]);
  return { imageKey, classId: String(cls!.id), architectId: String(arch!.id) };
}
