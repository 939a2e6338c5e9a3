import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINTENANCE_DEFAULT_RETRY_SECONDS, retryAfterSeconds, type MaintenanceState } from '../../../shared/contracts/maintenance.ts';
import { auditLog } from '../../db/schema/audit.ts';
import { signInAdminWithMfa, signInAdminWithoutMfa, signUpAndSignIn, type TestUser } from '../../test/auth-helpers.ts';
import { createTestContext, type TestContext } from '../../test/harness.ts';
import type { BusEvent } from '../realtime/bus.ts';
import { MAINTENANCE_EVENT, maintenanceCache } from './service.ts';

let t: TestContext;
let owner: TestUser;
let ownerNoMfa: TestUser;
let admin: TestUser;
let adminNoMfa: TestUser;
let user: TestUser;
const events: BusEvent[] = [];

beforeAll(async () => {
  t = await createTestContext();
  owner = await signInAdminWithMfa(t, { role: 'owner' });
  ownerNoMfa = await signInAdminWithoutMfa(t, { role: 'owner' });
  admin = await signInAdminWithMfa(t, { role: 'admin' });
  adminNoMfa = await signInAdminWithoutMfa(t, { role: 'admin' });
  user = await signUpAndSignIn(t);
  t.deps.bus.subscribe((e) => {
    if (e.type === MAINTENANCE_EVENT) events.push(e);
  });
});
afterAll(() => t.close());

const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();
const put = (who: TestUser, json: unknown) => t.request('/api/admin/maintenance', { method: 'PUT', headers: who.headers, json });
const get = (path: string, who?: TestUser) => t.request(path, { headers: who?.headers ?? {} });
const state = async () => (await (await get('/api/maintenance')).json()) as MaintenanceState;
const auditRows = () => t.deps.db.select().from(auditLog).where(like(auditLog.action, 'maintenance.%')).orderBy(auditLog.createdAt);

async function expectMaintenance(res: Response, where: string) {
  expect(res.status, where).toBe(503);
  const retry = Number(res.headers.get('retry-after'));
  expect(retry, where).toBeGreaterThan(3500);
  expect(retry, where).toBeLessThanOrEqual(7200);
  const body = (await res.json()) as { error: { code: string; message: string; endsAt: string; retryAfter: number } };
  expect(body.error, where).toMatchObject({ code: 'maintenance', message: 'Upgrading the vault.', retryAfter: retry });
  expect(Date.parse(body.error.endsAt), where).toBeGreaterThan(Date.now());
}

