import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { LoadOptions, LoadResult } from './load.ts';
import { percentile, round } from './util.ts';

/**
 * Fixed-rate (open-loop) HTTP load, measured the way `pgbench -R` measures the database side:
 * arrivals are a Poisson process at `rate` per second (exponential inter-arrival times), each
 * request is sent at its scheduled time on an idle keep-alive connection (a new one is opened when
 * none is idle, up to `maxConnections`; past the cap it queues for the next free one), and its
 * latency runs from the scheduled time to the last byte of the response. A server that falls
 * behind therefore shows it in every later latency (no coordinated omission), and so does the
 * generator itself (`send_lag_*`: scheduled time → bytes written, pgbench's "schedule lag").
 *
 * Why not autocannon's `overallRate`: autocannon gives each connection a quota per second
 * (lib/httpClient.js resets `reqsMadeThisSecond` every 1000 ms) and each connection sends back to
 * back until its quota is used, so every second starts with a closed-loop burst on all
 * connections; and its coordinated-omission correction (lib/run.js) passes `Math.ceil(1 / rate)`
 * = 1 ms as the expected interval. Its "latency at 250/s" was a burst latency.
 *
 * Counting, per run:
 * - `rps`: 2xx answers completed inside the window ÷ its length, as pgbench -T counts;
 * - latencies (p50/p99/mean): every 2xx answer, including those completed after the window
 *   (requests still in flight when it ended are waited for, up to `drainMs`; `late` says how many
 *   there were). Non-2xx answers are in `non2xx` and `status`, not in the latencies;
 * - `errors`: requests without an answer — the connection closed or failed under them, or still
 *   unanswered after `drainMs` (those are also in `unanswered`).
 *
 * The client is raw sockets and a minimal HTTP/1.1 reader (status line, headers up to CRLFCRLF,
 * Content-Length or chunked body, `connection: close`), since it shares the machine's two cores
 * with the server and PostgreSQL: no http.Agent, no header objects, the fixed part of the request
 * built once. @hono/node-server answers c.json() with a Content-Length; streamed bodies are chunked.
 */
export interface OpenLoopOptions extends LoadOptions {
  rate: number;
  /** Most connections open at once (default 512). */
  maxConnections?: number;
  /** How long to wait after the window for requests still in flight (default 30 s). */
  drainMs?: number;
  /** Called for every answer: scheduled time (ms since the window opened), latency (ms), status. */
  onSample?: (at: number, latencyMs: number, status: number) => void;
}

interface Pending {
  scheduled: number;
}

const CRLF2 = Buffer.from('\r\n\r\n');
/** Body length markers. */
const NONE = -1;
const CHUNKED = -2;
const UNTIL_CLOSE = -3;

/** Header value (lower case) of `name` (lower case, with its colon) in a lower-cased head, or null. */
function header(head: string, name: string): string | null {
  const at = head.indexOf(`\r\n${name}`);
  if (at < 0) return null;
  const from = at + 2 + name.length;
  const eol = head.indexOf('\r\n', from);
  return head.slice(from, eol < 0 ? head.length : eol).trim();
}

/** Where a chunked body starting at 0 ends (after the last CRLF), -1 if incomplete, -2 if malformed. */
function chunkedEnd(buf: Buffer): number {
  let at = 0;
  for (;;) {
    const eol = buf.indexOf('\r\n', at, 'latin1');
    if (eol < 0) return -1;
    const size = parseInt(buf.toString('latin1', at, eol), 16);
    if (!(size >= 0)) return -2;
    if (size === 0) {
      // Optional trailers, then the empty line.
      const end = buf.indexOf(CRLF2, eol);
      return end < 0 ? -1 : end + 4;
    }
    at = eol + 2 + size + 2;
    if (at > buf.length) return -1;
  }
}

class Conn {
  readonly socket: Socket;
  connected = false;
  busy: Pending | null = null;
  idleSince = 0;
  /** The server said `connection: close` (or broke the framing): not reused. */
  closing = false;
  private buf: Buffer | null = null;
  private status = 0;
  /** Body bytes still expected (Content-Length), or CHUNKED / UNTIL_CLOSE; NONE while reading a head. */
  private left = NONE;

  constructor(
    host: string,
    port: number,
    private readonly onAnswer: (c: Conn, status: number) => void,
    onClose: (c: Conn) => void,
  ) {
    this.socket = connect({ host, port, noDelay: true });
    this.socket.on('data', (d: Buffer) => this.read(d));
    this.socket.on('error', () => {});
    this.socket.on('end', () => {
      if (this.left === UNTIL_CLOSE) this.answered();
    });
    this.socket.on('close', () => onClose(this));
  }

