import http from 'node:http';
import { connect } from './pg.ts';
import { rssKb } from './server.ts';
import { log, percentile, round, sleep } from './util.ts';

export interface RealtimeResult {
  clients: number;
  connected: number;
  events: number;
  deliveries: number;
  expected_deliveries: number;
  p50_ms: number | null;
  p99_ms: number | null;
  max_ms: number | null;
  rss_before_mb: number;
  rss_after_mb: number;
  kb_per_connection: number | null;
}

/**
 * `clients` SSE connections on /api/events; then `events` top-pull events are published the way
 * the bus does it (pg_notify on 'packvault_events', its JSON shape) carrying the send time; the
 * latency is arrival − send for every client and event.
 */
export async function realtimeBench(opts: { origin: string; databaseUrl: string; pid: number; clients: number; events: number }): Promise<RealtimeResult> {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const latencies: number[] = [];
  const requests: http.ClientRequest[] = [];
  let connected = 0;
  await sleep(1000);
  const rssBefore = rssKb(opts.pid);
  const url = new URL('/api/events', opts.origin);

  const open = () =>
    new Promise<void>((resolve, reject) => {
      const req = http.get(url, { agent, headers: { accept: 'text/event-stream' } }, (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`/api/events answered ${res.statusCode}`));
          res.resume();
          return;
        }
        res.setEncoding('utf8');
        let buf = '';
        let hello = false;
        res.on('data', (chunk: string) => {
          const now = Date.now();
          buf += chunk;
          let i: number;
          while ((i = buf.indexOf('\n\n')) !== -1) {
            const msg = buf.slice(0, i);
            buf = buf.slice(i + 2);
            if (!hello && msg.includes('event: hello')) {
              hello = true;
              connected++;
              resolve();
            } else if (msg.includes('event: pull.created')) {
              const line = msg.split('\n').find((l) => l.startsWith('data: '));
              if (line) latencies.push(now - (JSON.parse(line.slice(6)) as { sentAt: number }).sentAt);
            }
          }
        });
      });
      req.on('error', reject);
      requests.push(req);
    });

  // Open in batches so the accept queue is not the thing being measured.
  for (let i = 0; i < opts.clients; i += 100) {
    await Promise.all(Array.from({ length: Math.min(100, opts.clients - i) }, open));
  }
  log(`realtime: ${connected} SSE clients connected`);
  await sleep(2000);
  const rssAfter = rssKb(opts.pid);

  const sql = connect(opts.databaseUrl, 1);
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
  } finally {
    await sql.end();
    for (const r of requests) r.destroy();
    agent.destroy();
  }
  return {
    clients: opts.clients,
    connected,
    events: opts.events,
    deliveries: latencies.length,
    expected_deliveries: opts.events * connected,
    p50_ms: percentile(latencies, 50),
    p99_ms: percentile(latencies, 99),
    max_ms: percentile(latencies, 100),
    rss_before_mb: round(rssBefore / 1024, 1)!,
    rss_after_mb: round(rssAfter / 1024, 1)!,
    kb_per_connection: connected ? round((rssAfter - rssBefore) / connected, 1) : null,
  };
}
