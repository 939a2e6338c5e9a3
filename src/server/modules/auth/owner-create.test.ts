import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { auditLog } from '../../db/schema/audit.ts';
import { user } from '../../db/schema/auth.ts';
import { createLogger } from '../../lib/logger.ts';
import { createTestContext, type TestContext } from '../../test/harness.ts';
import { cookiesFrom, signUpAndSignIn, totpCode } from '../../test/auth-helpers.ts';
import { createOwner, OwnerCreateError, type OwnerCreateResult } from './owner-create.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

// The clock is held still so a TOTP code's 30-second step can't end between two requests.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now());
});
afterEach(() => {
  vi.useRealTimers();
});

const signIn = (email: string, password: string) => t.request('/api/auth/sign-in/email', { method: 'POST', json: { email, password } });

async function refusal(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OwnerCreateError);
  return (err as OwnerCreateError).code;
}

function created(r: OwnerCreateResult): Extract<OwnerCreateResult, { kind: 'created' }> {
  if (r.kind !== 'created') throw new Error(`expected created, got ${r.kind}`);
  return r;
}

describe('createOwner', () => {
  it('makes a verified owner without two-factor whose one-time password signs in; admin APIs answer 403 until TOTP is enrolled', async () => {
    const lines: string[] = [];
    const deps = { ...t.deps, log: createLogger('debug', {}, (l) => lines.push(l)) };
    const r = created(await createOwner(deps, { email: '  First.Owner@Example.TEST ' }));
    expect(r.email).toBe('first.owner@example.test');
    expect(r.username).toBe('firstowner');
    expect(r.password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(lines.join('\n')).not.toContain(r.password);

    const [row] = await t.deps.db.select().from(user).where(eq(user.id, r.userId));
    expect(row).toMatchObject({ role: 'owner', emailVerified: true, twoFactorEnabled: false, banned: false, deletedAt: null });

    const [entry] = await t.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'owner.created'), eq(auditLog.targetId, r.userId)));
    expect(entry).toMatchObject({ actorId: null, targetType: 'user' });
    expect(entry!.after).toMatchObject({ email: r.email, role: 'owner', via: 'cli' });
    expect(JSON.stringify(entry)).not.toContain(r.password);

    expect((await signIn(r.email, 'not-the-password-1')).status).toBe(401);
    const res = await signIn(r.email, r.password);
    expect(res.status).toBe(200);
    // No second factor yet, so none is asked: the session is signed in but has not passed it.
    expect((await res.json()).twoFactorRedirect).toBeUndefined();
    const cookie = cookiesFrom(res);
    const me = await (await t.request('/api/me', { headers: { cookie } })).json();
    expect(me.user).toMatchObject({ role: 'owner', twoFactorEnabled: false });
    expect(me.session.mfaPassed).toBe(false);
    for (const path of ['/api/admin/users', '/api/admin/admins']) {
      const denied = await t.request(path, { headers: { cookie } });
      expect(denied.status).toBe(403);
      expect((await denied.json()).error.code).toBe('mfa_required');
    }

    // Enrolment (what /register-mfa does): the first code enrols and passes this session.
    const enable = await t.request('/api/auth/two-factor/enable', { method: 'POST', json: { password: r.password }, headers: { cookie } });
    expect(enable.status).toBe(200);
    const secret = new URL((await enable.json()).totpURI).searchParams.get('secret')!;
    const afterEnable = cookiesFrom(enable, cookie);
    expect((await t.request('/api/admin/users', { headers: { cookie: afterEnable } })).status).toBe(403);
    const verify = await t.request('/api/auth/two-factor/verify-totp', { method: 'POST', json: { code: totpCode(secret) }, headers: { cookie: afterEnable } });
    expect(verify.status).toBe(200);
    const enrolled = cookiesFrom(verify, afterEnable);
    expect((await t.request('/api/admin/users', { headers: { cookie: enrolled } })).status).toBe(200);
    expect((await t.request('/api/admin/admins', { headers: { cookie: enrolled } })).status).toBe(200);
  });

  it('refuses a taken email without --promote, and bad emails and usernames, writing nothing', async () => {
    const existing = await signUpAndSignIn(t);
    const count = async () => (await t.deps.db.select({ id: user.id }).from(user)).length;
    const before = await count();
    expect(await refusal(createOwner(t.deps, { email: existing.email.toUpperCase() }))).toBe('email_taken');
    expect(await refusal(createOwner(t.deps, { email: 'not-an-email' }))).toBe('email_invalid');
    expect(await refusal(createOwner(t.deps, { email: '' }))).toBe('email_invalid');
    expect(await refusal(createOwner(t.deps, { email: 'a@b.test', username: 'Packvault_support' }))).toBe('username_invalid');
    expect(await refusal(createOwner(t.deps, { email: 'a@b.test', username: 'x' }))).toBe('username_invalid');
    expect(await refusal(createOwner(t.deps, { email: 'a@b.test', username: existing.username.toUpperCase() }))).toBe('username_taken');
    expect(await count()).toBe(before);
    const [row] = await t.deps.db.select().from(user).where(eq(user.id, existing.userId));
    expect(row!.role).toBe('user');
  });

  it('takes a given username, and a random one when the mailbox name is reserved or taken', async () => {
    expect(created(await createOwner(t.deps, { email: 'boss@shop.test', username: 'TheBoss' })).username).toBe('TheBoss');
    expect(created(await createOwner(t.deps, { email: 'admin@shop.test' })).username).toMatch(/^user-[0-9a-f]{8}$/);
    expect(created(await createOwner(t.deps, { email: 'theboss@other.test' })).username).toMatch(/^user-[0-9a-f]{8}$/);
  });

  it('--promote makes an existing verified user owner (audited), and refuses unverified or banned ones', async () => {
    const u = await signUpAndSignIn(t);
    const r = await createOwner(t.deps, { email: u.email, promote: true });
    expect(r).toMatchObject({ kind: 'promoted', userId: u.userId, previousRole: 'user' });
    const [row] = await t.deps.db.select().from(user).where(eq(user.id, u.userId));
    expect(row!.role).toBe('owner');
    const [entry] = await t.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'owner.promoted'), eq(auditLog.targetId, u.userId)));
    expect(entry).toMatchObject({ actorId: null, before: { role: 'user' } });
    // Their session has not passed two-factor (none enrolled): admin APIs still refuse it.
    const denied = await t.request('/api/admin/users', { headers: u.headers });
    expect(denied.status).toBe(403);
    expect((await denied.json()).error.code).toBe('mfa_required');

    expect(await createOwner(t.deps, { email: u.email, promote: true })).toMatchObject({ kind: 'already_owner' });
    const unverified = await signUpAndSignIn(t, { verified: false });
    expect(await refusal(createOwner(t.deps, { email: unverified.email, promote: true }))).toBe('email_not_verified');
    const banned = await signUpAndSignIn(t);
    await t.deps.db.update(user).set({ banned: true }).where(eq(user.id, banned.userId));
    expect(await refusal(createOwner(t.deps, { email: banned.email, promote: true }))).toBe('user_banned');
    const roles = await t.deps.db.select({ role: user.role }).from(user).where(eq(user.id, unverified.userId));
    expect(roles[0]!.role).toBe('user');
  });
});