  private answered() {
    this.left = NONE;
    this.onAnswer(this, this.status);
  }

  private read(d: Buffer) {
    let buf = this.buf ? Buffer.concat([this.buf, d]) : d;
    this.buf = null;
    while (buf.length) {
      if (this.left === NONE) {
        const end = buf.indexOf(CRLF2);
        if (end < 0) break;
        const head = buf.toString('latin1', 0, end).toLowerCase();
        buf = buf.subarray(end + 4);
        // "HTTP/1.1 200 …"
        this.status = (head.charCodeAt(9) - 48) * 100 + (head.charCodeAt(10) - 48) * 10 + (head.charCodeAt(11) - 48);
        if (this.status < 200) continue; // 1xx: another head follows
        if (header(head, 'connection:')?.includes('close')) this.closing = true;
        const length = header(head, 'content-length:');
        if (length !== null) this.left = Number(length);
        else if (header(head, 'transfer-encoding:')?.includes('chunked')) this.left = CHUNKED;
        else if (this.status === 204 || this.status === 304) this.left = 0;
        else {
          this.left = UNTIL_CLOSE;
          this.closing = true;
        }
      }
      if (this.left === UNTIL_CLOSE) return; // answered on 'end'
      if (this.left === CHUNKED) {
        const end = chunkedEnd(buf);
        if (end === -2) {
          this.closing = true;
          this.socket.destroy();
          return;
        }
        if (end < 0) break;
        buf = buf.subarray(end);
      } else if (!(this.left >= 0)) {
        this.closing = true;
        this.socket.destroy();
        return;
      } else if (buf.length >= this.left) {
        buf = buf.subarray(this.left);
      } else {
        // Content-Length body: count the bytes, keep none.
        this.left -= buf.length;
        return;
      }
      this.answered();
    }
    if (buf.length) this.buf = buf;
  }
}

