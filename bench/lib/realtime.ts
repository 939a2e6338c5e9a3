import { readFileSync, statSync } from 'node:fs';
import net from 'node:net';
import { loadavg } from 'node:os';
import { connect } from './pg.ts';
import { cpuMs, rssKb } from './server.ts';
import { log, percentile, round, sleep } from './util.ts';

export interface RealtimeResult {
  clients: number;
  connected: number;
  events: number;
  deliveries: number;
  expected_deliveries: number;
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
  max_ms: number | null;
  rss_before_mb: number;
  rss_after_mb: number;
  kb_per_connection: number | null;
  /** V8 heap in use (after a forced GC) before and after connecting, when the server has lib/heap-probe.mjs. */
  heap_before_mb: number | null;
  heap_after_mb: number | null;
  heap_kb_per_connection: number | null;
  /** Wall time to open every connection (in batches of 100), and per connection from connect() to its hello. */
  connect_all_s: number;
  connect_p50_ms: number | null;
  connect_p99_ms: number | null;
  /** Over the events: how long the last client waited for each (the fan-out's span), worst and median. */
  event_span_max_ms: number | null;
  event_span_p50_ms: number | null;
  /** 1-minute load average before connecting and after the last event (the machine is shared). */
  load_before: number;
  load_after: number;
  /** Connections the server closed during the run, and clients that missed at least one event. */
  closed_early: number;
  clients_missing_events: number;
  /** CPU of the server and of the bench's own clients over the publishing phase, per event. */
  server_cpu_ms_per_event: number | null;
  bench_cpu_ms_per_event: number | null;
}

/**
 * `clients` SSE connections on /api/events; then `events` top-pull events are published the way
 * the bus does it (pg_notify on 'packvault_events', its JSON shape) carrying the send time; the
 * latency is arrival − send for every client and event.
 */
