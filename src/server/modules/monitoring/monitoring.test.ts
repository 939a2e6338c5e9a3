import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monitoringReports } from '../../db/schema/index.ts';
import { createTestContext, TEST_ORIGIN, type TestContext } from '../../test/harness.ts';
import { ingestUrlFromDsn } from './envelope.ts';

const LOCAL_DSN = `${TEST_ORIGIN}/monitoring`;

function envelope(dsn: string | undefined, message = 'TypeError: x is undefined') {
  const header: Record<string, unknown> = { event_id: 'abc123', sent_at: new Date().toISOString() };
  if (dsn) header.dsn = dsn;
  return [
    JSON.stringify(header),
    JSON.stringify({ type: 'event' }),
    JSON.stringify({ level: 'error', exception: { values: [{ type: 'TypeError', value: message }] } }),
  ].join('\n');
}

const post = (t: TestContext, body: string, ip = '10.0.0.1') =>
  t.request('/monitoring', {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/x-sentry-envelope', 'x-forwarded-for': ip },
  });

describe('POST /monitoring without SENTRY_DSN', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ config: { trustProxy: true } });
  });
  afterAll(() => t.close());

  it('stores a valid report', async () => {
    const res = await post(t, envelope(LOCAL_DSN));
    expect(res.status).toBe(200);
    const rows = await t.deps.db.select().from(monitoringReports);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.message).toContain('x is undefined');
  });

  it('refuses a malformed envelope with 400', async () => {
    expect((await post(t, 'not json\n{}')).status).toBe(400);
    expect((await post(t, '{"dsn":"x"}')).status).toBe(400);
  });

  it('refuses a DSN other than the configured one with 403', async () => {
    const res = await post(t, envelope('https://key@evil.example/1'));
    expect(res.status).toBe(403);
    expect((await post(t, envelope(undefined))).status).toBe(403);
  });

  it('refuses bodies over the 16 KB cap with 413', async () => {
    const res = await post(t, envelope(LOCAL_DSN, 'x'.repeat(16 * 1024 + 1)));
    expect(res.status).toBe(413);
  });

  it('accepts POST only', async () => {
    const res = await t.request('/monitoring');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('rate-limits per IP', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) statuses.push((await post(t, envelope(LOCAL_DSN), '10.9.9.9')).status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.slice(0, 25).every((s) => s === 200)).toBe(true);
    // Another address is not affected.
    expect((await post(t, envelope(LOCAL_DSN), '10.9.9.10')).status).toBe(200);
  });
});

describe('POST /monitoring with SENTRY_DSN', () => {
  let t: TestContext;
  let server: ReturnType<typeof createServer>;
  const received: Array<{ url: string; headers: IncomingHttpHeaders; body: string }> = [];
  let dsn = '';

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ url: req.url!, headers: req.headers, body });
        res.end('{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    dsn = `http://publickey@127.0.0.1:${(server.address() as AddressInfo).port}/42`;
    t = await createTestContext({ config: { sentryDsn: dsn } });
  });
  afterAll(async () => {
    await t.close();
    server.close();
  });

  it('derives the ingest URL from the DSN only', () => {
    expect(ingestUrlFromDsn('https://k@o1.ingest.sentry.io/123')).toBe('https://o1.ingest.sentry.io/api/123/envelope/');
  });

  it('forwards the envelope without cookies or auth headers, and stores nothing', async () => {
    const body = envelope(dsn);
    const res = await t.request('/monitoring', {
      method: 'POST',
      body,
      headers: { cookie: 'session=secret', authorization: 'Bearer secret' },
    });
    expect(res.status).toBe(200);
    expect(received).toHaveLength(1);
    expect(received[0]!.url).toBe('/api/42/envelope/');
    expect(received[0]!.body).toBe(body);
    expect(received[0]!.headers.cookie).toBeUndefined();
    expect(received[0]!.headers.authorization).toBeUndefined();
    expect(await t.deps.db.select().from(monitoringReports)).toHaveLength(0);
  });

  it('refuses an envelope addressed to another DSN', async () => {
    const res = await t.request('/monitoring', { method: 'POST', body: envelope('http://other@127.0.0.1:1/42') });
    expect(res.status).toBe(403);
    expect(received).toHaveLength(1);
  });
});
