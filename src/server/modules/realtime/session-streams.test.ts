import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signInAdminWithMfa, signUpAndSignIn, type TestUser } from '../../test/auth-helpers.ts';
import { createTestContext, TEST_ORIGIN, type TestContext } from '../../test/harness.ts';
import { sharedDatabaseEnv, startServerProcess } from '../../test/server-process.ts';
import { sseReader } from '../../test/sse.ts';
import { createSessionCookie } from '../auth/users.ts';

/**
 * Issue 39: an open GET /api/events ends with its session. Each way a session ends or a user's
 * rights change closes the affected streams (a last `session.ended` frame, then the end), and
 * nothing of the user's reaches them afterwards; the other sessions' streams stay open.
 */

let t: TestContext;
let owner: TestUser;
beforeAll(async () => {
  t = await createTestContext();
  owner = await signInAdminWithMfa(t, { role: 'owner' });
});
afterAll(() => t.close());

async function open(cookie: string) {
  const ctl = new AbortController();
  const res = await t.request('/api/events', { headers: { cookie }, signal: ctl.signal });
  expect(res.status).toBe(200);
  const reader = sseReader(res);
  expect(JSON.parse((await reader.next('hello')).data)).toEqual({ user: true });
  return { reader, close: () => (ctl.abort(), reader.close()) };
}
type Stream = Awaited<ReturnType<typeof open>>;

/** The stream ends with `session.ended` and carries nothing of the user's after. */
async function expectEnded(s: Stream, what: string) {
  await expect(s.reader.next('session.ended', 5000), what).resolves.toBeTruthy();
  await expect(s.reader.next(undefined, 1000), what).rejects.toThrow(/stream ended/);
}

/** Still open: a user event published now arrives. */
async function expectOpen(s: Stream, userId: string, what: string) {
  await t.deps.bus.publish(`user:${userId}`, 'balance.changed', { probe: what });
  expect(JSON.parse((await s.reader.next('balance.changed')).data), what).toEqual({ probe: what });
}

async function secondSession(u: TestUser) {
  return (await createSessionCookie(t.deps, u.userId)) satisfies { cookie: string; sessionId: string };
}