describe('maintenance switch', () => {
  it('is off at first; admins read it, the public reads it', async () => {
    expect(await state()).toMatchObject({ enabled: false, endsAt: null });
    const res = await get('/api/admin/maintenance', admin);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ enabled: false, changedBy: null });
    expect((await get('/api/admin/maintenance', user)).status).toBe(403);
  });

  it('refuses a plain admin (403 owner_role_required) and an owner without two-factor, changing nothing', async () => {
    const body = { enabled: true, message: 'Nope', endsAt: inHours(1) };
    const res = await put(admin, body);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('owner_role_required');
    const noMfa = await put(ownerNoMfa, body);
    expect(noMfa.status).toBe(403);
    expect(((await noMfa.json()) as { error: { code: string } }).error.code).toBe('mfa_required');
    expect((await put(user, body)).status).toBe(403);
    expect((await state()).enabled).toBe(false);
    expect(await auditRows()).toEqual([]);
  });

  it('answers bad input with 400 and field messages, changing nothing', async () => {
    const cases: Array<[unknown, string]> = [
      [{}, 'enabled'],
      [{ enabled: 'yes' }, 'enabled'],
      [{ enabled: true, message: '', endsAt: inHours(1) }, 'message'],
      [{ enabled: true, message: '   ', endsAt: inHours(1) }, 'message'],
      [{ enabled: true, message: 'x'.repeat(501), endsAt: inHours(1) }, 'message'],
      [{ enabled: true, endsAt: inHours(1) }, 'message'],
      [{ enabled: true, message: 'Back soon', endsAt: inHours(-1) }, 'endsAt'],
      [{ enabled: true, message: 'Back soon', endsAt: 'tomorrow' }, 'endsAt'],
      [{ enabled: true, message: 'Back soon', endsAt: '2030-02-30T10:00:00Z' }, 'endsAt'],
      [{ enabled: true, message: 'Back soon' }, 'endsAt'],
      [{ enabled: true, message: 'Back soon', endsAt: inHours(24 * 31) }, 'endsAt'],
    ];
    for (const [body, field] of cases) {
      const res = await put(owner, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const err = ((await res.json()) as { error: { code: string; fields: Record<string, string[]> } }).error;
      expect(err.code).toBe('validation_failed');
      expect(Object.keys(err.fields), JSON.stringify(body)).toContain(field);
    }
    expect((await state()).enabled).toBe(false);
    expect(await auditRows()).toEqual([]);
  });

  it('an owner switches it on: audited, announced on the bus, and the public state shows it', async () => {
    const endsAt = inHours(2);
    const res = await put(owner, { enabled: true, message: '  Upgrading the vault.  ', endsAt });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { enabled: boolean; message: string; endsAt: string; changedBy: { id: string } };
    expect(body).toMatchObject({ enabled: true, message: 'Upgrading the vault.', endsAt, changedBy: { id: owner.userId } });
    expect(await state()).toMatchObject({ enabled: true, message: 'Upgrading the vault.', endsAt });
    const rows = await auditRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actorId: owner.userId, action: 'maintenance.on', targetType: 'maintenance' });
    expect(rows[0]!.before).toMatchObject({ enabled: false });
    expect(rows[0]!.after).toMatchObject({ enabled: true, message: 'Upgrading the vault.', endsAt });
    expect(events.at(-1)).toMatchObject({ topic: 'public', data: { enabled: true, endsAt } });
  });

  it('visitors and users get 503 with Retry-After and the JSON error on API calls', async () => {
    await expectMaintenance(await get('/api/shop/products'), 'visitor products');
    await expectMaintenance(await get('/api/cards'), 'visitor cards');
    await expectMaintenance(await get('/api/shop/products', user), 'user products');
    await expectMaintenance(await get('/api/wallet/balance', user), 'user balance');
    await expectMaintenance(await get('/api/notifications', user), 'user notifications');
    await expectMaintenance(await t.request('/api/shop/purchases', { method: 'POST', headers: { ...user.headers, 'Idempotency-Key': crypto.randomUUID() }, json: {} }), 'user purchase');
    // Sign-up is not one of the ways in during maintenance.
    await expectMaintenance(
      await t.request('/api/auth/sign-up/email', { method: 'POST', json: { email: 'new@example.test', password: 'long-enough-pw-1', name: 'n', username: 'newbie' } }),
      'visitor sign-up',
    );
    // A Better Auth endpoint beyond signing in, for a user.
    await expectMaintenance(await get('/api/auth/list-sessions', user), 'user list-sessions');
  });

  it('admins and owners without two-factor are treated as everyone else', async () => {
    await expectMaintenance(await get('/api/shop/products', adminNoMfa), 'admin without MFA');
    await expectMaintenance(await get('/api/admin/users', adminNoMfa), 'admin without MFA, admin API');
    await expectMaintenance(await get('/api/shop/products', ownerNoMfa), 'owner without MFA');
  });

  it('admins with two-factor keep working, Better Auth endpoints included', async () => {
    expect((await get('/api/shop/products', admin)).status).toBe(200);
    expect((await get('/api/admin/users', admin)).status).toBe(200);
    expect((await get('/api/wallet/balance', admin)).status).toBe(200);
    expect((await get('/api/auth/list-sessions', admin)).status).toBe(200);
  });

  it('the exceptions still answer: health, state, config, who am I, sign-in steps, the Stripe webhook', async () => {
    expect((await get('/api/health')).status).toBe(200);
    // A site in maintenance is still ready: it answers the 503 itself, no other process would.
    expect((await get('/api/ready')).status).toBe(200);
    expect((await get('/api/maintenance')).status).toBe(200);
    expect((await get('/api/config')).status).toBe(200);
    expect((await get('/api/me', user)).status).toBe(200);
    expect((await get('/api/auth/get-session', user)).status).toBe(200);
    const signIn = await t.request('/api/auth/sign-in/email', { method: 'POST', json: { email: owner.email, password: 'wrong-password-1' } });
    expect(signIn.status).toBe(401);
    const signedIn = await t.request('/api/auth/sign-in/email', { method: 'POST', json: { email: user.email, password: user.password } });
    expect(signedIn.status).toBe(200);
    const verify = await t.request('/api/auth/two-factor/verify-totp', { method: 'POST', json: { code: '000000' } });
    expect(verify.status).not.toBe(503);
    // Unsigned: refused by the webhook itself (400), not by the gate (see in-flight.test.ts for a credit).
    const hook = await t.request('/api/payments/stripe/webhook', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json', origin: '' } });
    expect(hook.status).not.toBe(503);
    expect((await t.request('/api/auth/sign-out', { method: 'POST', headers: user.headers, json: {} })).status).not.toBe(503);
  });

  it('an owner switches it off: audited, and everyone is let through again', async () => {
    const res = await put(owner, { enabled: false });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ enabled: false, endsAt: null, message: '' });
    expect((await get('/api/shop/products')).status).toBe(200);
    expect((await get('/api/wallet/balance', user)).status).not.toBe(503);
    const rows = await auditRows();
    expect(rows.map((r) => r.action)).toEqual(['maintenance.on', 'maintenance.off']);
    expect(rows[1]!.before).toMatchObject({ enabled: true });
    expect(events.at(-1)).toMatchObject({ data: { enabled: false } });
  });
});

