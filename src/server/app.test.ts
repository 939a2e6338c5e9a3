import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_LIST, fillPath } from '../shared/routes.ts';
import { createTestContext, type TestContext } from './test/harness.ts';

let t: TestContext;
let dist: string;
beforeAll(async () => {
  // A fixture front end without a server bundle: whether a developer has built dist/ must not
  // change these answers (a built renderer looks up /shop/1 and rightly answers 404 for it).
  dist = mkdtempSync(path.join(tmpdir(), 'pv-app-'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html><head></head><body><div id="root"></div></body></html>');
  t = await createTestContext({ appOptions: { webDistDir: dist } });
});
afterAll(async () => {
  await t.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('health', () => {
  it('reports ok (liveness only)', async () => {
    const res = await t.request('/api/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });
});

describe('API conventions', () => {
  it('answers unknown API paths with a JSON 404', async () => {
    const res = await t.request('/api/nope/nothing');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
    const body = await res.json();
    expect(body.error.code).toBe('not_found');
  });

  it('sets security headers and a request id', async () => {
    const res = await t.request('/api/health');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('publishes an OpenAPI document', async () => {
    const res = await t.request('/api/openapi.json');
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toMatch(/^3\.1/);
    expect(doc.paths['/api/health']).toBeDefined();
    expect(doc.paths['/api/ready']).toBeDefined();
  });
});

describe('page routes', () => {
  // /pulls/$id looks its pull up and answers 404 for an unknown one (modules/pulls/pulls.test.ts).
  const pages = ROUTE_LIST.filter((r) => !r.notFound && r.id !== 'pull');
  it.each(pages.map((r) => [r.path, r] as const))('%s answers 200 with the app', async (_p, route) => {
    const path = fillPath(route.path, { id: '1', referralCode: 'FRIEND1' });
    const res = await t.request(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
  });

  it.each(['/no-such-page', '/shop/1/extra', '/admin/no-such-page', '/admin/users/1/nope'])(
    '%s answers 404 with the app',
    async (path) => {
      const res = await t.request(path);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('text/html');
    },
  );

  it('lists every route of original-spec.md', () => {
    const specPaths = [
      '/', '/about', '/privacy-policy', '/raffle-terms', '/terms-of-service', '/cards', '/collect',
      '/daily-drop-winners', '/home', '/maintenance', '/open-pack', '/shop', '/shop/$id', '/top-pulls',
      '/invite/$referralCode', '/profile/account', '/profile/billing', '/profile/history',
      '/profile/notifications', '/profile/privacy-and-security', '/profile/referral', '/profile/shipping',
      '/auth-error', '/confirm-request', '/login-mfa', '/register-mfa', '/reset-password', '/update-password',
      '/admin/admins', '/admin/architects', '/admin/buyback', '/admin/cards', '/admin/class', '/admin/daily',
      '/admin/history', '/admin/owned', '/admin/products', '/admin/promo', '/admin/reset-password',
      '/admin/shipping', '/admin/shipping/cards', '/admin/shipping/from', '/admin/textures', '/admin/users',
      '/admin/architects/$id', '/admin/cards/$id', '/admin/class/$id', '/admin/daily/$id', '/admin/packs/$id',
      '/admin/products/$id', '/admin/promo/$id', '/admin/shipping/$id', '/admin/shipping/from/$id',
      '/admin/textures/$id', '/admin/users/$id', '/admin/users/$id/balance', '/admin/users/$id/history',
      '/admin/users/$id/shipping',
    ];
    const table = new Set(ROUTE_LIST.map((r) => r.path));
    for (const p of specPaths) expect(table, p).toContain(p);
  });
});

describe('probes without a database', () => {
  // Liveness used to fail with the database: an orchestrator would then restart every process at
  // once for an outage a restart cannot fix. Readiness is where "the database answers" lives now.
  it('health stays 200; ready answers 503 database_unreachable', async () => {
    const broken = await createTestContext();
    await broken.deps.dbh.close();
    const health = await broken.request('/api/health');
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await broken.request('/api/ready');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'not_ready', reason: 'database_unreachable' });
    await broken.close().catch(() => {});
  });
});