export async function realtimeBench(opts: { origin: string; databaseUrl: string; pid: number; clients: number; events: number; heapFile?: string }): Promise<RealtimeResult> {
  const latencies: number[] = [];
  const connectMs: number[] = [];
  /** Per event: the latest arrival − sentAt over every client. */
  const span = new Map<number, number>();
  const sockets: net.Socket[] = [];
  const received: number[] = [];
  let connected = 0;
  let closedEarly = 0;
  let finished = false;
  await sleep(1000);
  const loadBefore = loadavg()[0]!;
  const heapBefore = await heapUsed(opts.pid, opts.heapFile);
  const rssBefore = rssKb(opts.pid);
  const url = new URL('/api/events', opts.origin);
  const request = `GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/event-stream\r\n\r\n`;

  // The clients share the bench's CPU with the server, so their cost is inside every figure: a raw
  // socket and a minimal HTTP/1.1-chunked + SSE reader instead of http.get (parser, streams,
  // decoder) and JSON.parse per message. The time is still taken when the bytes reach the client.
  const open = (n: number) =>
    new Promise<void>((resolve, reject) => {
      const socket = net.connect({ host: url.hostname, port: Number(url.port) });
      sockets.push(socket);
      received[n] = 0;
      // latin1: one char per byte, so chunk sizes can be counted in string length.
      socket.setEncoding('latin1');
      socket.setNoDelay(true);
      const t0 = Date.now();
      socket.on('connect', () => socket.write(request));
      let raw = '';
      let headDone = false;
      /** Bytes of the current chunk still to come, or -1 while a chunk-size line is awaited. */
      let chunkLeft = -1;
      let sse = '';
      let hello = false;
      socket.on('data', (data: string) => {
        const now = Date.now();
        raw += data;
        if (!headDone) {
          const h = raw.indexOf('\r\n\r\n');
          if (h === -1) return;
          const head = raw.slice(0, h);
          if (!head.startsWith('HTTP/1.1 200') || !/\r\ncontent-type: text\/event-stream/i.test(head) || !/\r\ntransfer-encoding: chunked/i.test(head)) {
            reject(new Error(`/api/events answered ${head.split('\r\n', 1)[0]} (expected a chunked text/event-stream)`));
            socket.destroy();
            return;
          }
          headDone = true;
          raw = raw.slice(h + 4);
        }
        for (;;) {
          if (chunkLeft === -1) {
            const e = raw.indexOf('\r\n');
            if (e === -1) break;
            chunkLeft = parseInt(raw.slice(0, e), 16);
            raw = raw.slice(e + 2);
            if (chunkLeft === 0) return; // the server ended the response
          }
          // The chunk's data, then its CRLF.
          if (raw.length < chunkLeft + 2) break;
          sse += raw.slice(0, chunkLeft);
          raw = raw.slice(chunkLeft + 2);
          chunkLeft = -1;
        }
        let i: number;
        while ((i = sse.indexOf('\n\n')) !== -1) {
          const msg = sse.slice(0, i);
          sse = sse.slice(i + 2);
          if (msg.startsWith('event: pull.created\n')) {
            const k = msg.indexOf('"sentAt":');
            if (k === -1) continue;
            const sentAt = parseInt(msg.slice(k + 9), 10);
            latencies.push(now - sentAt);
            if ((span.get(sentAt) ?? -1) < now - sentAt) span.set(sentAt, now - sentAt);
            received[n]!++;
          } else if (!hello && msg.startsWith('event: hello\n')) {
            hello = true;
            connected++;
            connectMs.push(Date.now() - t0);
            resolve();
          }
        }
      });
      socket.on('error', reject);
      socket.on('close', () => {
        if (!finished) closedEarly++;
        reject(new Error('/api/events closed before its hello'));
      });
    });

  // Open in batches so the accept queue is not the thing being measured.
  const connectStart = Date.now();
  for (let i = 0; i < opts.clients; i += 100) {
    await Promise.all(Array.from({ length: Math.min(100, opts.clients - i) }, (_, j) => open(i + j)));
  }
  const connectAllS = (Date.now() - connectStart) / 1000;
  log(`realtime: ${connected} SSE clients connected in ${connectAllS.toFixed(1)} s`);
  await sleep(2000);
  const rssAfter = rssKb(opts.pid);
  const heapAfter = await heapUsed(opts.pid, opts.heapFile);

  const sql = connect(opts.databaseUrl, 1);
  const serverCpu0 = cpuMs(opts.pid);
  const benchCpu0 = process.cpuUsage();
  const cpu = { server: 0, bench: 0 };
  let loadAfter: number | undefined;
  try {
    for (let e = 0; e < opts.events; e++) {
      const event = {
        id: `bench-${Date.now().toString(36)}-${e}`,
        topic: 'public',
        type: 'pull.created',
        data: {
          ownedCardId: '00000000-0000-4000-8000-000000000000',
          openingId: '00000000-0000-4000-8000-000000000000',
          cardId: '00000000-0000-4000-8000-000000000000',
          cardName: 'Bench card',
          classId: '00000000-0000-4000-8000-000000000000',
          valueCents: 12_345,
          productId: '00000000-0000-4000-8000-000000000000',
          username: 'bench',
          createdAt: new Date().toISOString(),
          sentAt: Date.now(),
        },
      };
      await sql`select pg_notify('packvault_events', ${JSON.stringify(event)})`;
      await sleep(500);
    }
    // Let the last deliveries land.
    const expected = opts.events * connected;
    for (let w = 0; w < 20 && latencies.length < expected; w++) await sleep(250);
    cpu.server = cpuMs(opts.pid) - serverCpu0;
    const b = process.cpuUsage(benchCpu0);
    cpu.bench = (b.user + b.system) / 1000;
    loadAfter = loadavg()[0]!;
  } finally {
    await sql.end();
    finished = true;
    for (const s of sockets) s.destroy();
  }
  return {
    clients: opts.clients,
    connected,
    events: opts.events,
    deliveries: latencies.length,
    expected_deliveries: opts.events * connected,
    p50_ms: percentile(latencies, 50),
    p95_ms: percentile(latencies, 95),
    p99_ms: percentile(latencies, 99),
    max_ms: percentile(latencies, 100),
    rss_before_mb: round(rssBefore / 1024, 1)!,
    rss_after_mb: round(rssAfter / 1024, 1)!,
    kb_per_connection: connected ? round((rssAfter - rssBefore) / connected, 1) : null,
    heap_before_mb: heapBefore === null ? null : round(heapBefore / 1024, 1),
    heap_after_mb: heapAfter === null ? null : round(heapAfter / 1024, 1),
    heap_kb_per_connection: heapBefore === null || heapAfter === null || !connected ? null : round((heapAfter - heapBefore) / connected, 1),
    connect_all_s: round(connectAllS, 1)!,
    connect_p50_ms: percentile(connectMs, 50),
    connect_p99_ms: percentile(connectMs, 99),
    event_span_max_ms: percentile([...span.values()], 100),
    event_span_p50_ms: percentile([...span.values()], 50),
    load_before: round(loadBefore, 2)!,
    load_after: round(loadAfter ?? loadavg()[0]!, 2)!,
    closed_early: closedEarly,
    clients_missing_events: received.filter((r) => r < opts.events).length,
    server_cpu_ms_per_event: opts.events ? round(cpu.server / opts.events, 1) : null,
    bench_cpu_ms_per_event: opts.events ? round(cpu.bench / opts.events, 1) : null,
  };
}

/**
 * The server's V8 heap in use, in KiB: SIGUSR2 makes lib/heap-probe.mjs (preloaded into the server)
 * collect garbage and write process.memoryUsage() to `file`. Null without the probe.
 */
async function heapUsed(pid: number, file: string | undefined): Promise<number | null> {
  if (!file) return null;
  const mtime = () => {
    try {
      return statSync(file).mtimeMs;
    } catch {
      return 0;
    }
  };
  const before = mtime();
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 100; i++) {
    await sleep(50);
    if (mtime() !== before) {
      try {
        return (JSON.parse(readFileSync(file, 'utf8')) as { heapUsed: number }).heapUsed / 1024;
      } catch {
        // Caught mid-write; the next look sees all of it.
      }
    }
  }
  return null;
}
