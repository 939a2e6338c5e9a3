import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPglite } from '../db/pglite.ts';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { migratePgliteClient, migratePostgresUrl } from '../db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    dbKind: 'pglite' | 'postgres';
    pgliteTemplate: string;
    postgresTemplate: string;
    postgresAdminUrl: string;
  }
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * Migrates one template database per run. Each test file then gets its own copy: a PGlite
 * loaded from the template's dump, or a PostgreSQL `CREATE DATABASE … TEMPLATE …`.
 */
export default async function setup(project: TestProject) {
  const kind = (project.config.env?.TEST_DB ?? 'pglite') as 'pglite' | 'postgres';
  project.provide('dbKind', kind);
  if (kind === 'pglite') {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'packvault-tpl-'));
    const client = await createPglite();
    await migratePgliteClient(client);
    const dump = await client.dumpDataDir('none');
    await client.close();
    const file = path.join(dir, 'template.tar');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    project.provide('pgliteTemplate', file);
    project.provide('postgresTemplate', '');
    project.provide('postgresAdminUrl', '');
    return () => rmSync(dir, { recursive: true, force: true });
  }

  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const template = `pv_tpl_${process.pid}_${Date.now().toString(36)}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${template}"`);
  await migratePostgresUrl(withDatabase(adminUrl, template));
  // A template must have no open connections when it is copied.
  await admin.unsafe(
    `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${template}' and pid <> pg_backend_pid()`,
  );
  project.provide('pgliteTemplate', '');
  project.provide('postgresTemplate', template);
  project.provide('postgresAdminUrl', adminUrl);
  return async () => {
    const dbs = await admin<{ datname: string }[]>`
      select datname from pg_database where datname like ${`pv_t_${process.pid}_%`} or datname = ${template}`;
    for (const { datname } of dbs) {
      await admin.unsafe(`drop database if exists "${datname}" with (force)`).catch(() => {});
    }
    await admin.end();
  };
}
