import type { Config } from './config.ts';
import type { Db, DbHandle } from './db/client.ts';
import type { Logger } from './lib/logger.ts';
import type { Bus } from './modules/realtime/bus.ts';

/** Everything a module needs from the outside world, built once in main.ts (or a test). */
export interface Deps {
  config: Config;
  dbh: DbHandle;
  db: Db;
  bus: Bus;
  log: Logger;
  /** Aborted when the process starts shutting down, so long-lived streams can end. */
  shutdown: AbortSignal;
}
