import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { session as sessionTable, twoFactor, user as userTable } from '../../db/schema/auth.ts';
import { cookiesFrom, signUpAndSignIn, totpCode } from '../../test/auth-helpers.ts';
import { createTestContext, type TestContext } from '../../test/harness.ts';
import { isCommonPassword } from './passwords.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

async function mailbox(to: string) {
  const res = await t.request(`/api/dev/mailbox?to=${encodeURIComponent(to)}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { items: Array<{ kind: string; links: string[]; subject: string; text: string }> }).items;
}

const signUp = (body: Record<string, unknown>) => t.request('/api/auth/sign-up/email', { method: 'POST', json: body });
const signIn = (email: string, password: string, cookie?: string) =>
  t.request('/api/auth/sign-in/email', { method: 'POST', json: { email, password }, headers: cookie ? { cookie } : {} });

describe('sign-up → verify → signed in', () => {
  it('registers, mails a link that verifies and signs in, and /api/me reflects it', async () => {
    const email = 'newbie@example.test';
    const res = await signUp({ email, password: 'violet-moth-lantern', username: 'Newbie_1', ageConfirmed: true, termsAccepted: true });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie().some((c) => c.includes('session_token=') && !/max-age=0/i.test(c))).toBe(false);

    const mails = await mailbox(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.kind).toBe('verify-email');
    expect(mails[0]!.text).toContain('Packvault');
    const link = new URL(mails[0]!.links[0]!);
    expect(link.pathname).toBe('/api/auth/verify-email');

    const verify = await t.request(`${link.pathname}${link.search}`);
    expect(verify.status).toBe(302);
    expect(verify.headers.get('location')).toBe('/home');
    const cookie = cookiesFrom(verify);
    expect(cookie).toContain('session_token=');

    const me = await t.request('/api/me', { headers: { cookie } });
    expect(me.status).toBe(200);
    const body = await me.json();
    expect(body.user).toMatchObject({ email, username: 'Newbie_1', role: 'user', emailVerified: true, twoFactorEnabled: false });
    expect(body.session.mfaPassed).toBe(false);
    // Made at sign-up: the links this user shares carry it.
    expect(body.user.referralCode).toEqual(expect.stringMatching(/^[A-Z0-9]{4,}$/));

    const [row] = await t.deps.db.select().from(userTable).where(eq(userTable.email, email));
    expect(row!.ageConfirmedAt).toBeInstanceOf(Date);
    expect(row!.termsAcceptedAt).toBeInstanceOf(Date);
  });

  it('answers null on /api/me when signed out', async () => {
    const res = await t.request('/api/me');
    expect(res.status).toBe(200);
    expect(await res.json()).toBeNull();
  });

  it('validates sign-up fields with per-field messages', async () => {
    const res = await signUp({ email: 'x@example.test', password: 'password1', username: 'a!', ageConfirmed: false });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(Object.keys(body.fields).sort()).toEqual(['ageConfirmed', 'password', 'termsAccepted', 'username']);
    expect(body.fields.password[0]).toMatch(/common|breach/i);
  });

  it('refuses a username taken in another case', async () => {
    await signUpAndSignIn(t, { username: 'TakenName' });
    const res = await signUp({ email: 'other@example.test', password: 'violet-moth-lantern', username: 'takenname', ageConfirmed: true, termsAccepted: true });
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe('USERNAME_TAKEN');
  });

  it('an expired or forged verification link lands on /auth-error', async () => {
    const res = await t.request('/api/auth/verify-email?token=not-a-token&callbackURL=/home');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/auth-error?reason=invalid_token');
  });
});

describe('account enumeration', () => {
  it('sign-up answers alike for a known and an unknown email', async () => {
    const known = await signUpAndSignIn(t);
    const a = await signUp({ email: known.email, password: 'violet-moth-lantern', username: 'fresh_one', ageConfirmed: true, termsAccepted: true });
    const b = await signUp({ email: 'nobody-here@example.test', password: 'violet-moth-lantern', username: 'fresh_two', ageConfirmed: true, termsAccepted: true });
    expect(a.status).toBe(b.status);
    const [ja, jb] = [await a.json(), await b.json()];
    expect(Object.keys(ja).sort()).toEqual(Object.keys(jb).sort());
    expect(Object.keys(ja.user).sort()).toEqual(Object.keys(jb.user).sort());
    expect(ja.token).toBeNull();
    expect((await mailbox(known.email)).map((m) => m.kind)).toContain('existing-account');
  });

  it('sign-in answers alike for a wrong password and an unknown email', async () => {
    const known = await signUpAndSignIn(t);
    const a = await signIn(known.email, 'wrong-password-123');
    const b = await signIn('nobody-else@example.test', 'wrong-password-123');
    expect(a.status).toBe(401);
    expect(b.status).toBe(401);
    expect(await a.json()).toEqual(await b.json());
  });

  it('password reset answers alike for a known and an unknown email', async () => {
    const known = await signUpAndSignIn(t);
    const req = (email: string) =>
      t.request('/api/auth/request-password-reset', { method: 'POST', json: { email, redirectTo: '/update-password' } });
    const a = await req(known.email);
    const b = await req('unknown-person@example.test');
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(await a.json()).toEqual(await b.json());
    expect((await mailbox(known.email)).map((m) => m.kind)).toContain('reset-password');
    expect(await mailbox('unknown-person@example.test')).toHaveLength(0);
  });
});

describe('sign-in', () => {
  it('signs in a verified user and refuses an unverified one with EMAIL_NOT_VERIFIED', async () => {
    const ok = await signUpAndSignIn(t);
    const res = await signIn(ok.email, ok.password);
    expect(res.status).toBe(200);
    expect(cookiesFrom(res)).toContain('session_token=');

    const unverified = await signUpAndSignIn(t, { verified: false });
    const res2 = await signIn(unverified.email, unverified.password);
    expect(res2.status).toBe(403);
    expect((await res2.json()).code).toBe('EMAIL_NOT_VERIFIED');
  });

  it('tells a banned user so (after the right password) and revokes nothing else', async () => {
    const u = await signUpAndSignIn(t);
    await t.deps.db.update(userTable).set({ banned: true, banReason: 'chargeback fraud' }).where(eq(userTable.id, u.userId));
    const res = await signIn(u.email, u.password);
    expect(res.status).toBe(403);
    const body = await res.json();
    expect(body.code).toBe('BANNED_USER');
    expect(body.message).toContain('chargeback fraud');
    // The existing cookie no longer counts either.
    expect(await (await t.request('/api/me', { headers: u.headers })).json()).toBeNull();
    // A wrong password still gets the generic answer.
    expect((await signIn(u.email, 'nope-nope-nope')).status).toBe(401);
  });
});

describe('password reset', () => {
  it('resets with the mailed link and revokes every session', async () => {
    const u = await signUpAndSignIn(t);
    const other = await signIn(u.email, u.password);
    const otherCookie = cookiesFrom(other);
    expect((await t.request('/api/me', { headers: { cookie: otherCookie } })).status).toBe(200);

    await t.request('/api/auth/request-password-reset', { method: 'POST', json: { email: u.email, redirectTo: '/update-password' } });
    const mail = (await mailbox(u.email)).find((m) => m.kind === 'reset-password')!;
    const link = new URL(mail.links[0]!);
    const landing = await t.request(`${link.pathname}${link.search}`);
    expect(landing.status).toBe(302);
    const loc = new URL(landing.headers.get('location')!, 'http://x');
    expect(loc.pathname).toBe('/update-password');
    const token = loc.searchParams.get('token')!;

    const common = await t.request('/api/auth/reset-password', { method: 'POST', json: { token, newPassword: 'iloveyou' } });
    expect(common.status).toBe(400);
    expect((await common.json()).code).toMatch(/PASSWORD_(COMPROMISED|TOO_SHORT)/);

    const reset = await t.request('/api/auth/reset-password', { method: 'POST', json: { token, newPassword: 'brand-new-lantern-42' } });
    expect(reset.status).toBe(200);
    expect(await (await t.request('/api/me', { headers: u.headers })).json()).toBeNull();
    expect(await (await t.request('/api/me', { headers: { cookie: otherCookie } })).json()).toBeNull();
    expect((await signIn(u.email, 'brand-new-lantern-42')).status).toBe(200);

    const reused = await t.request(`${link.pathname}${link.search}`);
    expect(reused.headers.get('location')).toMatch(/^\/auth-error\?reason=/);
  });
});

describe('two-factor', () => {
  // The clock is held still so a code's 30-second step can't end between two requests of a
  // test: on a loaded machine a code minted as "the previous step" became two steps old and was
  // refused as INVALID_CODE instead of TOTP_CODE_ALREADY_USED. Timers still run.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now());
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('enrols with a first code, then sign-in needs a second factor; a code is refused when replayed', async () => {
    const u = await signUpAndSignIn(t);
    const enable = await t.request('/api/auth/two-factor/enable', { method: 'POST', json: { password: u.password }, headers: u.headers });
    expect(enable.status).toBe(200);
    const { totpURI, backupCodes } = await enable.json();
    expect(backupCodes).toHaveLength(10);
    const secret = new URL(totpURI).searchParams.get('secret')!;
    expect(new URL(totpURI).searchParams.get('issuer')).toBe('Packvault');

    // The first code confirms enrolment; the session that did it now counts as passed.
    const now = Date.now();
    const confirm = await t.request('/api/auth/two-factor/verify-totp', {
      method: 'POST',
      json: { code: totpCode(secret, now - 30_000) },
      headers: u.headers,
    });
    expect(confirm.status).toBe(200);
    const enrolled = cookiesFrom(confirm, u.cookie);
    const me = await (await t.request('/api/me', { headers: { cookie: enrolled } })).json();
    expect(me.user.twoFactorEnabled).toBe(true);
    expect(me.session.mfaPassed).toBe(true);

    // Sign in again: password, then a code.
    const first = await signIn(u.email, u.password);
    expect(first.status).toBe(200);
    expect((await first.json()).twoFactorRedirect).toBe(true);
    const pending = cookiesFrom(first);
    const replay = await t.request('/api/auth/two-factor/verify-totp', {
      method: 'POST',
      json: { code: totpCode(secret, now - 30_000) },
      headers: { cookie: pending },
    });
    expect(replay.status).toBe(401);
    expect((await replay.json()).code).toBe('TOTP_CODE_ALREADY_USED');
    const good = await t.request('/api/auth/two-factor/verify-totp', {
      method: 'POST',
      json: { code: totpCode(secret, now) },
      headers: { cookie: pending },
    });
    expect(good.status).toBe(200);
    const signedIn = cookiesFrom(good, pending);
    const me2 = await (await t.request('/api/me', { headers: { cookie: signedIn } })).json();
    expect(me2.session.mfaPassed).toBe(true);

    // A backup code works once.
    const again = cookiesFrom(await signIn(u.email, u.password));
    const b1 = await t.request('/api/auth/two-factor/verify-backup-code', { method: 'POST', json: { code: backupCodes[0] }, headers: { cookie: again } });
    expect(b1.status).toBe(200);
    const again2 = cookiesFrom(await signIn(u.email, u.password));
    const b2 = await t.request('/api/auth/two-factor/verify-backup-code', { method: 'POST', json: { code: backupCodes[0] }, headers: { cookie: again2 } });
    expect(b2.status).toBe(401);

    // Backup codes and the secret are stored encrypted.
    const [row] = await t.deps.db.select().from(twoFactor).where(eq(twoFactor.userId, u.userId));
    expect(row!.backupCodes).not.toContain(backupCodes[1]);
    expect(row!.secret).not.toContain(secret);
  });

  it('locks the factor after 5 wrong codes: 429 with retryAfter', async () => {
    const u = await signUpAndSignIn(t, { twoFactor: true, mfa: false });
    const pending = cookiesFrom(await signIn(u.email, u.password));
    for (let i = 0; i < 5; i++) {
      const r = await t.request('/api/auth/two-factor/verify-totp', { method: 'POST', json: { code: '000000' }, headers: { cookie: pending } });
      expect(r.status).toBe(401);
    }
    const pending2 = cookiesFrom(await signIn(u.email, u.password));
    const locked = await t.request('/api/auth/two-factor/verify-totp', {
      method: 'POST',
      json: { code: totpCode(u.totpSecret!) },
      headers: { cookie: pending2 },
    });
    expect(locked.status).toBe(429);
    const body = await locked.json();
    expect(body.code).toBe('ACCOUNT_TEMPORARILY_LOCKED');
    expect(body.retryAfter).toBeGreaterThan(800);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(800);
  });

  it('turning two-factor off needs a fresh second factor', async () => {
    const u = await signUpAndSignIn(t, { twoFactor: true });
    const noCode = await t.request('/api/auth/two-factor/disable', { method: 'POST', json: { password: u.password }, headers: u.headers });
    expect(noCode.status).toBe(400);
    expect((await noCode.json()).code).toBe('SECOND_FACTOR_REQUIRED');
    const wrong = await t.request('/api/auth/two-factor/disable', { method: 'POST', json: { password: u.password, code: '123456' }, headers: u.headers });
    expect(wrong.status).toBe(401);
    const ok = await t.request('/api/auth/two-factor/disable', {
      method: 'POST',
      json: { password: u.password, code: totpCode(u.totpSecret!) },
      headers: u.headers,
    });
    expect(ok.status).toBe(200);
    const [row] = await t.deps.db.select().from(userTable).where(eq(userTable.id, u.userId));
    expect(row!.twoFactorEnabled).toBe(false);
  });

  it('backup codes are readable (no 0/O/1/I/L) and verify typed without the dash, in lower case (issue 19)', async () => {
    const u = await signUpAndSignIn(t);
    const enable = await t.request('/api/auth/two-factor/enable', { method: 'POST', json: { password: u.password }, headers: u.headers });
    const { totpURI, backupCodes } = (await enable.json()) as { totpURI: string; backupCodes: string[] };
    for (const c of backupCodes) expect(c).toMatch(/^[2-9A-HJKMNP-TV-Z]{5}-[2-9A-HJKMNP-TV-Z]{5}$/);
    const secret = new URL(totpURI).searchParams.get('secret')!;
    const confirm = await t.request('/api/auth/two-factor/verify-totp', { method: 'POST', json: { code: totpCode(secret) }, headers: u.headers });
    expect(confirm.status).toBe(200);
    const verify = async (code: string) =>
      t.request('/api/auth/two-factor/verify-backup-code', { method: 'POST', json: { code }, headers: { cookie: cookiesFrom(await signIn(u.email, u.password)) } });
    const code = backupCodes[2]!;
    expect((await verify(code.replace('-', '').toLowerCase())).status).toBe(200);
    // Used up, whichever way it is spelled.
    expect((await verify(code)).status).toBe(401);
    expect((await verify(` ${backupCodes[3]!.toLowerCase()} `)).status).toBe(200);
  });

  it('regenerating backup codes needs a fresh second factor; old codes stop working', async () => {
    const u = await signUpAndSignIn(t, { twoFactor: true });
    const regen = (json: Record<string, unknown>) =>
      t.request('/api/auth/two-factor/generate-backup-codes', { method: 'POST', json, headers: u.headers });
    expect((await regen({ password: u.password })).status).toBe(400);
    expect((await regen({ password: 'wrong-password-1', code: u.backupCodes[0] })).status).toBe(400);
    // A backup code is a valid fresh factor, and is used up by it.
    const ok = await regen({ password: u.password, code: u.backupCodes[0]!.replace('-', '').toLowerCase() });
    expect(ok.status).toBe(200);
    const { backupCodes } = await ok.json();
    expect(backupCodes).toHaveLength(10);
    expect(backupCodes).not.toContain(u.backupCodes[1]);
    const stale = await regen({ password: u.password, code: u.backupCodes[1] });
    expect(stale.status).toBe(401);
  });

  it('marks sessions that passed the second factor', async () => {
    const u = await signUpAndSignIn(t, { twoFactor: true });
    const [s] = await t.deps.db.select().from(sessionTable).where(eq(sessionTable.id, u.sessionId));
    expect(s!.mfaVerifiedAt).toBeInstanceOf(Date);
  });
});

describe('passwords', () => {
  it('ships a list that includes the classics', () => {
    for (const p of ['123456', 'password', 'qwerty', 'iloveyou', '12345678', 'password1', 'letmein', 'Password123']) {
      expect(isCommonPassword(p), p).toBe(true);
    }
    expect(isCommonPassword('violet-moth-lantern')).toBe(false);
  });
});
