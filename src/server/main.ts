import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createApp } from './app.ts';
import { openDatabase } from './bootstrap.ts';
import { ConfigError, configWarnings, loadConfig, type Config } from './config.ts';
import { DataDirLockedError } from './db/lock.ts';
import type { Deps } from './deps.ts';
import { createRequestDrain } from './http/drain.ts';
import { pruneJob } from './jobs/prune.ts';
import { referralSharesJob } from './modules/referrals/shares.ts';
import { booksReconcileJob } from './modules/books/service.ts';
import { dashboardRollupJob } from './modules/dashboard/rollup.ts';
import { startJobs } from './jobs/scheduler.ts';
import { createLogger } from './lib/logger.ts';
import { redactText } from './lib/redact.ts';
import { revokeDemoSessions } from './modules/auth/demo-accounts.ts';
import { DROPS_TICK_MS, dropsJob, runDropTransitions } from './modules/drops/lifecycle.ts';
import { mailOutboxJob } from './modules/mail/service.ts';
import { marketExpiryJob } from './modules/market/expiry-job.ts';
import { vaultSnapshotJob } from './modules/vault-proof/service.ts';
import { createBus } from './modules/realtime/bus.ts';
import { warnIfAutovacuumOff } from './db/autovacuum.ts';
import { settingsReady } from './modules/settings/store.ts';
import { runSeed } from './seed/index.ts';

const DEFAULT_SHUTDOWN_TIMEOUT_MS = 8_000;

function fail(message: string): never {
  // Driver errors can quote a connection string; no password or token reaches the terminal.
  process.stderr.write(`packvault: ${redactText(message)}\n`);
  process.exit(1);
}

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(`invalid configuration — ${err.message}`);
    throw err;
  }
  const log = createLogger(config.logLevel, { pid: process.pid });

  let opened;
  try {
    opened = await openDatabase(config);
  } catch (err) {
    if (err instanceof DataDirLockedError) fail(err.message);
    const where = config.databaseUrl ? 'DATABASE_URL' : `DATA_DIR (${config.dataDir})`;
    fail(`cannot open the database from ${where}: ${(err as Error).message}`);
  }
  const { dbh, release } = opened;
  const shutdown = new AbortController();
  const bus = await createBus(dbh, log);
  const deps: Deps = { config, dbh, db: dbh.db, bus, log, shutdown: shutdown.signal };

  if (config.seedDemo) await runSeed(deps);
  if (config.isProduction) await revokeDemoSessions(deps);
  for (const warning of configWarnings(config)) log.warn(warning);
  if (config.mailDisabled) log.warn('MAIL_DISABLED is on: no mail is sent; sign-up, verification and password reset are unavailable');
  await warnIfAutovacuumOff(dbh, log).catch((err: unknown) => log.warn('could not read the autovacuum setting', { err }));

  // Drops due while no process was running (opened, closed, drawn late) are caught up before
  // serving; every step is a conditional update, so processes starting together are safe.
  await runDropTransitions(deps)
    .then((r) => log.info('drops caught up', r))
    .catch((err: unknown) => log.error('drops catch-up failed; the job retries', { err }));

  const jobs = startJobs(deps, [pruneJob(deps), referralSharesJob(), dashboardRollupJob(), booksReconcileJob(), mailOutboxJob(), marketExpiryJob(), vaultSnapshotJob()]);
  const dropJobs = startJobs(deps, [dropsJob()], { tickMs: DROPS_TICK_MS, firstDelayMs: DROPS_TICK_MS });
  const app = createApp(deps);
  // Settings (site name, limits, rates…) are read from a per-process cache: fill it before serving.
  await settingsReady();
  const drain = createRequestDrain(app.fetch);
  const server = serve({ fetch: drain.fetch, port: config.port, hostname: config.host }, (info: AddressInfo) => {
    log.info('listening', {
      url: `http://${info.address === '0.0.0.0' || info.address === '::' ? 'localhost' : info.address}:${info.port}`,
      database: dbh.kind,
    });
  });
  // Idle keep-alive sockets outlive a proxy's or a client's own idle timeout (nginx 60 s): with
  // Node's 5 s default, a request sent on a socket the server is closing at that moment gets
  // ECONNRESET (or a proxy's 502). The headers timeout must exceed it, as Node requires.
  if (server instanceof http.Server) {
    server.keepAliveTimeout = 65_000;
    server.headersTimeout = 66_000;
  }
  server.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EADDRINUSE') {
      release();
      fail(`port ${config.port} is already in use; set PORT to a free port.`);
    }
    throw err;
  });

  let stopping = false;
  /**
   * Graceful stop (docs/architecture.md, "Stopping and probes"), all within SHUTDOWN_TIMEOUT_MS:
   * /api/ready answers 503 and SSE streams end with a reconnect hint (the abort), no new
   * connections are accepted, requests already running finish (a purchase commits whole: the
   * database closes only after the last one), then jobs, the bus and the database stop. Past the
   * deadline the remaining sockets are cut and the exit code is 1; a transaction cut that way is
   * rolled back by the database, never half-applied.
   */
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const timeoutMs = config.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
    log.info('shutting down', { signal, timeoutMs, inFlight: drain.inFlight });
    const s = server as unknown as { closeIdleConnections?: () => void; closeAllConnections?: () => void };
    setTimeout(() => {
      log.error('shutdown deadline passed; cutting the remaining connections', { timeoutMs, inFlight: drain.inFlight });
      s.closeAllConnections?.();
      release();
      process.exit(1);
    }, timeoutMs).unref();
    shutdown.abort();
    drain.startDraining();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Keep-alive sockets become idle as their requests (and SSE streams, ended by the abort)
    // finish; sweep them until the server has closed.
    s.closeIdleConnections?.();
    const sweep = setInterval(() => s.closeIdleConnections?.(), 50);
    const stopStarted = performance.now();
    await Promise.all([drain.idle(), jobs.stop(), dropJobs.stop()]);
    // From here a straggler gets 503; then wait once more for one that slipped in meanwhile.
    drain.refuse();
    await drain.idle();
    log.info('requests drained', { ms: Math.round(performance.now() - stopStarted) });
    await bus.close().catch((err: unknown) => log.error('closing the bus failed', { err }));
    await dbh.close().catch((err: unknown) => log.error('closing the database failed', { err }));
    await closed;
    clearInterval(sweep);
    release();
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`packvault: failed to start — ${redactText((err as Error).stack ?? String(err))}\n`);
  process.exit(1);
});
