import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { account, user as userTable } from '../../db/schema/auth.ts';
import { auditLog } from '../../db/schema/audit.ts';
import type { Config } from '../../config.ts';
import { cookiesFrom, signUpAndSignIn, totpCode, type TestUser } from '../../test/auth-helpers.ts';
import { createTestContext, TEST_ORIGIN, type TestContext } from '../../test/harness.ts';
import { PASSWORD_CHECKS } from './password-limit.ts';

/**
 * The limits on Better Auth's endpoints hold whatever the request looks like: JSON or form body,
 * any X-Forwarded-For, behind a trusted proxy or not. Requests go through app.request with an env
 * that plays the socket, so the peer address is under the test's control.
 */

type Body = { json: unknown } | { form: Record<string, string> } | { multipart: Record<string, string> } | Record<string, never>;

interface Call {
  /** The address the client really has (what the proxy, if any, appends). */
  real: string;
  /** What the client itself writes into X-Forwarded-For. */
  spoof?: string;
  cookie?: string;
  origin?: string;
}

const PROXY = '10.0.0.2';

function send(t: TestContext, path: string, body: Body, call: Call): Promise<Response> {
  const trusted = t.deps.config.trustProxy !== false;
  const headers = new Headers({ origin: call.origin ?? TEST_ORIGIN });
  if (call.cookie) headers.set('cookie', call.cookie);
  // Behind the proxy, the proxy appends the address it saw to whatever the client sent.
  const xff = trusted ? [call.spoof, call.real].filter(Boolean).join(', ') : call.spoof;
  if (xff) headers.set('x-forwarded-for', xff);
  let payload: BodyInit | undefined;
  if ('json' in body) {
    headers.set('content-type', 'application/json');
    payload = JSON.stringify(body.json);
  } else if ('form' in body) {
    headers.set('content-type', 'application/x-www-form-urlencoded');
    payload = new URLSearchParams(body.form).toString();
  } else if ('multipart' in body) {
    const fd = new FormData();
    for (const [k, v] of Object.entries(body.multipart)) fd.set(k, v);
    payload = fd;
  }
  const env = { incoming: { socket: { remoteAddress: trusted ? PROXY : call.real } } };
  return Promise.resolve(t.app.request(`${TEST_ORIGIN}${path}`, { method: 'POST', headers, body: payload }, env));
}

let n = 0;
const uniq = () => `${Date.now().toString(36)}${(n++).toString(36)}`;
const address = () => `198.51.${n % 250}.${(n++ % 250) + 1}`;
const spoofs = (i: number) => `203.0.${i % 250}.${(i * 7) % 250}`;

const contexts: TestContext[] = [];
async function context(config: Partial<Config>): Promise<TestContext> {
  const t = await createTestContext({ config });
  contexts.push(t);
  return t;
}
afterAll(async () => {
  for (const t of contexts) await t.close();
});

