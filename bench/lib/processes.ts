// `npm run bench -- --processes=1,2,3`: the buy-and-open closed loop against N app processes on one
// PostgreSQL database, the clients spread evenly over them, with the CPU each part used over the
// measured window (app processes, this database's PostgreSQL backends, the rest of PostgreSQL, the
// load generator, PgBouncer when --pooler is given, and everything else on the machine). The point
// it checks: throughput is bounded by the database, not by a lock or by one process.
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import type { BenchOptions } from './options.ts';
import { load, type LoadResult } from './load.ts';
import { OPEN_PATH, userRotation } from './open.ts';
import { connect, databaseName } from './pg.ts';
import { PRODUCT_ID } from './seed.ts';
import { startAutoanalyze } from './autoanalyze.ts';
import { cpuMs, startServer, type ServerHandle } from './server.ts';
import { CLK_TCK, log, round } from './util.ts';

const BODY = JSON.stringify({ productId: PRODUCT_ID, quantity: 1 });

export interface ProcessesRun {
  processes: number;
  /** 'direct', or the pooler URL's host:port (PgBouncer). */
  via: string;
  prepare: boolean;
  connections: number;
  pool_per_process: number;
  opens_per_s: number;
  /** Of the N autocannon instances, the highest p50 / p99 (their histograms cannot be merged). */
  p50_ms: number | null;
  p99_ms: number | null;
  non2xx: number;
  errors: number;
  per_process_rps: number[];
  /** Share of the machine (wall time × cores) each part used over the window, in %. */
  cpu_share: Record<string, number | null>;
  /** CPU ms per open, by part. */
  cpu_ms_per_open: Record<string, number | null>;
  /**
   * What this database's backends were doing, sampled every 100 ms over the window (% of samples of
   * non-idle backends): 'cpu' (running, no wait event), 'Lock:<kind>' (transactionid = a row another
   * transaction is updating, tuple, advisory, relation), 'LWLock', 'IO', 'Client' (waiting for the
   * app), …: the lock share says whether a lock bounds it.
   */
  backend_waits: Record<string, number>;
  loadavg_before: number[];
  loadavg_after: number[];
  opened: number;
}

/** utime + stime (ms) of a pid, or null when it is gone. */
function cpuOf(pid: number): number | null {
  try {
    return cpuMs(pid);
  } catch {
    return null;
  }
}

/** Pids by command name (/proc/<pid>/comm): 'postgres', 'pgbouncer'. */
function pidsNamed(name: string): number[] {
  const out: number[] = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      if (readFileSync(`/proc/${e}/comm`, 'utf8').trim() === name) out.push(Number(e));
    } catch {
      /* exited */
    }
  }
  return out;
}

/** Busy CPU ms of the whole machine so far (all cores), from /proc/stat. */
function machineBusyMs(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  return ((user! + nice! + system! + irq! + softirq! + steal!) * 1000) / CLK_TCK;
}

/** CPU of a changing set of pids: those present at the start count from there, later ones from zero. */
class PidGroup {
  private start = new Map<number, number>();
  private last = new Map<number, number>();
  constructor(private readonly list: () => number[] | Promise<number[]>) {}
  async begin() {
    for (const pid of await this.list()) {
      const c = cpuOf(pid);
      if (c !== null) this.start.set(pid, c);
    }
  }
  async end(): Promise<{ ms: number; pids: Set<number> }> {
    const pids = new Set([...this.start.keys(), ...(await this.list())]);
    let ms = 0;
    for (const pid of pids) {
      const c = cpuOf(pid) ?? this.last.get(pid) ?? this.start.get(pid) ?? 0;
      ms += c - (this.start.get(pid) ?? 0);
    }
    return { ms, pids };
  }
}

