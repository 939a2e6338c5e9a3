import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAdminWithoutMfa, signInAdminWithMfa, signUpAndSignIn, type TestUser } from './test/auth-helpers.ts';
import { mailRoutes } from './modules/mail/routes.ts';
import { createTestContext, type TestContext } from './test/harness.ts';

/**
 * Walks every route registered on the app, so routes added later are covered without anyone
 * remembering to: every /api/admin/* route needs the admin role and a second factor, and every
 * other /api route needs a session unless it is listed here as public on purpose.
 */
const PUBLIC_API_ROUTES = new Set([
  'GET /api/health',
  'GET /api/ready',
  'GET /api/config',
  // Maintenance mode's public state (the /maintenance page reads it).
  'GET /api/maintenance',
  'GET /api/openapi.json',
  // Who is signed in: null for a visitor.
  'GET /api/me',
  // Realtime stream: anyone may listen to public topics; user topics need a session inside.
  'GET /api/events',
  // Better Auth's own endpoints (sign-up, sign-in, reset…) guard themselves.
  'GET /api/auth/*',
  'POST /api/auth/*',
  'GET /api/account/username-available',
  // Development mailbox; not registered in production (see mail/routes.ts and the test below).
  'GET /api/dev/mailbox',
  // Public catalogue.
  'GET /api/cards',
  'GET /api/cards/:id',
  'GET /api/cards/:id/packs',
  // The same odds for many cards at once (a wishlist, a set's missing cards).
  'GET /api/shop/card-odds',
  'GET /api/cards/:id/value-history',
  'GET /api/catalog/classes',
  'GET /api/catalog/sets',
  'GET /api/uploads/:file',
  // Public shop window, top pulls and provably-fair proofs.
  'GET /api/shop/products',
  'GET /api/shop/products/:id',
  'GET /api/top-pulls',
  'GET /api/fairness/pools/:hash',
  // Odds revisions and realised returns (issue 44): published for anyone to check.
  'GET /api/fairness/products/:id/revisions',
  'GET /api/fairness/revisions/:hash',
  'GET /api/fairness/returns',
  // Shared pulls: a pull's public page data and its link-preview image.
  'GET /api/pulls/:id',
  'GET /api/pulls/:id/og.png',
  // Daily drops: the public pages and the published proofs.
  'GET /api/drops',
  'GET /api/drops/:id',
  'GET /api/drops/:id/proof',
  // The marketplace's public window (issue 43): active listings, one listing, a card's price comps.
  'GET /api/market',
  'GET /api/market/:id',
  'GET /api/market/cards/:id/comps',
  // Proof of the vault (issue 44): the key, the signed snapshots and their differences.
  'GET /api/vault/key',
  'GET /api/vault/snapshots',
  'GET /api/vault/snapshots/:seq',
  'GET /api/vault/diff',
  // Referral invites: public and rate-limited per address (the same 404 for any unknown code).
  'GET /api/referrals/invite/:code',
  'GET /api/referrals/remembered',
  // Payment provider callbacks: authenticated by signature, not by session.
  'POST /api/payments/stripe/webhook',
  // Mail unsubscribe links: authenticated by their signed token, rate-limited per address.
  'GET /api/notifications/unsubscribe',
  'POST /api/notifications/unsubscribe',
]);

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const PLACEHOLDER = 'authz-probe-0000';

interface ApiRoute {
  method: string;
  path: string;
  key: string;
  url: string;
}

function apiRoutes(t: TestContext): ApiRoute[] {
  const seen = new Map<string, ApiRoute>();
  for (const r of t.app.routes) {
    if (!r.path.startsWith('/api/') || r.method === 'ALL') continue;
    const key = `${r.method} ${r.path}`;
    if (seen.has(key)) continue;
    const url = r.path.replace(/:[A-Za-z_]+(\{[^}]*\})?/g, PLACEHOLDER).replace(/\*$/, 'probe');
    seen.set(key, { method: r.method, path: r.path, key, url });
  }
  return [...seen.values()];
}