describe.each([
  { trustProxy: false, label: 'TRUST_PROXY off' },
  { trustProxy: true, label: 'TRUST_PROXY on' },
])('auth limits with $label', ({ trustProxy }) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await context({ trustProxy });
  });

  describe('sign-in', () => {
    const signIn = (email: string, password: string, call: Call, kind: 'json' | 'form' | 'multipart' = 'json') =>
      send(t, '/api/auth/sign-in/email', kind === 'json' ? { json: { email, password } } : { [kind]: { email, password } } as Body, call);

    it('per email: once JSON is locked out, form-encoded, multipart, other addresses and the right password all get 429', async () => {
      const u = await signUpAndSignIn(t);
      const real = address();
      for (let i = 0; i < 10; i++) expect((await signIn(u.email, 'wrong-password-1', { real })).status).toBe(401);
      expect((await signIn(u.email, 'wrong-password-1', { real })).status).toBe(429);
      expect((await signIn(u.email, u.password, { real }, 'form')).status).toBe(429);
      expect((await signIn(u.email, u.password, { real }, 'multipart')).status).toBe(429);
      expect((await signIn(` ${u.email.toUpperCase()} `, u.password, { real })).status).toBe(429);
      expect((await signIn(u.email, u.password, { real, spoof: spoofs(1) })).status).toBe(429);
      expect((await signIn(u.email, u.password, { real: address(), spoof: spoofs(2) })).status).toBe(429);
      expect((await signIn(u.email, u.password, { real })).status).toBe(429);
    });

    it('form-encoded attempts count against the limit (and are refused: the API takes JSON only)', async () => {
      const u = await signUpAndSignIn(t);
      const real = address();
      for (let i = 0; i < 10; i++) {
        const r = await signIn(u.email, 'wrong-password-1', { real }, i % 2 ? 'form' : 'multipart');
        expect(r.status).toBe(415);
        expect((await r.json()).code).toBe('UNSUPPORTED_MEDIA_TYPE');
      }
      const right = await signIn(u.email, u.password, { real });
      expect(right.status).toBe(429);
      expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await signIn(u.email, u.password, { real }, 'form')).status).toBe(429);
    });

    it('per address: a rotating X-Forwarded-For does not open new buckets', async () => {
      const real = address();
      // Mostly form posts: they count as much as JSON ones and skip the password hashing.
      for (let i = 0; i < 30; i++) {
        const kind = i % 6 === 0 ? 'json' : 'form';
        const r = await signIn(`nobody-${uniq()}@example.test`, 'wrong-password-1', { real, spoof: spoofs(i) }, kind);
        expect(r.status).toBe(kind === 'json' ? 401 : 415);
      }
      expect((await signIn(`nobody-${uniq()}@example.test`, 'wrong-password-1', { real, spoof: spoofs(99) })).status).toBe(429);
      expect((await signIn(`nobody-${uniq()}@example.test`, 'wrong-password-1', { real, spoof: spoofs(100) }, 'form')).status).toBe(429);
      // Another client is unaffected: the bucket is the real address, not everyone.
      expect((await signIn(`nobody-${uniq()}@example.test`, 'wrong-password-1', { real: address(), spoof: spoofs(101) })).status).toBe(401);
    });
  });

  describe('password reset', () => {
    const reset = (email: string, call: Call, kind: 'json' | 'form' = 'json') =>
      send(
        t,
        '/api/auth/request-password-reset',
        kind === 'json' ? { json: { email, redirectTo: '/update-password' } } : { form: { email, redirectTo: '/update-password' } },
        call,
      );

    it('per email: JSON, form-encoded and rotating X-Forwarded-For all hit 429', async () => {
      const u = await signUpAndSignIn(t);
      const real = address();
      for (let i = 0; i < 3; i++) expect((await reset(u.email, { real, spoof: spoofs(i) })).status).toBe(200);
      expect((await reset(u.email, { real })).status).toBe(429);
      expect((await reset(u.email, { real }, 'form')).status).toBe(429);
      expect((await reset(u.email, { real, spoof: spoofs(7) })).status).toBe(429);
      expect((await reset(u.email.toUpperCase(), { real: address() })).status).toBe(429);
    });

    it('form-encoded requests count too', async () => {
      const u = await signUpAndSignIn(t);
      const real = address();
      for (let i = 0; i < 3; i++) expect((await reset(u.email, { real }, 'form')).status).toBe(415);
      expect((await reset(u.email, { real })).status).toBe(429);
    });

    it('per address: a rotating X-Forwarded-For does not open new buckets', async () => {
      const real = address();
      for (let i = 0; i < 10; i++) expect((await reset(`r-${uniq()}@example.test`, { real, spoof: spoofs(i) })).status).toBe(200);
      expect((await reset(`r-${uniq()}@example.test`, { real, spoof: spoofs(50) })).status).toBe(429);
      expect((await reset(`r-${uniq()}@example.test`, { real, spoof: spoofs(51) }, 'form')).status).toBe(429);
    });
  });

  describe('two-factor', () => {
    const verify = (code: string, call: Call, kind: 'json' | 'form' = 'json') =>
      send(t, '/api/auth/two-factor/verify-totp', kind === 'json' ? { json: { code } } : { form: { code } }, call);

    async function pending(u: TestUser, real: string): Promise<string> {
      const r = await send(t, '/api/auth/sign-in/email', { json: { email: u.email, password: u.password } }, { real });
      expect(r.status).toBe(200);
      expect((await r.json()).twoFactorRedirect).toBe(true);
      return cookiesFrom(r);
    }

    it('per user: after 5 wrong codes the right code gets 429 from any address, JSON or form', async () => {
      const u = await signUpAndSignIn(t, { twoFactor: true, mfa: false });
      const real = address();
      const cookie = await pending(u, real);
      for (let i = 0; i < 5; i++) expect((await verify('000000', { real, spoof: spoofs(i), cookie })).status).toBe(401);
      const cookie2 = await pending(u, real);
      expect((await verify(totpCode(u.totpSecret!), { real, spoof: spoofs(9), cookie: cookie2 })).status).toBe(429);
      expect((await verify(totpCode(u.totpSecret!), { real: address(), cookie: cookie2 })).status).toBe(429);
      // A form post never reaches the code check.
      expect([415, 429]).toContain((await verify(totpCode(u.totpSecret!), { real, cookie: cookie2 }, 'form')).status);
    });

    it('per address: codes tried across accounts with a rotating X-Forwarded-For hit 429, JSON or form', async () => {
      const real = address();
      let cookie = '';
      for (let i = 0; i < 30; i++) {
        // Three accounts, four JSON codes each (below their own lock), the rest form posts.
        if (i % 10 === 0) cookie = await pending(await signUpAndSignIn(t, { twoFactor: true, mfa: false }), address());
        const kind = i % 10 < 4 ? 'json' : 'form';
        const r = await verify('000000', { real, spoof: spoofs(i), cookie }, kind);
        expect(r.status).toBe(kind === 'json' ? 401 : 415);
      }
      expect((await verify('000000', { real, spoof: spoofs(77), cookie })).status).toBe(429);
      expect((await verify('000000', { real, spoof: spoofs(78), cookie }, 'form')).status).toBe(429);
    });
  });

  it('the session list and the audit log record the derived address', async () => {
    const u = await signUpAndSignIn(t);
    const real = address();
    const r = await send(t, '/api/auth/sign-in/email', { json: { email: u.email, password: u.password } }, { real, spoof: '6.6.6.6' });
    expect(r.status).toBe(200);
    const cookie = cookiesFrom(r);
    const list = await t.request('/api/account/sessions', { headers: { cookie } });
    expect(list.status).toBe(200);
    const { sessions } = (await list.json()) as { sessions: Array<{ ip: string | null; current: boolean }> };
    expect(sessions.find((s) => s.current)?.ip).toBe(real);

    const del = await send(t, '/api/account/delete', { json: { password: u.password, confirm: 'DELETE' } }, { real, spoof: '6.6.6.7', cookie });
    expect(del.status).toBe(200);
    const [row] = await t.deps.db
      .select({ ip: auditLog.ip })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'account.delete'), eq(auditLog.targetId, u.userId)));
    expect(row?.ip).toBe(real);
  });
});

