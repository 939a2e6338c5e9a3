import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app.ts';
import { createRouter } from '../../http/openapi.ts';
import { createLogger } from '../../lib/logger.ts';
import { createTestContext, TEST_ORIGIN, type TestContext } from '../../test/harness.ts';

/** Issue 20 item 4: request ids, the request log and its redaction, and /metrics. */

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';

// ───────────── a strict reader of the Prometheus text exposition format (0.0.4) ─────────────

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = '[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\[\\\\"n])*"';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{((?:${LABEL})(?:,${LABEL})*,?)?\\})? ([Nn][Aa][Nn]|[+-][Ii][Nn][Ff]|-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)(?: -?\\d+)?$`);
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parseLabels(s: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of (s ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) out[m[1]!] = m[2]!;
  return out;
}

/** Throws on the first line that breaks the format; returns the samples and each family's type. */
function parseExposition(text: string) {
  const help = new Map<string, string>();
  const type = new Map<string, string>();
  const samples: Sample[] = [];
  const familyOf = (name: string) => {
    if (type.has(name)) return name;
    const base = name.replace(/_(bucket|sum|count)$/, '');
    if (base !== name && ['histogram', 'summary'].includes(type.get(base) ?? '')) return base;
    throw new Error(`sample ${name} has no # TYPE before it`);
  };
  expect(text.endsWith('\n')).toBe(true);
  for (const line of text.slice(0, -1).split('\n')) {
    // The format ignores empty lines (prom-client separates families with one).
    if (line === '') continue;
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
      if (!m) throw new Error(`bad comment line: ${line}`);
      if (!new RegExp(`^${NAME}$`).test(m[2]!)) throw new Error(`bad metric name: ${line}`);
      if (m[1] === 'HELP') help.set(m[2]!, m[3]!);
      else {
        if (!TYPES.has(m[3]!)) throw new Error(`bad type: ${line}`);
        if (type.has(m[2]!)) throw new Error(`second # TYPE for ${m[2]}`);
        type.set(m[2]!, m[3]!);
      }
      continue;
    }
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not "name{labels} value": ${JSON.stringify(line)}`);
    // Values are Go ParseFloat's: NaN and ±Inf in any case (prom-client writes an empty mean as "Nan").
    const v = m[3]!.toLowerCase();
    const value = v === '+inf' ? Infinity : v === '-inf' ? -Infinity : v === 'nan' ? NaN : Number(m[3]);
    samples.push({ name: m[1]!, labels: parseLabels(m[2]), value });
    familyOf(m[1]!);
  }
  for (const name of type.keys()) if (!help.has(name)) throw new Error(`${name} has no # HELP`);
  for (const name of help.keys()) if (!type.has(name)) throw new Error(`${name} has no # TYPE`);

  // Histograms: per label set, `le` ascending, counts never decreasing, +Inf equal to _count.
  for (const [family, t] of type) {
    if (t !== 'histogram') continue;
    const series = new Map<string, Array<{ le: number; value: number }>>();
    for (const s of samples.filter((x) => x.name === `${family}_bucket`)) {
      const { le, ...rest } = s.labels;
      if (le === undefined) throw new Error(`${family}_bucket without le`);
      const key = JSON.stringify(rest);
      if (!series.has(key)) series.set(key, []);
      series.get(key)!.push({ le: le === '+Inf' ? Infinity : Number(le), value: s.value });
    }
    for (const [key, buckets] of series) {
      for (let i = 1; i < buckets.length; i++) {
        if (!(buckets[i]!.le > buckets[i - 1]!.le)) throw new Error(`${family}${key}: le not ascending`);
        if (buckets[i]!.value < buckets[i - 1]!.value) throw new Error(`${family}${key}: bucket counts decrease`);
      }
      if (buckets.at(-1)!.le !== Infinity) throw new Error(`${family}${key}: no +Inf bucket`);
      const count = samples.find((x) => x.name === `${family}_count` && JSON.stringify(x.labels) === key);
      if (count?.value !== buckets.at(-1)!.value) throw new Error(`${family}${key}: +Inf bucket differs from _count`);
    }
  }
  return { samples, type };
}