/** Samples pg_stat_activity for `db` every 100 ms until stop(): shares of wait_event_type. */
function sampleWaits(admin: ReturnType<typeof connect>, db: string) {
  const counts = new Map<string, number>();
  let running = true;
  const loop = (async () => {
    while (running) {
      // Lock waits by kind (transactionid: a row another transaction is updating; tuple; advisory; relation).
      const rows = await admin<Array<{ w: string | null; n: number }>>`
        select case when wait_event_type = 'Lock' then 'Lock:' || wait_event else wait_event_type end as w, count(*)::int as n
        from pg_stat_activity
        where datname = ${db} and pid <> pg_backend_pid() and state = 'active' and query not ilike 'listen%'
        group by 1`.catch(() => []);
      for (const r of rows) counts.set(r.w ?? 'cpu', (counts.get(r.w ?? 'cpu') ?? 0) + r.n);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    async stop(): Promise<Record<string, number>> {
      running = false;
      await loop;
      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, round((100 * v) / Math.max(1, total), 1)!]));
    },
  };
}

export interface ProcessesOptions {
  databaseUrl: string;
  counts: number[];
  /** The app's DATABASE_URL goes through this pooler (same database name); LISTEN and migrations stay direct. */
  poolerUrl?: string | null;
  prepare: boolean;
}