describe('password checks while signed in', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await context({ trustProxy: true });
  });
  const post = (path: string, json: unknown, u: TestUser, real = address()) => send(t, path, { json }, { real, cookie: u.cookie });

  async function passwordHash(userId: string) {
    const [row] = await t.deps.db.select({ password: account.password }).from(account).where(eq(account.userId, userId));
    return row?.password;
  }

  it('change-password: wrong passwords from rotating addresses hit 429, then the right one is refused too', async () => {
    const u = await signUpAndSignIn(t);
    const before = await passwordHash(u.userId);
    for (let i = 0; i < PASSWORD_CHECKS.limit; i++) {
      const r = await post('/api/auth/change-password', { currentPassword: `wrong-${i}-password`, newPassword: 'a-new-long-passphrase-1' }, u);
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(429);
    }
    const right = await post('/api/auth/change-password', { currentPassword: u.password, newPassword: 'a-new-long-passphrase-1' }, u);
    expect(right.status).toBe(429);
    const body = await right.json();
    expect(body.code).toBe('RATE_LIMITED');
    expect(body.retryAfter).toBeGreaterThan(800);
    expect(await passwordHash(u.userId)).toBe(before);
    // The budget is shared: other password checks wait too.
    expect((await post('/api/account/delete', { password: u.password, confirm: 'DELETE' }, u)).status).toBe(429);
    expect((await post('/api/auth/two-factor/enable', { password: u.password }, u)).status).toBe(429);
  });

  it('account deletion: 429 after wrong passwords, and the account stays', async () => {
    const u = await signUpAndSignIn(t);
    for (let i = 0; i < PASSWORD_CHECKS.limit; i++) {
      const r = await post('/api/account/delete', { password: `wrong-${i}-password`, confirm: 'DELETE' }, u);
      expect(r.status).toBe(400);
    }
    const right = await post('/api/account/delete', { password: u.password, confirm: 'DELETE' }, u);
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(800);
    const [row] = await t.deps.db.select({ deletedAt: userTable.deletedAt }).from(userTable).where(eq(userTable.id, u.userId));
    expect(row?.deletedAt).toBeNull();
  });

  it('two-factor URI: 429 after wrong passwords, then the right one is refused', async () => {
    const u = await signUpAndSignIn(t, { twoFactor: true });
    for (let i = 0; i < PASSWORD_CHECKS.limit; i++) {
      const r = await post('/api/auth/two-factor/get-totp-uri', { password: `wrong-${i}-password` }, u);
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(429);
    }
    const right = await post('/api/auth/two-factor/get-totp-uri', { password: u.password }, u);
    expect(right.status).toBe(429);
    expect(JSON.stringify(await right.json())).not.toContain('otpauth');
  });

  it('two-factor enable and disable take from the same budget', async () => {
    const u = await signUpAndSignIn(t);
    for (let i = 0; i < PASSWORD_CHECKS.limit; i++) {
      const path = i % 2 ? '/api/auth/two-factor/enable' : '/api/auth/two-factor/disable';
      const r = await post(path, { password: `wrong-${i}-password` }, u);
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(429);
    }
    expect((await post('/api/auth/two-factor/enable', { password: u.password }, u)).status).toBe(429);
    // Another user is not affected.
    const other = await signUpAndSignIn(t);
    expect((await post('/api/auth/two-factor/enable', { password: other.password }, other)).status).toBe(200);
  });
});