describe('streams end with the session', () => {
  it('revoking one session ends its stream only', async () => {
    const u = await signUpAndSignIn(t);
    const other = await secondSession(u);
    const mine = await open(u.cookie);
    const theirs = await open(other.cookie);
    const res = await t.request(`/api/account/sessions/${other.sessionId}`, { method: 'DELETE', headers: u.headers });
    expect(res.status).toBe(204);
    await expectEnded(theirs, 'revoked');
    await expectOpen(mine, u.userId, 'revoke: current stays');
    mine.close();
  });

  it('revoke-others ends every other session’s stream', async () => {
    const u = await signUpAndSignIn(t);
    const a = await open((await secondSession(u)).cookie);
    const b = await open((await secondSession(u)).cookie);
    const mine = await open(u.cookie);
    expect((await t.request('/api/account/sessions/revoke-others', { method: 'POST', headers: u.headers, json: {} })).status).toBe(200);
    await expectEnded(a, 'revoke-others a');
    await expectEnded(b, 'revoke-others b');
    await expectOpen(mine, u.userId, 'revoke-others: current stays');
    mine.close();
  });

  it('sign-out through Better Auth ends that session’s stream', async () => {
    const u = await signUpAndSignIn(t);
    const other = await secondSession(u);
    const s = await open(u.cookie);
    const keep = await open(other.cookie);
    expect((await t.request('/api/auth/sign-out', { method: 'POST', headers: u.headers, json: {} })).status).toBe(200);
    await expectEnded(s, 'sign-out');
    await expectOpen(keep, u.userId, 'sign-out: other session stays');
    keep.close();
  });

  it('a password change ends the other sessions’ streams', async () => {
    const u = await signUpAndSignIn(t);
    const other = await open((await secondSession(u)).cookie);
    const res = await t.request('/api/auth/change-password', {
      method: 'POST',
      headers: u.headers,
      json: { currentPassword: u.password, newPassword: `${u.password}-new-1`, revokeOtherSessions: true },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    await expectEnded(other, 'password change');
  });

  it('a ban ends every stream of the user', async () => {
    const u = await signUpAndSignIn(t);
    const a = await open(u.cookie);
    const b = await open((await secondSession(u)).cookie);
    const res = await t.request(`/api/admin/users/${u.userId}/ban`, { method: 'POST', headers: owner.headers, json: { reason: 'Fraudulent chargebacks' } });
    expect(res.status).toBe(200);
    await expectEnded(a, 'ban a');
    await expectEnded(b, 'ban b');
  });

  it('a role change ends the streams (they reconnect under the new role)', async () => {
    const u = await signUpAndSignIn(t);
    const s = await open(u.cookie);
    const res = await t.request('/api/admin/admins/promote', { method: 'POST', headers: owner.headers, json: { userId: u.userId } });
    expect(res.status, await res.clone().text()).toBe(200);
    await expectEnded(s, 'promote');
    const again = await open(u.cookie);
    const demote = await t.request(`/api/admin/admins/${u.userId}/demote`, { method: 'POST', headers: owner.headers, json: {} });
    expect(demote.status, await demote.clone().text()).toBe(200);
    await expectEnded(again, 'demote');
  });

  it('deleting the account ends its streams', async () => {
    const u = await signUpAndSignIn(t);
    const s = await open(u.cookie);
    const res = await t.request('/api/account/delete', { method: 'POST', headers: u.headers, json: { password: u.password, confirm: 'DELETE' } });
    expect(res.status, await res.clone().text()).toBe(200);
    await expectEnded(s, 'delete');
  });

  it("leaves other users' streams and visitors alone", async () => {
    const u = await signUpAndSignIn(t);
    const bystander = await signUpAndSignIn(t);
    const s = await open(bystander.cookie);
    expect((await t.request('/api/account/sessions/revoke-others', { method: 'POST', headers: u.headers, json: {} })).status).toBe(200);
    await t.request(`/api/admin/users/${u.userId}/ban`, { method: 'POST', headers: owner.headers, json: { reason: 'Fraudulent chargebacks' } });
    await expectOpen(s, bystander.userId, 'bystander');
    s.close();
  });
});

// Across processes: the revocation travels by NOTIFY. PostgreSQL only (PGlite is one process).
const onPostgres = inject('dbKind') === 'postgres';

describe.skipIf(!onPostgres)('across two server processes on one PostgreSQL', () => {
  it('a session revoked through A ends its stream on B within 5 s', async () => {
    const env = await sharedDatabaseEnv(t.deps);
    const a = startServerProcess({ ...env, HOST: '127.0.0.1', DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'pv-sse-a-')) });
    const b = startServerProcess({ ...env, HOST: '127.0.0.1', DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'pv-sse-b-')) });
    const ctl = new AbortController();
    try {
      const [pa, pb] = await Promise.all([a.listening, b.listening]);
      const u = await signUpAndSignIn(t);
      const other = await secondSession(u);
      const res = await fetch(`http://127.0.0.1:${pb}/api/events`, { headers: { cookie: other.cookie }, signal: ctl.signal });
      const reader = sseReader(res);
      expect(JSON.parse((await reader.next('hello')).data)).toEqual({ user: true });
      const started = Date.now();
      const revoke = await fetch(`http://127.0.0.1:${pa}/api/account/sessions/${other.sessionId}`, {
        method: 'DELETE',
        headers: { cookie: u.cookie, origin: TEST_ORIGIN },
      });
      expect(revoke.status, a.log()).toBe(204);
      await reader.next('session.ended', 5000);
      expect(Date.now() - started).toBeLessThan(5000);
      await expect(reader.next(undefined, 1000)).rejects.toThrow(/stream ended/);
    } finally {
      ctl.abort();
      await Promise.all([a.stop(), b.stop()]);
    }
  }, 60_000);
});
