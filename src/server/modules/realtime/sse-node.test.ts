import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../deps.ts';
import type { DbHandle } from '../../db/client.ts';
import { createRouter } from '../../http/openapi.ts';
import { createLogger } from '../../lib/logger.ts';
import { testConfig } from '../../test/harness.ts';
import { createBus, type Bus } from './bus.ts';
import { MAX_QUEUED_BYTES } from './fanout.ts';
import { realtimeRoutes } from './routes.ts';

// app.request() has no Node response under the stream, so the direct-write path (and dropping a
// slow socket) only runs behind a real @hono/node-server. No database is needed: the in-process bus.
let bus: Bus;
let shutdown: AbortController;
let server: ReturnType<typeof serve>;
let port: number;
const serverSockets = new Set<net.Socket>();

beforeAll(async () => {
  const log = createLogger('silent');
  bus = await createBus({ kind: 'pglite', db: {} } as unknown as DbHandle, log);
  shutdown = new AbortController();
  const deps = { bus, log, shutdown: shutdown.signal, config: testConfig({ sseMaxStreamsPerAddress: 1000, sseMaxStreamsPerUser: 1000 }) } as unknown as Deps;
  const app = createRouter();
  app.use('*', async (c, next) => {
    const user = c.req.header('x-test-user');
    c.set('actor', user ? { userId: user, role: 'user', emailVerified: true, mfaPassed: false, sessionId: 's' } : null);
    await next();
  });
  app.route('/api', realtimeRoutes(deps));
  server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  server.on('connection', (s: net.Socket) => {
    serverSockets.add(s);
    s.on('close', () => serverSockets.delete(s));
  });
  await new Promise((r) => server.once('listening', r));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  shutdown.abort();
  await bus.close();
  await new Promise((r) => server.close(r));
});

/** A raw HTTP/1.1 SSE client; `body()` is the de-chunked response body so far. */
function client(headers: Record<string, string> = {}, opts: { pauseAfterHello?: boolean } = {}) {
  const socket = net.connect(port, '127.0.0.1');
  let raw = '';
  socket.setEncoding('latin1');
  socket.on('error', () => {});
  socket.write(`GET /api/events HTTP/1.1\r\nHost: localhost\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`);
  socket.on('data', (d: string) => {
    raw += d;
    if (opts.pauseAfterHello && raw.includes('event: hello')) socket.pause();
  });
  const body = () => {
    let rest = raw.slice(raw.indexOf('\r\n\r\n') + 4);
    let out = '';
    for (;;) {
      const e = rest.indexOf('\r\n');
      if (e === -1) break;
      const size = parseInt(rest.slice(0, e), 16);
      if (size === 0 || rest.length < e + 2 + size + 2) break;
      out += rest.slice(e + 2, e + 2 + size);
      rest = rest.slice(e + 2 + size + 2);
    }
    return out;
  };
  return { socket, body, raw: () => raw };
}

const until = async (check: () => boolean, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};
const numbers = (body: string) => [...body.matchAll(/data: \{"n":(\d+)\}/g)].map((m) => Number(m[1]));

describe('GET /api/events behind @hono/node-server', () => {
  it('keeps every event in order across the switch from the stream to direct writes', async () => {
    const first = await bus.publish('public', 'tick', { n: 0 });
    await bus.publish('public', 'tick', { n: 1 });
    const c = client({ 'last-event-id': first.id, 'x-test-user': 'alice' });
    // Bursts of several events in one tick, before, during and after the switch.
    let n = 2;
    const until200 = Date.now() + 200;
    while (Date.now() < until200) {
      for (let i = 0; i < 3; i++) await bus.publish(i === 1 ? 'user:alice' : 'public', 'tick', { n: n++ });
      await bus.publish('user:bob', 'tick', { n: -1 });
      await new Promise((r) => setTimeout(r, 1));
    }
    const last = n - 1;
    await until(() => numbers(c.body()).at(-1) === last);
    const got = numbers(c.body());
    expect(got).toEqual(Array.from({ length: last }, (_, i) => i + 1));
    expect(c.body()).not.toContain('"n":-1');
    expect(c.body().startsWith('event: hello\ndata: {"user":true}\nretry: 3000\n\n')).toBe(true);
    expect(c.raw()).toMatch(/^HTTP\/1\.1 200/);
    expect(c.raw()).toMatch(/\r\ncontent-type: text\/event-stream/i);
    c.socket.destroy();
  });

  it('cuts the connection of a client that stops reading; the others get everything', async () => {
    const slow = client({}, { pauseAfterHello: true });
    const fast = client();
    await until(() => fast.body().includes('event: hello') && slow.raw().includes('event: hello'));
    const slowOnServer = [...serverSockets].find((s) => s.remotePort === slow.socket.localPort)!;
    expect(slowOnServer).toBeDefined();
    const pad = 'x'.repeat(4000);
    let sent = 0;
    // The socket buffers fill first (sizes depend on the kernel), then our limit applies.
    while (!slowOnServer.destroyed && sent < 20_000) {
      for (let i = 0; i < 20; i++, sent++) await bus.publish('public', 'big', { pad });
      await new Promise((r) => setImmediate(r));
    }
    expect(slowOnServer.destroyed).toBe(true);
    expect(sent * 4000).toBeGreaterThan(MAX_QUEUED_BYTES);
    await until(() => fast.body().split('event: big').length - 1 === sent, 10_000).catch((err: unknown) => {
      throw new Error(`${String(err)}: fast got ${fast.body().split('event: big').length - 1} of ${sent}`);
    });
    slow.socket.destroy();
    fast.socket.destroy();
  });

  it('ends open responses on shutdown', async () => {
    const c = client();
    await until(() => c.body().includes('event: hello'));
    await new Promise((r) => setTimeout(r, 100));
    shutdown.abort();
    await until(() => c.raw().endsWith('\r\n0\r\n\r\n'));
    expect(c.body()).toMatch(/event: server\.closing\ndata: \{"retryMs":\d+\}\nretry: \d+\n\n$/);
    c.socket.destroy();
  });
});