describe('sign-up answers an existing email like a new one', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await context({});
  });

  it('same fields, same kinds of values, timestamps on both', async () => {
    const known = await signUpAndSignIn(t);
    const signUp = (email: string, username: string) =>
      t.request('/api/auth/sign-up/email', {
        method: 'POST',
        json: { email, password: 'violet-moth-lantern', username, ageConfirmed: true, termsAccepted: true },
      });
    const a = await signUp(known.email, `dup_${uniq()}`.slice(0, 20));
    const b = await signUp(`fresh-${uniq()}@example.test`, `new_${uniq()}`.slice(0, 20));
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    const [ja, jb] = [await a.json(), await b.json()];
    const kind = (v: unknown) => (v === null ? 'null' : typeof v === 'string' && !Number.isNaN(Date.parse(v)) && /T/.test(v) ? 'date' : typeof v);
    const shape = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, kind(v)]));
    expect(shape(ja.user)).toEqual(shape(jb.user));
    expect(shape(ja)).toEqual(shape(jb));
    expect(ja.user.ageConfirmedAt).toEqual(expect.any(String));
    expect(ja.user.termsAcceptedAt).toEqual(expect.any(String));
    for (const k of ['ageConfirmedAt', 'termsAcceptedAt', 'createdAt', 'updatedAt']) {
      expect(Math.abs(Date.parse(ja.user[k]) - Date.now())).toBeLessThan(60_000);
    }
    // Apart from what the caller chose and the clock, the values are the same.
    const rest = (o: Record<string, unknown>) => {
      const { id: _i, email: _e, name: _n, username: _u, createdAt: _c, updatedAt: _up, ageConfirmedAt: _a, termsAcceptedAt: _t, ...r } = o;
      return r;
    };
    expect(rest(ja.user)).toEqual(rest(jb.user));
    expect(ja.user.name).toBe(ja.user.username);
  });
});

