import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitBody } from './body-limit.ts';
import type { AppEnv } from './types.ts';

/** Over real HTTP on @hono/node-server, as in production: the limit holds for sized and chunked bodies. */
let server: ServerType;
let port: number;

beforeAll(async () => {
  const app = new Hono<AppEnv>();
  app.use('*', limitBody(100, (c) => c.json({ error: 'too large' }, 413)));
  app.post('/echo', async (c) => c.json({ got: await c.req.json() }));
  await new Promise<void>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function post(body: string, chunked: boolean): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'content-type': 'application/json' };
    if (!chunked) headers['content-length'] = Buffer.byteLength(body);
    const req = request({ host: '127.0.0.1', port, path: '/echo', method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, body: text }));
    });
    // An early 413 may close the request before the whole body is written.
    req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : reject(err)));
    if (chunked) {
      // Two writes without a length: Node sends Transfer-Encoding: chunked.
      req.write(body.slice(0, 10));
      req.end(body.slice(10));
    } else req.end(body);
  });
}

describe('limitBody', () => {
  const small = JSON.stringify({ productId: 'p', quantity: 1 });
  const large = JSON.stringify({ pad: 'x'.repeat(200) });

  it('passes a body within the limit, sized or chunked, to the route intact', async () => {
    for (const chunked of [false, true]) {
      const res = await post(small, chunked);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toEqual({ got: { productId: 'p', quantity: 1 } });
    }
  });

  it('answers 413 for a body over the limit, sized or chunked', async () => {
    for (const chunked of [false, true]) expect((await post(large, chunked)).status).toBe(413);
  });
});
