import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import { createRequestDrain } from './drain.ts';

/** A server whose one handler waits until the test lets it go. */
function setup() {
  let release: () => void = () => {};
  let entered: () => void = () => {};
  const enteredP = new Promise<void>((r) => (entered = r));
  const drain = createRequestDrain(async (req: Request) => {
    if (new URL(req.url).pathname === '/slow') {
      entered();
      await new Promise<void>((r) => (release = r));
    }
    return new Response('done');
  });
  const server = serve({ fetch: drain.fetch, port: 0, hostname: '127.0.0.1' }) as http.Server;
  const port = () => (server.address() as AddressInfo).port;
  const agent = new http.Agent({ keepAlive: true });
  const get = (path: string) =>
    new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port: port(), path, agent }, (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
        })
        .on('error', reject);
    });
  return { drain, server, get, agent, entered: enteredP, release: () => release(), listening: new Promise((r) => server.once('listening', r)) };
}

let cleanup: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanup) c();
  cleanup = [];
});

const state = <T>(p: Promise<T>) => {
  const s = { done: false };
  void p.then(() => (s.done = true));
  return s;
};

describe('request drain', () => {
  it('counts a request until it is answered, and closes its connection once draining', async () => {
    const s = setup();
    cleanup.push(() => (s.agent.destroy(), s.server.close()));
    await s.listening;
    expect((await s.get('/fast')).connection).toBe('keep-alive');
    expect(s.drain.inFlight).toBe(0);

    const slow = s.get('/slow');
    await s.entered;
    expect(s.drain.inFlight).toBe(1);
    const idle = state(s.drain.idle());
    s.drain.startDraining();
    await new Promise((r) => setTimeout(r, 50));
    expect(idle.done).toBe(false);

    s.release();
    const res = await slow;
    expect(res).toEqual({ status: 200, connection: 'close', body: 'done' });
    await new Promise((r) => setTimeout(r, 10));
    expect(idle.done).toBe(true);
    expect(s.drain.inFlight).toBe(0);
  });

  it('keeps counting a request whose client hung up until its handler is done', async () => {
    const s = setup();
    cleanup.push(() => (s.agent.destroy(), s.server.close()));
    await s.listening;
    const req = http.get({ host: '127.0.0.1', port: (s.server.address() as AddressInfo).port, path: '/slow' });
    req.on('error', () => {});
    await s.entered;
    req.destroy();
    await new Promise((r) => setTimeout(r, 50));
    // The socket is gone, the handler (a transaction, say) is not: the database must stay open.
    expect(s.drain.inFlight).toBe(1);
    s.release();
    await s.drain.idle();
    expect(s.drain.inFlight).toBe(0);
  });

  it('refuses requests with 503 once the database is closing', async () => {
    const s = setup();
    cleanup.push(() => (s.agent.destroy(), s.server.close()));
    await s.listening;
    s.drain.refuse();
    const res = await s.get('/fast');
    expect(res.status).toBe(503);
    expect(res.connection).toBe('close');
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'shutting_down' } });
    expect(s.drain.inFlight).toBe(0);
  });
});