describe('profile fields are capped', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await context({});
  });

  it('update-user refuses a 900 KB name, and any name over 100 characters, with 400', async () => {
    const u = await signUpAndSignIn(t);
    for (const name of ['x'.repeat(900 * 1024), 'y'.repeat(101)]) {
      const r = await t.request('/api/auth/update-user', { method: 'POST', json: { name }, headers: u.headers });
      expect(r.status).toBe(400);
      const body = await r.json();
      expect(body.code).toBe('NAME_TOO_LONG');
      expect(body.message).toMatch(/at most 100 characters/);
    }
    const [row] = await t.deps.db.select({ name: userTable.name }).from(userTable).where(eq(userTable.id, u.userId));
    expect(row?.name).toBe(u.username);
    const ok = await t.request('/api/auth/update-user', { method: 'POST', json: { name: `  ${'z'.repeat(100)}  ` }, headers: u.headers });
    expect(ok.status).toBe(200);
    const [after] = await t.deps.db.select({ name: userTable.name }).from(userTable).where(eq(userTable.id, u.userId));
    expect(after?.name).toBe('z'.repeat(100));
  });

  it('update-user refuses an empty name and an image that is not a short http(s) address', async () => {
    const u = await signUpAndSignIn(t);
    const update = (json: unknown) => t.request('/api/auth/update-user', { method: 'POST', json, headers: u.headers });
    expect((await update({ name: '   ' })).status).toBe(400);
    expect((await update({ image: `https://example.test/${'i'.repeat(900 * 1024)}` })).status).toBe(400);
    expect((await update({ image: 'javascript:alert(1)' })).status).toBe(400);
    expect((await update({ image: 12 })).status).toBe(400);
    expect((await update({ image: 'https://example.test/me.png' })).status).toBe(200);
    expect((await update({ image: null })).status).toBe(200);
  });

  it('sign-up refuses a name over 100 characters', async () => {
    const r = await t.request('/api/auth/sign-up/email', {
      method: 'POST',
      json: {
        email: `long-${uniq()}@example.test`,
        password: 'violet-moth-lantern',
        username: `ln_${uniq()}`.slice(0, 20),
        name: 'n'.repeat(101),
        ageConfirmed: true,
        termsAccepted: true,
      },
    });
    expect(r.status).toBe(400);
    expect((await r.json()).fields.name[0]).toMatch(/at most 100 characters/);
  });
});

describe('loopback aliases of PUBLIC_URL', () => {
  const aliases = ['http://127.0.0.1:3000', 'http://[::1]:3000'];

  async function tryOrigins(t: TestContext) {
    const u = await signUpAndSignIn(t);
    const results: Record<string, { signIn: number; api: number }> = {};
    for (const origin of [...aliases, 'http://127.0.0.1:4000', 'http://evil.example']) {
      // A browser that has been here before sends cookies, and Better Auth checks the origin then.
      const signIn = await send(t, '/api/auth/sign-in/email', { json: { email: u.email, password: u.password } }, { real: address(), origin, cookie: 'pv_theme=dark' });
      // Our own routes: a wrong body is a 400 once the origin is accepted, a 403 before that.
      const api = await send(t, '/api/account/delete', { json: {} }, { real: address(), origin, cookie: u.cookie });
      results[origin] = { signIn: signIn.status, api: api.status };
    }
    return results;
  }

  it('are accepted in development (same port only)', async () => {
    const t = await context({ env: 'development' });
    const r = await tryOrigins(t);
    for (const origin of aliases) expect(r[origin], origin).toEqual({ signIn: 200, api: 400 });
    expect(r['http://127.0.0.1:4000']).toEqual({ signIn: 403, api: 403 });
    expect(r['http://evil.example']).toEqual({ signIn: 403, api: 403 });
  });

  it('are refused in production', async () => {
    const t = await context({ env: 'production', isProduction: true, allowSandboxPayments: true });
    const r = await tryOrigins(t);
    for (const origin of [...aliases, 'http://127.0.0.1:4000', 'http://evil.example']) {
      expect(r[origin], origin).toEqual({ signIn: 403, api: 403 });
    }
  });
});