describe('the exposition reader itself', () => {
  it('rejects what Prometheus would', () => {
    expect(() => parseExposition('# HELP a x\n# TYPE a counter\na 1\n')).not.toThrow();
    expect(() => parseExposition('a 1\n')).toThrow(/TYPE/);
    expect(() => parseExposition('# TYPE a counter\na 1\n')).toThrow(/HELP/);
    expect(() => parseExposition('# HELP a x\n# TYPE a counter\na{b=c} 1\n')).toThrow(/name\{labels\} value/);
    expect(() =>
      parseExposition('# HELP h x\n# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n'),
    ).toThrow(/decrease/);
  });
});

// ───────────── the app ─────────────

function boomModule() {
  const app = createRouter();
  app.get('/test-boom', () => {
    throw new Error('kaboom');
  });
  // Logs the request's headers and body the way a careless handler might: redaction must hold.
  app.post('/test-log', async (c) => {
    const body = (await c.req.json()) as Record<string, unknown>;
    c.get('log').info('handled', { headers: Object.fromEntries(c.req.raw.headers), ...body, req: { headers: Object.fromEntries(c.req.raw.headers) } });
    return c.json({ ok: true });
  });
  return app;
}

describe('request ids, the request log and /metrics', () => {
  let t: TestContext;
  let lines: string[];
  let app: ReturnType<typeof createApp>;
  const call = (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (!headers.has('origin')) headers.set('origin', TEST_ORIGIN);
    return Promise.resolve(app.request(`${TEST_ORIGIN}${path}`, { ...init, headers }));
  };

  beforeAll(async () => {
    t = await createTestContext({ config: { metricsToken: METRICS_TOKEN } });
    lines = [];
    // A second app on the same database, logging into `lines`.
    app = createApp({ ...t.deps, log: createLogger('info', {}, (l) => lines.push(l)) }, { extraApiModules: [boomModule] });
  });
  afterAll(() => t.close());

  it('keeps a sane incoming X-Request-Id and answers with it', async () => {
    const res = await call('/api/health', { headers: { 'x-request-id': 'edge-abc.123_x-Y' } });
    expect(res.headers.get('x-request-id')).toBe('edge-abc.123_x-Y');
  });

  it.each([['has spaces in it'], ['x'.repeat(129)], ['new\u00e9line'], ['a,b']])('replaces an unsafe one (%s) with a fresh UUID', async (bad) => {
    const res = await call('/api/health', { headers: { 'x-request-id': bad } });
    const id = res.headers.get('x-request-id');
    expect(id).not.toBe(bad);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('generates one when none is sent, and sets it on errors too', async () => {
    const res404 = await call('/api/no-such-thing');
    expect(res404.status).toBe(404);
    expect(res404.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const res401 = await call('/api/wallet');
    expect(res401.headers.get('x-request-id')).toBeTruthy();
  });

  it('a 500 carries the request id in its body, its header and its error log line', async () => {
    lines.length = 0;
    const res = await call('/api/test-boom', { headers: { 'x-request-id': 'trace-500' } });
    expect(res.status).toBe(500);
    expect(res.headers.get('x-request-id')).toBe('trace-500');
    const body = (await res.json()) as { error: { code: string; requestId?: string; message: string } };
    expect(body.error.code).toBe('internal_error');
    expect(body.error.requestId).toBe('trace-500');
    expect(JSON.stringify(body)).not.toContain('kaboom');
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const errLine = logged.find((l) => l.msg === 'unhandled error');
    expect(errLine).toMatchObject({ level: 'error', reqId: 'trace-500' });
    expect(JSON.stringify(errLine)).toContain('kaboom');
  });

  it('logs one line per request: method, route pattern, status, duration and request id', async () => {
    lines.length = 0;
    await call('/api/shop/products/00000000-0000-4000-8000-000000000000', { headers: { 'x-request-id': 'one-line' } });
    const reqLines = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'request');
    expect(reqLines).toHaveLength(1);
    expect(reqLines[0]).toMatchObject({ level: 'info', reqId: 'one-line', method: 'GET', status: 404 });
    expect(reqLines[0]!.route).toBe('/api/shop/products/:id');
    expect(typeof reqLines[0]!.ms).toBe('number');
  });

  it('a log line of a request never holds its cookie, authorization, token, password or email', async () => {
    lines.length = 0;
    const res = await call('/api/test-log', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: 'better-auth.session_token=SESSION-COOKIE-VALUE.sig',
        authorization: 'Bearer BEARER-TOKEN-VALUE',
      },
      body: JSON.stringify({ token: 'BODY-TOKEN-VALUE', password: 'PASSWORD-VALUE', email: 'someone@example.test', user: { email: 'nested@example.test' } }),
    });
    expect(res.status).toBe(200);
    const out = lines.join('\n');
    expect(out).toContain('"msg":"handled"');
    for (const secret of ['SESSION-COOKIE-VALUE', 'BEARER-TOKEN-VALUE', 'BODY-TOKEN-VALUE', 'PASSWORD-VALUE', 'someone@example.test', 'nested@example.test']) {
      expect(out).not.toContain(secret);
    }
    for (const l of lines) expect(() => JSON.parse(l)).not.toThrow();
  });

  it('/metrics: 401 without or with a wrong bearer token', async () => {
    const none = await call('/metrics');
    expect(none.status).toBe(401);
    expect(none.headers.get('x-request-id')).toBeTruthy();
    const wrong = await call('/metrics', { headers: { authorization: 'Bearer not-the-token' } });
    expect(wrong.status).toBe(401);
    const basic = await call('/metrics', { headers: { authorization: `Basic ${METRICS_TOKEN}` } });
    expect(basic.status).toBe(401);
  });

  it('/metrics: valid Prometheus text with route patterns, business counters, the pool, queues and event-loop lag', async () => {
    await call('/api/shop/products/11111111-1111-4111-8111-111111111111');
    await call('/api/health');
    const res = await call('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    const { samples, type } = parseExposition(text);
    expect(type.get('packvault_http_requests_total')).toBe('counter');
    expect(type.get('packvault_http_request_duration_seconds')).toBe('histogram');
    for (const name of ['packvault_pack_opens_total', 'packvault_deposits_total', 'packvault_buybacks_total']) expect(type.get(name)).toBe('counter');
    for (const name of ['packvault_sse_clients', 'packvault_db_pool_max', 'packvault_mail_outbox_pending', 'packvault_job_last_run_age_seconds']) expect(type.get(name)).toBe('gauge');
    expect(type.has('nodejs_eventloop_lag_seconds')).toBe(true);
    const product = samples.find((s) => s.name === 'packvault_http_requests_total' && s.labels.route === '/api/shop/products/:id');
    expect(product?.labels).toMatchObject({ method: 'GET', status_class: '4xx' });
    // Raw paths (ids) never become labels.
    expect(text).not.toContain('11111111-1111');
    expect(samples.find((s) => s.name === 'packvault_db_pool_max')?.labels.driver).toBe(t.deps.dbh.kind);
  });

  it('/metrics does not exist without METRICS_TOKEN', async () => {
    const plain = await createTestContext();
    try {
      const res = await plain.request('/metrics', { headers: { authorization: 'Bearer anything-at-all-here' } });
      expect(res.status).toBe(404);
      expect(res.headers.get('x-request-id')).toBeTruthy();
    } finally {
      await plain.close();
    }
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await (await call('/api/openapi.json')).json()) as {
      paths: Record<string, { get?: { security?: unknown } }>;
      components?: { securitySchemes?: Record<string, unknown> };
    };
    expect(doc.paths['/metrics']?.get?.security).toEqual([{ metricsBearer: [] }]);
    expect(doc.components?.securitySchemes?.metricsBearer).toEqual({ type: 'http', scheme: 'bearer' });
  });
});
