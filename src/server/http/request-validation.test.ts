import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAdminWithMfa, type TestUser } from '../test/auth-helpers.ts';
import { createTestContext, type TestContext } from '../test/harness.ts';

/**
 * Request validation walked over every registered route, so routes added later are covered:
 * a path id that cannot exist is a 404 like an unknown one, and every date filter refuses
 * impossible dates with a 400 that names the field.
 */

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';
/** Ids no route can know: too short, not an id at all, a uuid with a non-hex digit. */
const MALFORMED = ['1', 'not-an-id', '00000000-0000-4000-8000-00000000000g'];

interface ParamRoute {
  method: string;
  key: string;
  url: (value: string) => string;
}

let t: TestContext;
let owner: TestUser;
let routes: ParamRoute[];

beforeAll(async () => {
  t = await createTestContext();
  // An owner after two-factor passes every guard, so what answers is the route itself.
  owner = await signInAdminWithMfa(t, { role: 'owner' });
  const seen = new Map<string, ParamRoute>();
  for (const r of t.app.routes) {
    // Better Auth's catch-all validates its own paths.
    if (!r.path.startsWith('/api/') || r.path.startsWith('/api/auth/') || r.method === 'ALL' || !r.path.includes('/:')) continue;
    const key = `${r.method} ${r.path}`;
    if (!seen.has(key)) {
      seen.set(key, { method: r.method, key, url: (v) => r.path.replace(/:[A-Za-z_]+(\{[^}]*\})?/g, encodeURIComponent(v)) });
    }
  }
  routes = [...seen.values()];
});
afterAll(() => t.close());

function call(method: string, url: string) {
  return t.request(url, { method, headers: owner.headers, ...(UNSAFE.has(method) ? { json: {} } : {}) });
}

async function errorOf(res: Response) {
  const body = (await res.json().catch(() => null)) as { error?: { code?: string; fields?: Record<string, string[]> } } | null;
  return body?.error;
}

describe('path ids', () => {
  it('finds the detail routes (sanity)', () => {
    const keys = routes.map((r) => r.key);
    expect(keys).toContain('GET /api/admin/catalog/cards/:id');
    expect(keys).toContain('GET /api/shop/products/:id');
    expect(routes.length).toBeGreaterThan(20);
  });

  it('a malformed id answers 404 not_found on every route with a path param, whatever the method', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      for (const bad of MALFORMED) {
        const res = await call(route.method, route.url(bad));
        const err = await errorOf(res);
        if (res.status === 404 && err?.code === 'not_found') continue;
        // A state change is sent with an empty body: where any string may be an id (user ids),
        // the path passes and the body is what fails. That 400 must not be about the path.
        const bodyOnly = UNSAFE.has(route.method) && res.status === 400 && err?.code === 'validation_failed' && !Object.keys(err.fields ?? {}).includes('id');
        if (!bodyOnly) failures.push(`${route.key} (${bad}) → ${res.status} ${err?.code}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('a malformed user id with a valid body is the same 404', async () => {
    for (const bad of MALFORMED) {
      const headers = { ...owner.headers, 'Idempotency-Key': crypto.randomUUID() };
      const ban = await t.request(`/api/admin/users/${bad}/ban`, { method: 'POST', headers, json: { reason: 'probe reason' } });
      expect(ban.status, `ban ${bad}`).toBe(404);
      const adjust = await t.request(`/api/admin/users/${bad}/balance/adjust`, { method: 'POST', headers, json: { amountCents: 100, reason: 'probe reason' } });
      expect(adjust.status, `adjust ${bad}`).toBe(404);
    }
  });

  it('a well-formed unknown id answers the same 404 on every detail (GET) route', async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => r.method === 'GET')) {
      const res = await call('GET', route.url(UNKNOWN_UUID));
      const code = (await errorOf(res))?.code;
      if (res.status !== 404 || code !== 'not_found') failures.push(`${route.key} → ${res.status} ${code}`);
    }
    expect(failures).toEqual([]);
  });

  it('query and body failures stay a 400 with field messages', async () => {
    const q = await call('GET', '/api/admin/audit?page=0');
    expect(q.status).toBe(400);
    expect((await errorOf(q))?.fields).toHaveProperty('page');
    const body = await t.request('/api/admin/products', { method: 'POST', headers: owner.headers, json: { name: '' } });
    expect(body.status).toBe(400);
    expect((await errorOf(body))?.code).toBe('validation_failed');
  });
});

describe('date filters', () => {
  /** Every GET operation in the OpenAPI document with a `from` query parameter, path ids filled in. */
  async function dateFilterRoutes(): Promise<string[]> {
    const doc = (await (await t.request('/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string }> }>>;
    };
    const out: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      const params = ops.get?.parameters ?? [];
      if (!params.some((p) => p.in === 'query' && p.name === 'from')) continue;
      // The only path ids of these routes are user ids: the owner's own history is a real one.
      out.push(path.replace(/\{[^}]+\}/g, owner.userId));
    }
    return out;
  }

  it('every from/to filter refuses malformed and impossible dates and backwards ranges with 400, and takes real ones', async () => {
    const paths = await dateFilterRoutes();
    for (const expected of ['/api/wallet/history', '/api/wallet/history.csv', '/api/admin/audit', '/api/admin/buybacks']) {
      expect(paths).toContain(expected);
    }
    expect(paths.some((p) => p.startsWith('/api/admin/users/'))).toBe(true);
    const bad: Array<[string, string]> = [
      ['from=2020-13-45', 'from'],
      ['to=2020-02-31', 'to'],
      ['from=2021-02-29', 'from'],
      ['to=2020-1-5', 'to'],
      ['from=yesterday', 'from'],
      ['from=2020-03-02&to=2020-03-01', 'to'],
    ];
    const failures: string[] = [];
    for (const path of paths) {
      for (const [query, field] of bad) {
        const res = await call('GET', `${path}?${query}`);
        const err = await errorOf(res);
        if (res.status !== 400 || err?.code !== 'validation_failed' || !err.fields?.[field]?.length) {
          failures.push(`${path}?${query} → ${res.status} ${JSON.stringify(err)}`);
        }
      }
      for (const query of ['from=2020-02-29&to=2020-02-29', 'from=2024-01-01&to=2024-12-31']) {
        const res = await call('GET', `${path}?${query}`);
        if (res.status !== 200) failures.push(`${path}?${query} → ${res.status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('the audit log also takes date-times, and refuses an impossible one', async () => {
    expect((await call('GET', '/api/admin/audit?from=2024-01-01T10:00:00Z&to=2024-01-01T11:00:00%2B02:00')).status).toBe(400);
    expect((await call('GET', '/api/admin/audit?from=2024-01-01T10:00:00Z&to=2024-01-01T13:00:00%2B02:00')).status).toBe(200);
    expect((await call('GET', '/api/admin/audit?to=2024-02-30T10:00:00Z')).status).toBe(400);
  });
});
