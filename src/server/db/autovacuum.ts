import type { Logger } from '../lib/logger.ts';
import type { DbHandle } from './client.ts';

/**
 * Warns at start-up when the PostgreSQL server runs with autovacuum off.
 *
 * Without it no table is analyzed unless someone runs ANALYZE, and nothing tells a connection to
 * plan its foreign-key checks again: checks planned while `purchases` and `openings` were small
 * stay sequential scans for the life of the pooled connection, so every opening gets slower as
 * the shop's history grows (measured: 470 → 215 opens/s in two minutes on a fresh database;
 * docs/performance.md, "Foreign-key checks planned on empty tables"). Dead rows of the hot
 * tables are never vacuumed either. The app cannot fix this itself; the operator can.
 * PGlite runs no background workers; its single connection is the app's own, so it is skipped.
 */
export async function warnIfAutovacuumOff(dbh: Pick<DbHandle, 'kind' | 'run'>, log: Pick<Logger, 'warn'>): Promise<boolean> {
  if (dbh.kind !== 'postgres') return false;
  const [row] = await dbh.run<{ on: boolean }>(`select current_setting('autovacuum') = 'on' as "on"`, []);
  if (row?.on !== false) return false;
  log.warn(
    'PostgreSQL runs with autovacuum off: tables are never analyzed, so foreign-key checks planned on small tables stay sequential scans and openings slow down as history grows. Turn autovacuum on (or run ANALYZE regularly).',
  );
  return true;
}
