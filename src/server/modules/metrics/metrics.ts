import { count, eq } from 'drizzle-orm';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DbHandle } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { jobRunAges } from '../../jobs/scheduler.ts';
import { mailMessages } from '../mail/tables.ts';

/**
 * The app's Prometheus metrics (ADR 0017). One Registry per database handle, i.e. per app, never
 * prom-client's global one: tests build many apps in one process, and each must count its own.
 * Labels are low-cardinality by construction: route patterns (never raw paths), methods, status
 * classes, job names. No user id, email or other personal value is ever a label.
 */
export interface Metrics {
  registry: Registry;
  /** One finished HTTP request; `route` is Hono's matched pattern (c.req.routePath). */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** Packs opened (a buy-and-open of 3 counts 3). */
  packsOpened(n: number): void;
  depositCredited(): void;
  buybackPaid(): void;
  /** Where the SSE client gauge reads its value (the realtime fanout of this app). */
  sseClients(read: () => number): void;
  /** Registers the process-wide default metrics (event-loop lag, heap, CPU) on first scrape. */
  withDefaults(): Registry;
}

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

const byHandle = new WeakMap<object, Metrics>();

/**
 * The metrics of the app that owns `deps.dbh` (created on first use). Keyed by the database
 * handle, not the Deps object: call sites pass copies of Deps (`{ ...deps, log }`).
 */
export function metricsFor(deps: Pick<Deps, 'dbh' | 'config'>): Metrics {
  // A test may build one router from partial Deps without a database: its own registry then.
  const key: object = (deps.dbh as DbHandle | undefined) ?? deps;
  let m = byHandle.get(key);
  if (!m) byHandle.set(key, (m = createMetrics(deps)));
  return m;
}

function createMetrics(deps: Pick<Deps, 'dbh' | 'config'>): Metrics {
  const registry = new Registry();
  const labelNames = ['method', 'route', 'status_class'] as const;
  const requests = new Counter({
    name: 'packvault_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status class.',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'packvault_http_request_duration_seconds',
    help: 'HTTP request latency in seconds, by method, route pattern and status class.',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const opens = new Counter({ name: 'packvault_pack_opens_total', help: 'Packs opened.', registers: [registry] });
  const deposits = new Counter({ name: 'packvault_deposits_total', help: 'Deposits credited to a wallet.', registers: [registry] });
  const buybacks = new Counter({ name: 'packvault_buybacks_total', help: 'Buyback sales paid out.', registers: [registry] });
  const sseReaders: Array<() => number> = [];
  new Gauge({
    name: 'packvault_sse_clients',
    help: 'Open server-sent event streams in this process.',
    registers: [registry],
    collect() {
      this.set(sseReaders.reduce((n, read) => n + read(), 0));
    },
  });
  // Neither postgres.js nor PGlite reports its pool's live use; the configured size is what is
  // known (PGlite is one in-process connection).
  new Gauge({
    name: 'packvault_db_pool_max',
    help: 'Database connections this process may open (the configured pool size; 1 for PGlite).',
    labelNames: ['driver'],
    registers: [registry],
    collect() {
      this.set({ driver: deps.dbh.kind }, deps.dbh.kind === 'postgres' ? deps.config.dbPoolSize : 1);
    },
  });
  new Gauge({
    name: 'packvault_mail_outbox_pending',
    help: 'Mail messages waiting in the outbox for an SMTP attempt.',
    registers: [registry],
    async collect() {
      // A read of mail's published table, not its service: metrics sits below mail (issue 42).
      const [row] = await deps.dbh.db.select({ n: count() }).from(mailMessages).where(eq(mailMessages.status, 'pending'));
      this.set(Number(row?.n ?? 0));
    },
  });
  new Gauge({
    name: 'packvault_job_last_run_age_seconds',
    help: 'Seconds since each scheduled job last started, across all processes.',
    labelNames: ['job'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const j of await jobRunAges(deps.dbh.db)) this.set({ job: j.name }, j.ageSeconds);
    },
  });
  let defaults = false;
  return {
    registry,
    observeRequest(method, route, status, seconds) {
      const labels = {
        method: KNOWN_METHODS.has(method) ? method : 'OTHER',
        route,
        status_class: `${Math.floor(status / 100)}xx`,
      };
      requests.inc(labels);
      duration.observe(labels, seconds);
    },
    packsOpened: (n) => opens.inc(n),
    depositCredited: () => deposits.inc(),
    buybackPaid: () => buybacks.inc(),
    sseClients: (read) => void sseReaders.push(read),
    withDefaults() {
      // Lazily, so apps that are never scraped (most tests) start no event-loop monitor.
      if (!defaults) collectDefaultMetrics({ register: registry });
      defaults = true;
      return registry;
    },
  };
}
