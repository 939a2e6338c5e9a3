import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { account as accountTable, session as sessionTable, user as userTable } from '../../db/schema/auth.ts';
import { cookiesFrom, signUpAndSignIn, totpCode } from '../../test/auth-helpers.ts';
import { createTestContext, type TestContext } from '../../test/harness.ts';
import { describeUserAgent } from './user-agent.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const signIn = (email: string, password: string, ua = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/537.36 Chrome/126.0 Safari/537.36') =>
  t.request('/api/auth/sign-in/email', { method: 'POST', json: { email, password }, headers: { 'user-agent': ua } });

describe('account', () => {
  it('returns the profile and changes the username (unique ignoring case)', async () => {
    const u = await signUpAndSignIn(t);
    const other = await signUpAndSignIn(t, { username: 'Occupied' });
    const me = await t.request('/api/account', { headers: u.headers });
    expect(me.status).toBe(200);
    expect((await me.json()).email).toBe(u.email);

    const taken = await t.request('/api/account/username', { method: 'PATCH', headers: u.headers, json: { username: 'OCCUPIED' } });
    expect(taken.status).toBe(409);
    expect((await taken.json()).error.code).toBe('username_taken');

    const bad = await t.request('/api/account/username', { method: 'PATCH', headers: u.headers, json: { username: 'no spaces' } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.fields.username).toBeDefined();

    const ok = await t.request('/api/account/username', { method: 'PATCH', headers: u.headers, json: { username: 'Fresh-Name' } });
    expect(ok.status).toBe(200);
    expect((await ok.json()).username).toBe('Fresh-Name');

    const avail = await t.request('/api/account/username-available?username=fresh-name');
    expect((await avail.json()).available).toBe(false);
    expect(other.username).toBe('Occupied');
  });

  it('lists sessions with browser and IP, revokes one and all others', async () => {
    const u = await signUpAndSignIn(t);
    const a = cookiesFrom(await signIn(u.email, u.password));
    const b = cookiesFrom(await signIn(u.email, u.password, 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0'));
    const list = await (await t.request('/api/account/sessions', { headers: { cookie: a } })).json();
    expect(list.sessions).toHaveLength(3);
    const current = list.sessions.find((s: { current: boolean }) => s.current);
    expect(current.browser).toBe('Chrome on macOS');
    expect(current.ip).toBe('127.0.0.1');
    expect(list.sessions.map((s: { browser: string }) => s.browser)).toContain('Firefox on Linux');

    const firefox = list.sessions.find((s: { browser: string }) => s.browser === 'Firefox on Linux');
    expect((await t.request(`/api/account/sessions/${firefox.id}`, { method: 'DELETE', headers: { cookie: a } })).status).toBe(204);
    expect(await (await t.request('/api/me', { headers: { cookie: b } })).json()).toBeNull();

    // Someone else's session is not yours to revoke.
    const stranger = await signUpAndSignIn(t);
    expect((await t.request(`/api/account/sessions/${stranger.sessionId}`, { method: 'DELETE', headers: { cookie: a } })).status).toBe(404);

    const others = await t.request('/api/account/sessions/revoke-others', { method: 'POST', headers: { cookie: a }, json: {} });
    expect((await others.json()).revoked).toBe(1);
    expect(await (await t.request('/api/me', { headers: u.headers })).json()).toBeNull();
    expect((await t.request('/api/me', { headers: { cookie: a } })).status).toBe(200);
  });

  it('exports everything as a JSON download', async () => {
    const u = await signUpAndSignIn(t, { twoFactor: true });
    const res = await t.request('/api/account/export', { headers: u.headers });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename=".*\.json"/);
    const body = await res.json();
    expect(body.account.email).toBe(u.email);
    expect(body.sessions.length).toBeGreaterThan(0);
    expect(body.twoFactor).toEqual({ enabled: true, backupCodesRemaining: 10 });
    expect(JSON.stringify(body)).not.toContain(u.totpSecret);
  });

  it('deletes an account: password and second factor, signs out everywhere, pseudonymises', async () => {
    const u = await signUpAndSignIn(t, { twoFactor: true });
    const wrong = await t.request('/api/account/delete', { method: 'POST', headers: u.headers, json: { password: 'nope-nope', confirm: 'DELETE' } });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error.code).toBe('invalid_password');
    const noCode = await t.request('/api/account/delete', { method: 'POST', headers: u.headers, json: { password: u.password, confirm: 'DELETE' } });
    expect((await noCode.json()).error.code).toBe('invalid_code');

    const res = await t.request('/api/account/delete', {
      method: 'POST',
      headers: u.headers,
      json: { password: u.password, code: totpCode(u.totpSecret!), confirm: 'DELETE' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/Max-Age=0/);
    expect(await (await t.request('/api/me', { headers: u.headers })).json()).toBeNull();
    const [row] = await t.deps.db.select().from(userTable).where(eq(userTable.id, u.userId));
    expect(row!.deletedAt).toBeInstanceOf(Date);
    expect(row!.email).not.toContain(u.email.split('@')[0]!);
    expect(row!.username).not.toBe(u.username);
    expect(await t.deps.db.select().from(sessionTable).where(eq(sessionTable.userId, u.userId))).toHaveLength(0);
    expect(await t.deps.db.select().from(accountTable).where(eq(accountTable.userId, u.userId))).toHaveLength(0);
    expect((await signIn(u.email, u.password)).status).toBe(401);
  });
});

describe('user agents', () => {
  it('names common browsers', () => {
    expect(describeUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1')).toBe('Safari on iOS');
    expect(describeUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36 Edg/126.0')).toBe('Edge on Windows');
    expect(describeUserAgent(null)).toBe('Unknown browser');
    expect(describeUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 CriOS/126.0 Mobile/15E148 Safari/604.1')).toBe('Chrome on iOS');
    expect(describeUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36 OPR/111.0')).toBe('Opera on Windows');
    expect(describeUserAgent('Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 Chrome/126.0 Safari/537.36')).toBe('Chrome on ChromeOS');
    expect(describeUserAgent('Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 SamsungBrowser/25.0 Chrome/121.0 Mobile Safari/537.36')).toBe(
      'Samsung Internet on Android',
    );
    expect(describeUserAgent('curl/8.5.0')).toBe('curl');
    expect(describeUserAgent('<script>')).toBe('Unknown browser');
  });
});