describe('the per-process cache', () => {
  it('follows a bus event from another process, and ignores one older than what it has', async () => {
    const cache = maintenanceCache(t.deps);
    const now = new Date().toISOString();
    // On PostgreSQL the event comes back through NOTIFY: wait for it as another process would.
    const delivered = async (type: string) => {
      for (let i = 0; i < 100 && !events.some((e) => e.data && (e.data as { message?: string }).message === type); i++) await new Promise((r) => setTimeout(r, 10));
    };
    await t.deps.bus.publish('public', MAINTENANCE_EVENT, { enabled: true, message: 'From elsewhere', endsAt: inHours(1), changedAt: now });
    await delivered('From elsewhere');
    expect(cache.state).toMatchObject({ enabled: true, message: 'From elsewhere' });
    expect((await get('/api/shop/products')).status).toBe(503);
    await t.deps.bus.publish('public', MAINTENANCE_EVENT, { enabled: false, message: 'stale', endsAt: null, changedAt: new Date(Date.now() - 60_000).toISOString() });
    await delivered('stale');
    expect(cache.state.enabled).toBe(true);
    // The stored switch (off) wins again on the next re-read only when it is newer; here it is
    // older, so the event stays; an owner's switch is newer than both.
    expect((await put(owner, { enabled: false })).status).toBe(200);
    expect(cache.state.enabled).toBe(false);
    expect((await get('/api/shop/products')).status).toBe(200);
    const [row] = await t.deps.db.select().from(auditLog).where(eq(auditLog.action, 'maintenance.off')).limit(1);
    expect(row).toBeDefined();
  });

  it('Retry-After counts down to the expected end, with a default once it has passed', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(retryAfterSeconds('2030-01-01T00:10:00Z', now)).toBe(600);
    expect(retryAfterSeconds('2030-01-01T00:00:00.200Z', now)).toBe(1);
    expect(retryAfterSeconds('2029-12-31T23:00:00Z', now)).toBe(MAINTENANCE_DEFAULT_RETRY_SECONDS);
    expect(retryAfterSeconds(null, now)).toBe(MAINTENANCE_DEFAULT_RETRY_SECONDS);
  });
});
