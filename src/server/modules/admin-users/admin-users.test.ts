import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAdminWithMfa, signUpAndSignIn, type TestUser } from '../../test/auth-helpers.ts';
import { createTestContext, type TestContext } from '../../test/harness.ts';

let t: TestContext;
let owner: TestUser;
beforeAll(async () => {
  t = await createTestContext();
  owner = await signInAdminWithMfa(t);
});
afterAll(() => t.close());

const as = (u: TestUser) => ({ headers: u.headers });

describe('admin users', () => {
  it('searches, filters, sorts and paginates', async () => {
    await signUpAndSignIn(t, { username: 'zeta_searchme', email: 'zeta@search.test' });
    await signUpAndSignIn(t, { username: 'alpha_searchme', email: 'alpha@search.test' });
    const res = await t.request('/api/admin/users?q=SEARCHME&sort=username&dir=asc&pageSize=1', as(owner));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.total).toBe(2);
    expect(body.items).toHaveLength(1);
    expect(body.items[0].username).toBe('alpha_searchme');
    const p2 = await (await t.request('/api/admin/users?q=searchme&sort=username&dir=asc&pageSize=1&page=2', as(owner))).json();
    expect(p2.items[0].username).toBe('zeta_searchme');
    const owners = await (await t.request('/api/admin/users?role=owner', as(owner))).json();
    expect(owners.items.every((u: { role: string }) => u.role === 'owner')).toBe(true);
    const bad = await t.request('/api/admin/users?role=king', as(owner));
    expect(bad.status).toBe(400);
  });

  it('bans (revoking sessions, audited), unbans, and shows the detail', async () => {
    const u = await signUpAndSignIn(t);
    const ban = await t.request(`/api/admin/users/${u.userId}/ban`, { method: 'POST', ...as(owner), json: { reason: 'chargebacks' } });
    expect(ban.status).toBe(200);
    const detail = await ban.json();
    expect(detail.banned).toBe(true);
    expect(detail.sessions).toHaveLength(0);
    expect(await (await t.request('/api/me', as(u))).json()).toBeNull();

    const past = await t.request(`/api/admin/users/${u.userId}/ban`, { method: 'POST', ...as(owner), json: { reason: 'x'.repeat(5), expiresAt: '2000-01-01T00:00:00Z' } });
    expect(past.status).toBe(400);

    const unban = await t.request(`/api/admin/users/${u.userId}/unban`, { method: 'POST', ...as(owner), json: {} });
    expect((await unban.json()).banned).toBe(false);

    const audit = await (await t.request(`/api/admin/audit?targetId=${u.userId}`, as(owner))).json();
    expect(audit.items.map((e: { action: string }) => e.action)).toEqual(['user.unban', 'user.ban']);
    const banEntry = audit.items[1];
    expect(banEntry).toMatchObject({ actorId: owner.userId, targetType: 'user', ip: '127.0.0.1' });
    expect(banEntry.before.banned).toBe(false);
    expect(banEntry.after).toMatchObject({ banned: true, banReason: 'chargebacks' });
  });

  it('resets a user two-factor and sends a reset link', async () => {
    const u = await signUpAndSignIn(t, { twoFactor: true });
    const res = await t.request(`/api/admin/users/${u.userId}/reset-two-factor`, { method: 'POST', ...as(owner), json: {} });
    expect(res.status).toBe(200);
    expect((await res.json()).twoFactorEnabled).toBe(false);

    const send = await t.request('/api/admin/reset-password', { method: 'POST', ...as(owner), json: { email: u.email } });
    expect(await send.json()).toEqual({ sent: true });
    const mail = await (await t.request(`/api/dev/mailbox?to=${u.email}`)).json();
    expect(mail.items.map((m: { kind: string }) => m.kind)).toContain('reset-password');
  });

  it('owner manages admins; an admin cannot; an owner cannot demote themself', async () => {
    const candidate = await signUpAndSignIn(t);
    const promote = await t.request('/api/admin/admins/promote', { method: 'POST', ...as(owner), json: { email: candidate.email } });
    expect(promote.status).toBe(200);
    expect((await promote.json()).role).toBe('admin');

    const list = await (await t.request('/api/admin/admins', as(owner))).json();
    expect(list.items.map((a: { id: string }) => a.id)).toEqual(expect.arrayContaining([owner.userId, candidate.userId]));

    const admin = await signInAdminWithMfa(t, { role: 'admin' });
    const denied = await t.request('/api/admin/admins', as(admin));
    expect(denied.status).toBe(403);
    expect((await denied.json()).error.code).toBe('owner_role_required');

    const self = await t.request(`/api/admin/admins/${owner.userId}/demote`, { method: 'POST', ...as(owner), json: {} });
    expect(self.status).toBe(409);
    expect((await self.json()).error.code).toBe('cannot_demote_self');

    const demote = await t.request(`/api/admin/admins/${candidate.userId}/demote`, { method: 'POST', ...as(owner), json: {} });
    expect(await demote.json()).toEqual({ id: candidate.userId, role: 'user' });

    const audit = await (await t.request('/api/admin/audit?action=admin.demote', as(owner))).json();
    expect(audit.total).toBe(1);
    expect(audit.actions).toEqual(expect.arrayContaining(['admin.promote', 'admin.demote']));
  });

  it('an admin cannot ban another admin', async () => {
    const admin = await signInAdminWithMfa(t, { role: 'admin' });
    const other = await signInAdminWithMfa(t, { role: 'admin' });
    const res = await t.request(`/api/admin/users/${other.userId}/ban`, { method: 'POST', ...as(admin), json: { reason: 'testing' } });
    expect(res.status).toBe(403);
  });
});
