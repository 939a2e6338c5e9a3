import path from 'node:path';
import { createPglite } from './db/pglite.ts';
import type { Config } from './config.ts';
import { openPglite, openPostgres, type DbHandle } from './db/client.ts';
import { lockDataDir } from './db/lock.ts';
import { migratePgliteClient, migratePostgresUrl } from './db/migrate.ts';

export interface OpenedDatabase {
  dbh: DbHandle;
  /** Releases the PGlite directory lock (no-op on PostgreSQL). */
  release: () => void;
}

/** Opens the configured database and brings its schema up to date. */
export async function openDatabase(config: Config): Promise<OpenedDatabase> {
  if (config.databaseUrl) {
    // The migration holds a session advisory lock: through PgBouncer in transaction mode that would
    // not be a session, so it uses the direct URL (as LISTEN does).
    const directUrl = config.databaseDirectUrl ?? config.databaseUrl;
    if (config.migrateOnStart ?? true) await migratePostgresUrl(directUrl);
    const dbh = await openPostgres(config.databaseUrl, config.dbPoolSize, {
      statementLog: config.dbStatementLog,
      directUrl,
      prepare: config.databasePrepare ?? true,
    });
    return { dbh, release: () => {} };
  }
  const release = lockDataDir(config.dataDir);
  try {
    const client = await createPglite(path.join(config.dataDir, 'pglite'));
    await migratePgliteClient(client);
    return { dbh: await openPglite(client), release };
  } catch (err) {
    release();
    throw err;
  }
}