let t: TestContext;
let routes: ApiRoute[];
let user: TestUser;
let adminNoMfa: TestUser;
let ownerNoMfa: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestContext();
  routes = apiRoutes(t);
  user = await signUpAndSignIn(t);
  adminNoMfa = await signInAdminWithoutMfa(t);
  ownerNoMfa = await signInAdminWithoutMfa(t, { role: 'owner' });
  admin = await signInAdminWithMfa(t, { role: 'admin' });
});
afterAll(() => t.close());

function call(route: ApiRoute, cookie?: string) {
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = cookie;
  return t.request(route.url, {
    method: route.method,
    headers,
    ...(UNSAFE.has(route.method) ? { json: {} } : {}),
  });
}

async function codeOf(res: Response): Promise<string | undefined> {
  const body = (await res.json().catch(() => null)) as { error?: { code?: string } } | null;
  return body?.error?.code;
}

describe('route enumeration', () => {
  it('finds the routes (sanity)', () => {
    const keys = routes.map((r) => r.key);
    expect(keys).toContain('GET /api/admin/users');
    expect(keys).toContain('GET /api/me');
    expect(routes.length).toBeGreaterThan(20);
  });

  it('every public route in the allow-list still exists (keep the list honest)', () => {
    const keys = new Set(routes.map((r) => r.key));
    for (const k of PUBLIC_API_ROUTES) {
      if (k === 'GET /api/dev/mailbox') continue;
      expect(keys, k).toContain(k);
    }
  });

  it('every non-public /api route answers 401 to an anonymous request', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      if (PUBLIC_API_ROUTES.has(route.key)) continue;
      const res = await call(route);
      if (res.status !== 401) failures.push(`${route.key} → ${res.status}`);
    }
    expect(failures).toEqual([]);
  });

  it('every /api/admin route answers 403 admin_role_required to a signed-in user', async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => r.path.startsWith('/api/admin/'))) {
      const res = await call(route, user.cookie);
      const code = await codeOf(res);
      if (res.status !== 403 || code !== 'admin_role_required') failures.push(`${route.key} → ${res.status} ${code}`);
    }
    expect(failures).toEqual([]);
  });

  it('every /api/admin route answers 403 mfa_required to an admin or owner without a second factor', async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => r.path.startsWith('/api/admin/'))) {
      for (const who of [adminNoMfa, ownerNoMfa]) {
        const res = await call(route, who.cookie);
        const code = await codeOf(res);
        if (res.status !== 403 || code !== 'mfa_required') failures.push(`${route.key} (${who.username}) → ${res.status} ${code}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('an admin after two-factor gets through the guard (not 401/403 admin_role_required/mfa_required)', async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => r.path.startsWith('/api/admin/') && r.method === 'GET')) {
      const res = await call(route, admin.cookie);
      const code = res.status >= 400 ? await codeOf(res) : undefined;
      if (res.status === 401 || code === 'admin_role_required' || code === 'mfa_required') failures.push(`${route.key} → ${res.status} ${code}`);
    }
    expect(failures).toEqual([]);
  });

  it('refuses a state-changing request from another origin', async () => {
    const res = await t.request('/api/account/sessions/revoke-others', {
      method: 'POST',
      headers: { origin: 'https://evil.example', cookie: user.cookie },
      json: {},
    });
    expect(res.status).toBe(403);
    expect(await codeOf(res)).toBe('bad_origin');
  });
});

describe('production', () => {
  it('has no dev mailbox', async () => {
    const prod = mailRoutes({ ...t.deps, config: { ...t.deps.config, isProduction: true, env: 'production' } });
    expect(prod.routes.some((r) => r.path.includes('mailbox'))).toBe(false);
    expect((await prod.request('/dev/mailbox')).status).toBe(404);
    const dev = mailRoutes(t.deps);
    expect((await dev.request('/dev/mailbox')).status).toBe(200);
  });
});
