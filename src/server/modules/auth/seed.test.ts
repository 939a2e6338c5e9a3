import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookiesFrom, totpCode } from '../../test/auth-helpers.ts';
import { createTestContext, type TestContext } from '../../test/harness.ts';
import { authSeedSteps, DEMO_ADMIN_TOTP_SECRET } from './seed.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
  for (const step of authSeedSteps) await step.run(t.deps);
  for (const step of authSeedSteps) await step.run(t.deps); // idempotent
});
afterAll(() => t.close());

const signIn = (email: string, password: string) => t.request('/api/auth/sign-in/email', { method: 'POST', json: { email, password } });

describe('demo accounts', () => {
  it('the demo user signs in', async () => {
    const res = await signIn('demo@packvault.test', 'demo-password-1');
    expect(res.status).toBe(200);
    const me = await (await t.request('/api/me', { headers: { cookie: cookiesFrom(res) } })).json();
    expect(me.user).toMatchObject({ username: 'demo', role: 'user', emailVerified: true });
  });

  it('the demo owner needs a TOTP code from the documented secret, then reaches admin APIs', async () => {
    const first = await signIn('admin@packvault.test', 'admin-password-1');
    expect((await first.json()).twoFactorRedirect).toBe(true);
    const pending = cookiesFrom(first);
    const verify = await t.request('/api/auth/two-factor/verify-totp', {
      method: 'POST',
      json: { code: totpCode(DEMO_ADMIN_TOTP_SECRET), trustDevice: true },
      headers: { cookie: pending },
    });
    expect(verify.status).toBe(200);
    const cookie = cookiesFrom(verify, pending);
    expect(cookie).toContain('trust_device');
    const me = await (await t.request('/api/me', { headers: { cookie } })).json();
    expect(me.user).toMatchObject({ username: 'admin', role: 'owner', twoFactorEnabled: true });
    expect(me.session.mfaPassed).toBe(true);
    expect((await t.request('/api/admin/admins', { headers: { cookie } })).status).toBe(200);

    // A trusted device skips the code next time and still counts as two-factor.
    const again = await t.request('/api/auth/sign-in/email', {
      method: 'POST',
      json: { email: 'admin@packvault.test', password: 'admin-password-1' },
      headers: { cookie },
    });
    const body = await again.json();
    expect(body.twoFactorRedirect).toBeUndefined();
    const trusted = cookiesFrom(again, cookie);
    expect((await (await t.request('/api/me', { headers: { cookie: trusted } })).json()).session.mfaPassed).toBe(true);
  });

  it('the password alone leaves no session while two-factor is pending (401)', async () => {
    // Sign-in without the code leaves no session at all; the API treats that as anonymous.
    const first = await signIn('admin@packvault.test', 'admin-password-1');
    const res = await t.request('/api/admin/users', { headers: { cookie: cookiesFrom(first) } });
    expect(res.status).toBe(401);
  });
});

describe('rate limits', () => {
  it('limits verification mail resends per email (429 with retryAfter)', async () => {
    const send = () => t.request('/api/auth/send-verification-email', { method: 'POST', json: { email: 'resend@example.test' } });
    for (let i = 0; i < 3; i++) expect((await send()).status).toBe(200);
    const limited = await send();
    expect(limited.status).toBe(429);
    const body = await limited.json();
    expect(body.code).toBe('RATE_LIMITED');
    expect(body.retryAfter).toBeGreaterThan(0);
    expect(limited.headers.get('retry-after')).toBeTruthy();
  });
});