export async function openLoop(opts: OpenLoopOptions): Promise<LoadResult> {
  const u = new URL(opts.url);
  if (u.protocol !== 'http:') throw new Error(`open loop: only http:// URLs (${opts.url})`);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const port = Number(u.port || 80);
  const method = opts.method ?? 'GET';
  const cap = Math.max(1, opts.maxConnections ?? 512);
  const drainMs = opts.drainMs ?? 30_000;

  // The request: a fixed part built once; per request only perRequest()'s headers (and body).
  const base: Record<string, string> = { ...(opts.body ? { 'content-type': 'application/json' } : {}) };
  for (const [k, v] of Object.entries(opts.headers ?? {})) base[k.toLowerCase()] = v;
  const line = `${method} ${u.pathname}${u.search} HTTP/1.1\r\nhost: ${u.host}\r\n`;
  const lines = (h: Record<string, string>) => Object.entries(h).reduce((s, [k, v]) => `${s}${k}: ${v}\r\n`, '');
  const tail = (body: string) => (body || method !== 'GET' ? `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}` : '\r\n');
  const prefix = line + lines(base);
  const fixedTail = tail(opts.body ?? '');
  const request = (): string => {
    if (!opts.perRequest) return prefix + fixedTail;
    const r = opts.perRequest();
    const h = r.headers;
    let own = '';
    let merged: Record<string, string> | null = null;
    for (const k in h) {
      const key = k.toLowerCase();
      if (Object.hasOwn(base, key)) {
        merged ??= { ...base };
        merged[key] = h[k]!;
      } else own += `${k}: ${h[k]}\r\n`;
    }
    return (merged ? line + lines(merged) : prefix) + own + (r.body === undefined ? fixedTail : tail(r.body));
  };

  let start = Infinity;
  let end = Infinity;
  let ok = 0;
  let okInWindow = 0;
  let non2xx = 0;
  let errors = 0;
  let inflight = 0;
  let stopped = false;
  let peak = 0;
  let onIdle: (() => void) | null = null;
  const latencies: number[] = [];
  const lags: number[] = [];
  const status: Record<string, number> = {};
  const idle: Conn[] = [];
  const all = new Set<Conn>();
  /** Requests waiting for a connection (FIFO, `head` is the next). */
  const waiting: Pending[] = [];
  let head = 0;

  const finish = () => {
    inflight--;
    if (inflight === 0) onIdle?.();
  };
  const send = (c: Conn, p: Pending) => {
    c.busy = p;
    lags.push(performance.now() - p.scheduled);
    c.socket.write(request());
  };
  const release = (c: Conn) => {
    if (c.closing) {
      c.socket.destroy();
      return;
    }
    if (head < waiting.length) {
      send(c, waiting[head++]!);
      if (head === waiting.length) waiting.length = head = 0;
    } else {
      c.idleSince = performance.now();
      idle.push(c);
    }
  };
  const onAnswer = (c: Conn, code: number) => {
    const p = c.busy;
    if (!p) {
      // Nothing was asked on this connection: do not trust it any more.
      c.closing = true;
      c.socket.destroy();
      return;
    }
    c.busy = null;
    const now = performance.now();
    status[code] = (status[code] ?? 0) + 1;
    if (code >= 200 && code < 300) {
      ok++;
      if (now <= end) okInWindow++;
      latencies.push(now - p.scheduled);
    } else non2xx++;
    opts.onSample?.(p.scheduled - start, now - p.scheduled, code);
    finish();
    release(c);
  };
  const onClose = (c: Conn) => {
    all.delete(c);
    const i = idle.indexOf(c);
    if (i >= 0) idle.splice(i, 1);
    if (c.busy) {
      // Closed (or reset) under a request: the request failed.
      c.busy = null;
      errors++;
      finish();
    } else if (!c.connected && head < waiting.length) {
      // Could not connect: the request it was opened for fails (no reconnect loop on a dead server).
      head++;
      errors++;
      finish();
    }
    if (!stopped && head < waiting.length && all.size < cap) open();
  };
  const open = () => {
    const c = new Conn(host, port, onAnswer, onClose);
    all.add(c);
    peak = Math.max(peak, all.size);
    c.socket.once('connect', () => {
      c.connected = true;
      release(c);
    });
    return c;
  };
  const submit = (p: Pending) => {
    inflight++;
    let c = idle.pop();
    // The server closes keep-alive connections idle for 5 s (Node's default): do not race it.
    while (c && p.scheduled - c.idleSince > 4000) {
      c.closing = true;
      c.socket.destroy();
      c = idle.pop();
    }
    if (c) send(c, p);
    else {
      waiting.push(p);
      if (all.size < cap) open();
    }
  };

  // Connections opened before the clock starts (a connect is not part of a request's latency).
  const warm = Math.min(Math.max(1, opts.connections), cap);
  await Promise.all(
    Array.from({ length: warm }, () => {
      const c = new Conn(host, port, onAnswer, onClose);
      all.add(c);
      return new Promise<void>((resolve, reject) => {
        c.socket.once('connect', () => {
          c.connected = true;
          c.idleSince = performance.now();
          idle.push(c);
          resolve();
        });
        c.socket.once('error', (err) => reject(new Error(`open loop: cannot connect to ${u.host}: ${err.message}`)));
      });
    }),
  ).catch((err: unknown) => {
    stopped = true;
    for (const c of all) c.socket.destroy();
    throw err;
  });
  peak = all.size;

  start = performance.now() + 5;
  end = start + opts.duration * 1000;
  let next = start;
  let inflightAtEnd = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (next <= now && next < end) {
        submit({ scheduled: next });
        // Exponential inter-arrival times: a Poisson process, as pgbench -R schedules.
        next -= (Math.log(1 - Math.random()) / opts.rate) * 1000;
      }
      if (next >= end) {
        setTimeout(
          () => {
            inflightAtEnd = inflight;
            resolve();
          },
          Math.max(0, end - performance.now()),
        );
        return;
      }
      // Timers fire on whole milliseconds, at the earliest when due; the lag is in the latency.
      setTimeout(tick, Math.max(0, next - performance.now()));
    };
    setTimeout(tick, Math.max(0, start - performance.now()));
  });
  if (inflight > 0) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, drainMs);
      onIdle = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
  stopped = true;
  const unanswered = inflight;
  for (const c of all) c.socket.destroy();

  const duration = (end - start) / 1000;
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
  return {
    rps: round(okInWindow / duration, 1)!,
    ok,
    non2xx,
    errors: errors + unanswered,
    p50_ms: round(percentile(latencies, 50), 2),
    p99_ms: round(percentile(latencies, 99), 2),
    mean_ms: round(mean(latencies), 2),
    duration_s: round(duration, 2)!,
    status,
    target_rate: opts.rate,
    late: inflightAtEnd,
    unanswered,
    connections: peak,
    send_lag_mean_ms: round(mean(lags), 2),
    send_lag_p99_ms: round(percentile(lags, 99), 2),
  };
}