export async function processesBench(o: BenchOptions, opts: ProcessesOptions): Promise<ProcessesRun[]> {
  const db = databaseName(opts.databaseUrl);
  let appUrl = opts.databaseUrl;
  let via = 'direct';
  if (opts.poolerUrl) {
    const u = new URL(opts.poolerUrl);
    u.pathname = `/${db}`;
    appUrl = u.toString();
    via = `pgbouncer ${u.host}`;
  }
  const admin = connect(opts.databaseUrl, 1);
  // The counts run one after another on one database: without it, later counts would meet the
  // stale foreign-key plans of a grown database (autoanalyze.ts).
  const analyzer = startAutoanalyze(opts.databaseUrl);
  const users = userRotation(o.users);
  await users.prepare();
  const runs: ProcessesRun[] = [];
  try {
    for (const n of opts.counts) {
      const servers: ServerHandle[] = [];
      try {
        for (let i = 0; i < n; i++) {
          servers.push(
            await startServer({
              databaseUrl: appUrl,
              poolSize: o.poolSize,
              extraEnv: {
                DATABASE_DIRECT_URL: opts.databaseUrl,
                DATABASE_PREPARE: String(opts.prepare),
                // Processes started together: one migrates (under the advisory lock), all would be
                // safe; the database is already migrated, so none needs to.
                MIGRATE_ON_START: 'false',
              },
            }),
          );
        }
        const url = (s: ServerHandle) => `${s.origin}${OPEN_PATH}`;
        const perRequestFor = (s: ServerHandle) => () => ({ headers: users.headers(s.origin) });
        let opened = 0;
        for (const w of await Promise.all(servers.map((s) => load({ url: url(s), method: 'POST', body: BODY, connections: 4, duration: 2, perRequest: perRequestFor(s) })))) opened += w.ok;

        const perServer = Math.max(1, Math.round(o.connections / n));
        log(`processes=${n} (${via}, prepare ${opts.prepare}): closed loop, ${perServer * n} connections over ${n} process(es), ${o.seconds} s`);
        const loadBefore = os.loadavg().map((l) => round(l, 2)!);
        const backends = new PidGroup(async () =>
          (await admin<Array<{ pid: number }>>`select pid from pg_stat_activity where datname = ${db} and pid <> pg_backend_pid()`).map((r) => r.pid),
        );
        const allPostgres = new PidGroup(() => pidsNamed('postgres'));
        const bouncer = new PidGroup(() => (opts.poolerUrl ? pidsNamed('pgbouncer') : []));
        await Promise.all([backends.begin(), allPostgres.begin(), bouncer.begin()]);
        const waits = sampleWaits(admin, db);
        const app0 = servers.map((s) => cpuMs(s.pid));
        const self0 = process.cpuUsage();
        const busy0 = machineBusyMs();
        const t0 = performance.now();
        const results: LoadResult[] = await Promise.all(
          servers.map((s) => load({ url: url(s), method: 'POST', body: BODY, connections: perServer, duration: o.seconds, perRequest: perRequestFor(s) })),
        );
        const wallMs = performance.now() - t0;
        const backendWaits = await waits.stop();
        const busy = machineBusyMs() - busy0;
        const self = process.cpuUsage(self0);
        const app = servers.reduce((sum, s, i) => sum + cpuMs(s.pid) - app0[i]!, 0);
        const [be, pg, pb] = await Promise.all([backends.end(), allPostgres.end(), bouncer.end()]);
        const loadAfter = os.loadavg().map((l) => round(l, 2)!);
        const ok = results.reduce((s, r) => s + r.ok, 0);
        opened += ok;
        const capacity = wallMs * os.cpus().length;
        const bench = (self.user + self.system) / 1000;
        const parts: Record<string, number> = {
          app: app,
          postgres_backends: be.ms,
          postgres_other: Math.max(0, pg.ms - be.ms),
          ...(opts.poolerUrl ? { pgbouncer: pb.ms } : {}),
          load_generator: bench,
        };
        const known = Object.values(parts).reduce((a, b) => a + b, 0);
        parts.rest_of_machine = Math.max(0, busy - known);
        parts.idle = Math.max(0, capacity - busy);
        const rps = round(results.reduce((s, r) => s + r.ok / r.duration_s, 0), 1)!;
        runs.push({
          processes: n,
          via,
          prepare: opts.prepare,
          connections: perServer * n,
          pool_per_process: o.poolSize,
          opens_per_s: rps,
          p50_ms: Math.max(...results.map((r) => r.p50_ms ?? 0)),
          p99_ms: Math.max(...results.map((r) => r.p99_ms ?? 0)),
          non2xx: results.reduce((s, r) => s + r.non2xx, 0),
          errors: results.reduce((s, r) => s + r.errors, 0),
          per_process_rps: results.map((r) => r.rps),
          cpu_share: Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, round((100 * v) / capacity, 1)])),
          cpu_ms_per_open: Object.fromEntries(
            Object.entries(parts)
              .filter(([k]) => k !== 'idle' && k !== 'rest_of_machine')
              .map(([k, v]) => [k, ok ? round(v / ok, 2) : null]),
          ),
          backend_waits: backendWaits,
          loadavg_before: loadBefore,
          loadavg_after: loadAfter,
          opened,
        });
        const r = runs.at(-1)!;
        log(`processes=${n}: ${r.opens_per_s} opens/s, p50/p99 ${r.p50_ms}/${r.p99_ms} ms, CPU % ${JSON.stringify(r.cpu_share)}, backend waits % ${JSON.stringify(r.backend_waits)}, load ${loadBefore.join(' ')}`);
      } finally {
        await Promise.all(servers.map((s) => s.stop()));
      }
    }
  } finally {
    await analyzer.stop();
    await admin.end();
  }
  return runs;
}

export function processesTable(runs: ProcessesRun[]): Array<Array<string | number | null>> {
  const parts = [...new Set(runs.flatMap((r) => Object.keys(r.cpu_share)))];
  const rows: Array<Array<string | number | null>> = [['processes', 'via', 'prepare', 'opens/s', 'p50/p99 ms', ...parts.map((p) => `${p} %`), 'lock waits %', 'load avg']];
  for (const r of runs) {
    const locks = Object.entries(r.backend_waits).reduce((n, [k, v]) => n + (k.startsWith('Lock') ? v : 0), 0);
    rows.push([r.processes, r.via, String(r.prepare), r.opens_per_s, `${r.p50_ms}/${r.p99_ms}`, ...parts.map((p) => r.cpu_share[p] ?? null), round(locks, 1), r.loadavg_before.join(' ')]);
  }
  return rows;
}
