import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { session as sessionTable, user as userTable } from '../../db/schema/auth.ts';
import { signUpAndSignIn } from '../../test/auth-helpers.ts';
import { createTestContext, type TestContext } from '../../test/harness.ts';

// The actor middleware checks most session cookies itself (HMAC + one query) and hands the rest
// to Better Auth. These tests pin down that both paths agree on who is signed in.

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const me = async (cookie: string) => {
  const res = await t.request('/api/me', { headers: { cookie } });
  expect(res.status).toBe(200);
  return { body: (await res.json()) as { user: { id: string }; session: { id: string } } | null, res };
};

describe('session cookie', () => {
  it('signs in with a valid cookie and touches last seen at most once a minute', async () => {
    const u = await signUpAndSignIn(t);
    await t.deps.db.update(sessionTable).set({ lastSeenAt: new Date(Date.now() - 3_600_000) }).where(eq(sessionTable.id, u.sessionId));
    const { body } = await me(u.cookie);
    expect(body?.user.id).toBe(u.userId);
    const [s] = await t.deps.db.select().from(sessionTable).where(eq(sessionTable.id, u.sessionId));
    expect(Date.now() - s!.lastSeenAt.getTime()).toBeLessThan(60_000);
  });

  it('refuses a cookie whose signature does not match, or that names no session', async () => {
    const u = await signUpAndSignIn(t);
    const [name, value] = u.cookie.split('=') as [string, string];
    const decoded = decodeURIComponent(value);
    const token = decoded.slice(0, decoded.lastIndexOf('.'));
    const forged = `${name}=${encodeURIComponent(`${token}.${Buffer.alloc(32, 7).toString('base64')}`)}`;
    expect((await me(forged)).body).toBeNull();
    const otherToken = `${name}=${encodeURIComponent(`${'x'.repeat(token.length)}${decoded.slice(decoded.lastIndexOf('.'))}`)}`;
    expect((await me(otherToken)).body).toBeNull();
    expect((await me(`${name}=garbage%zz`)).body).toBeNull();
  });

  it('treats an expired session as signed out and clears the cookie', async () => {
    const u = await signUpAndSignIn(t);
    await t.deps.db.update(sessionTable).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessionTable.id, u.sessionId));
    const { body, res } = await me(u.cookie);
    expect(body).toBeNull();
    expect(res.headers.getSetCookie().some((c) => c.includes('session_token=') && /max-age=0/i.test(c))).toBe(true);
  });

  it('never clears the cookie of a session that is gone, which a rotated session may have replaced', async () => {
    const u = await signUpAndSignIn(t);
    // A sign-in step replaced the session (as two-factor enrolment does): the old row is gone.
    await t.deps.db.delete(sessionTable).where(eq(sessionTable.id, u.sessionId));
    const ac = new AbortController();
    const stream = await t.request('/api/events', { headers: { cookie: u.cookie }, signal: ac.signal });
    const cleared = stream.headers.getSetCookie().some((c) => c.includes('session_token=') && /max-age=0/i.test(c));
    ac.abort();
    await stream.body?.cancel().catch(() => undefined);
    expect(cleared).toBe(false);
    // Nor does a request sent with it just before the browser stored the rotated session's cookie
    // (a query refetch during two-factor enrolment): it is signed out, and leaves the cookie alone.
    const { body, res } = await me(u.cookie);
    expect(body).toBeNull();
    expect(res.headers.getSetCookie().some((c) => c.includes('session_token=') && /max-age=0/i.test(c))).toBe(false);
    const wallet = await t.request('/api/wallet/balance', { headers: { cookie: u.cookie } });
    expect(wallet.status).toBe(401);
    expect(wallet.headers.getSetCookie().some((c) => /max-age=0/i.test(c))).toBe(false);
  });

  it('lets Better Auth slide a session that is due for refresh (new expiry, cookie re-sent)', async () => {
    const u = await signUpAndSignIn(t);
    const soon = new Date(Date.now() + 3 * 24 * 3600_000);
    await t.deps.db.update(sessionTable).set({ expiresAt: soon }).where(eq(sessionTable.id, u.sessionId));
    const { body, res } = await me(u.cookie);
    expect(body?.user.id).toBe(u.userId);
    expect(res.headers.getSetCookie().some((c) => c.includes('session_token=') && !/max-age=0/i.test(c))).toBe(true);
    const [s] = await t.deps.db.select().from(sessionTable).where(eq(sessionTable.id, u.sessionId));
    expect(s!.expiresAt.getTime()).toBeGreaterThan(soon.getTime());
  });

  it('treats banned and deleted accounts as signed out', async () => {
    const banned = await signUpAndSignIn(t);
    await t.deps.db.update(userTable).set({ banned: true }).where(eq(userTable.id, banned.userId));
    expect((await me(banned.cookie)).body).toBeNull();
    const expiredBan = await signUpAndSignIn(t);
    await t.deps.db.update(userTable).set({ banned: true, banExpires: new Date(Date.now() - 1000) }).where(eq(userTable.id, expiredBan.userId));
    expect((await me(expiredBan.cookie)).body?.user.id).toBe(expiredBan.userId);
    const deleted = await signUpAndSignIn(t);
    await t.deps.db.update(userTable).set({ deletedAt: new Date() }).where(eq(userTable.id, deleted.userId));
    expect((await me(deleted.cookie)).body).toBeNull();
  });

  it('signs out at once when the session is revoked', async () => {
    const u = await signUpAndSignIn(t);
    expect((await me(u.cookie)).body?.user.id).toBe(u.userId);
    await t.deps.db.delete(sessionTable).where(eq(sessionTable.id, u.sessionId));
    expect((await me(u.cookie)).body).toBeNull();
  });
});
