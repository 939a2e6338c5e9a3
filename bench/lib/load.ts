import { createRequire } from 'node:module';
import { openLoop } from './open-loop.ts';
import { round } from './util.ts';

const require = createRequire(import.meta.url);
// autocannon ships no types; the slice we use is typed here.
const autocannon = require('autocannon') as (opts: Record<string, unknown>) => Promise<AutocannonResult>;
// autocannon keeps every response's body as a string (`req.body += chunk`, a UTF-8 decode of each
// chunk) for features the bench never uses (response callbacks, request chaining). On the 2 cores
// it shares with the server that decode cost the load generator more than the server spent on a
// 32 KB gzipped page (1.7k req/s from autocannon, 10k from Node's own client, the server 0.1 ms
// per request): it measured the client. Bytes are still counted (`addByteCount`).
(require('autocannon/lib/pipelinedRequestsQueue.js') as { prototype: { addBody(data: unknown): void } }).prototype.addBody = () => {};

interface Histogram {
  average: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}
interface AutocannonResult {
  latency: Histogram;
  requests: Histogram & { total: number; sent: number };
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  statusCodeStats?: Record<string, { count: number }>;
}

export interface LoadResult {
  /** Successful (2xx) responses per second over the run. */
  rps: number;
  ok: number;
  non2xx: number;
  errors: number;
  p50_ms: number | null;
  p99_ms: number | null;
  mean_ms: number | null;
  duration_s: number;
  status: Record<string, number>;
  target_rate?: number;
  /** Fixed rates only (open-loop.ts): requests still unanswered when the window ended (answered
   * later, they are in the latencies but not in `rps`), and those never answered (in `errors`). */
  late?: number;
  unanswered?: number;
  /** Fixed rates only: most connections open at once. */
  connections?: number;
  /** Fixed rates only: scheduled time → request written (timer lag, waiting for a connection). */
  send_lag_mean_ms?: number | null;
  send_lag_p99_ms?: number | null;
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  connections: number;
  duration: number;
  /** Closed loop only: stop after this many requests instead of after `duration`. */
  amount?: number;
  /** Fixed arrival rate (requests/s over all connections); closed loop when absent. */
  rate?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Called for every request: returns the headers (and optionally body) to send. */
  perRequest?: () => { headers?: Record<string, string>; body?: string };
}

/**
 * Closed loop: autocannon with `connections` connections. With `rate`: the open-loop generator
 * (open-loop.ts), Poisson arrivals and latency from the scheduled time, as pgbench -R.
 */
export async function load(opts: LoadOptions): Promise<LoadResult> {
  if (opts.rate) return openLoop({ ...opts, rate: opts.rate });
  const u = new URL(opts.url);
  const baseHeaders = { ...(opts.body ? { 'content-type': 'application/json' } : {}), ...opts.headers };
  const res = await autocannon({
    url: u.origin,
    connections: opts.connections,
    duration: opts.duration,
    ...(opts.amount ? { amount: opts.amount } : {}),
    timeout: 30,
    requests: [
      {
        method: opts.method ?? 'GET',
        path: u.pathname + u.search,
        headers: baseHeaders,
        ...(opts.body ? { body: opts.body } : {}),
        ...(opts.perRequest
          ? {
              setupRequest: (req: { headers: Record<string, string>; body?: string }) => {
                const r = opts.perRequest!();
                req.headers = { ...req.headers, ...r.headers };
                if (r.body !== undefined) req.body = r.body;
                return req;
              },
            }
          : {}),
      },
    ],
  });
  const status: Record<string, number> = {};
  for (const [code, s] of Object.entries(res.statusCodeStats ?? {})) status[code] = s.count;
  const ok = res['2xx'];
  return {
    rps: round(ok / res.duration, 1)!,
    ok,
    non2xx: res.non2xx,
    errors: res.errors,
    p50_ms: round(res.latency.p50, 2),
    p99_ms: round(res.latency.p99, 2),
    mean_ms: round(res.latency.mean, 2),
    duration_s: round(res.duration, 2)!,
    status,
  };
}
