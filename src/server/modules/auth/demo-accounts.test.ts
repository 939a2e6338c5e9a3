import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { session, user } from '../../db/schema/auth.ts';
import { isLoopbackAddress } from '../../http/loopback.ts';
import { signUpAndSignIn } from '../../test/auth-helpers.ts';
import { createTestContext, TEST_ORIGIN, type TestContext } from '../../test/harness.ts';
import { sendMail } from '../mail/service.ts';
import { revokeDemoSessions } from './demo-accounts.ts';
import { authSeedSteps } from './seed.ts';
import { createSessionCookie } from './users.ts';

/**
 * NODE_ENV unset means development: the dev mailbox, the demo accounts and the sandbox checkout
 * must answer only to a loopback socket peer. The peer is what @hono/node-server puts in
 * c.env.incoming.socket; these tests pass it the same way.
 */

const REMOTE = '203.0.113.7';
const peer = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress } } });

function requestFrom(t: TestContext, remoteAddress: string, path: string, init: RequestInit & { json?: unknown } = {}) {
  const headers = new Headers(init.headers);
  if (!headers.has('origin')) headers.set('origin', TEST_ORIGIN);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(init.json);
  }
  return Promise.resolve(t.app.request(`${TEST_ORIGIN}${path}`, { ...init, headers, body }, peer(remoteAddress)));
}

const signIn = (t: TestContext, from: string, email: string, password: string, headers: Record<string, string> = {}) =>
  requestFrom(t, from, '/api/auth/sign-in/email', { method: 'POST', json: { email, password }, headers });

describe('isLoopbackAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['::FFFF:127.1.2.3', true],
    ['10.0.0.1', false],
    ['192.0.2.2', false],
    ['::ffff:10.0.0.1', false],
    ['fd00::1', false],
    ['', false],
    [undefined, false],
    ['127.0.0.1.evil', false],
  ])('%s → %s', (address, expected) => {
    expect(isLoopbackAddress(address)).toBe(expected);
  });
});

describe('development (the NODE_ENV default)', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ config: { env: 'development', isProduction: false } });
    for (const step of authSeedSteps) await step.run(t.deps);
    await sendMail(t.deps, { to: 'someone@example.test', kind: 'reset-password', data: { url: 'http://localhost:3000/api/auth/reset-password/SECRET-TOKEN' } });
  });
  afterAll(() => t.close());

  it('the dev mailbox answers a loopback peer and refuses any other', async () => {
    for (const local of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const res = await requestFrom(t, local, '/api/dev/mailbox');
      expect(res.status, local).toBe(200);
      expect(JSON.stringify(await res.json())).toContain('SECRET-TOKEN');
    }
    const remote = await requestFrom(t, REMOTE, '/api/dev/mailbox');
    expect(remote.status).toBe(403);
    expect(await remote.text()).not.toContain('SECRET-TOKEN');
    // A forwarded-for header is written by the client: it never makes a remote peer local.
    const spoofed = await requestFrom(t, REMOTE, '/api/dev/mailbox', { headers: { 'x-forwarded-for': '127.0.0.1' } });
    expect(spoofed.status).toBe(403);
  });

  it('the demo accounts sign in from a loopback peer only', async () => {
    const local = await signIn(t, '127.0.0.1', 'demo@packvault.test', 'demo-password-1');
    expect(local.status).toBe(200);

    const spoofs: Array<Record<string, string>> = [{}, { 'x-forwarded-for': '127.0.0.1' }, { 'x-packvault-peer-loopback': '1' }];
    for (const headers of spoofs) {
      const remote = await signIn(t, REMOTE, 'demo@packvault.test', 'demo-password-1', headers);
      expect(remote.status).toBe(403);
      expect((await remote.json()).code).toBe('DEMO_ACCOUNT_DISABLED');
      expect(remote.headers.get('set-cookie') ?? '').not.toMatch(/session_token=[^;]+/);
    }
    const owner = await signIn(t, REMOTE, 'admin@packvault.test', 'admin-password-1');
    expect(owner.status).toBe(403);
    // An ordinary account signs in from anywhere.
    const u = await signUpAndSignIn(t);
    expect((await signIn(t, REMOTE, u.email, u.password)).status).toBe(200);
  });

  it('the sandbox checkout pays only for a loopback peer', async () => {
    const u = await signUpAndSignIn(t);
    const start = await requestFrom(t, '127.0.0.1', '/api/wallet/deposits', {
      method: 'POST',
      headers: { ...u.headers, 'idempotency-key': randomUUID() },
      json: { amountCents: 1000 },
    });
    expect(start.status).toBe(201);
    const { deposit } = (await start.json()) as { deposit: { id: string } };
    const pay = (from: string) =>
      requestFrom(t, from, `/api/payments/sandbox/deposits/${deposit.id}/pay`, {
        method: 'POST',
        headers: { ...u.headers, 'idempotency-key': randomUUID() },
        json: {},
      });
    const remote = await pay(REMOTE);
    expect(remote.status).toBe(403);
    const balance = async () => ((await (await requestFrom(t, '127.0.0.1', '/api/wallet/balance', { headers: u.headers })).json()) as { balanceCents: number }).balanceCents;
    expect(await balance()).toBe(0);
    expect((await pay('127.0.0.1')).status).toBe(200);
    expect(await balance()).toBe(1000);
  });
});

// Issue 39: behind a reverse proxy on the same host every request arrives from a loopback peer.
// A request carrying any forwarding header is therefore never local, trusted proxy or not.
describe('development behind a local reverse proxy (TRUST_PROXY=true)', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ config: { env: 'development', isProduction: false, trustProxy: true } });
    for (const step of authSeedSteps) await step.run(t.deps);
    await sendMail(t.deps, { to: 'someone@example.test', kind: 'reset-password', data: { url: 'http://localhost:3000/api/auth/reset-password/PROXY-TOKEN' } });
  });
  afterAll(() => t.close());

  const forwarded: Array<Record<string, string>> = [
    { 'x-forwarded-for': '203.0.113.50' },
    { 'x-forwarded-for': '127.0.0.1' },
    { forwarded: 'for=203.0.113.50;proto=https' },
    { 'x-real-ip': '203.0.113.50' },
    { 'x-forwarded-host': 'shop.example' },
    { 'x-forwarded-proto': 'https' },
    { 'true-client-ip': '203.0.113.50' },
    { 'cf-connecting-ip': '203.0.113.50' },
    { via: '1.1 nginx' },
  ];

  it('the dev mailbox refuses a request a proxy forwarded, from any client', async () => {
    for (const headers of forwarded) {
      const res = await requestFrom(t, '127.0.0.1', '/api/dev/mailbox', { headers });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(await res.text()).not.toContain('PROXY-TOKEN');
    }
    // In-process calls (no socket) with a forwarding header are refused as well.
    const inProcess = await t.app.request(`${TEST_ORIGIN}/api/dev/mailbox`, { headers: { 'x-forwarded-for': '203.0.113.50' } });
    expect(inProcess.status).toBe(403);
    // The same machine without a proxy still gets its mailbox.
    expect((await requestFrom(t, '127.0.0.1', '/api/dev/mailbox')).status).toBe(200);
  });

  it('the demo accounts do not sign in through the proxy', async () => {
    for (const headers of forwarded) {
      const res = await signIn(t, '127.0.0.1', 'demo@packvault.test', 'demo-password-1', headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect((await res.json()).code).toBe('DEMO_ACCOUNT_DISABLED');
    }
    expect((await signIn(t, '127.0.0.1', 'demo@packvault.test', 'demo-password-1')).status).toBe(200);
  });

  it('the sandbox checkout does not pay through the proxy', async () => {
    const u = await signUpAndSignIn(t);
    const start = await requestFrom(t, '127.0.0.1', '/api/wallet/deposits', {
      method: 'POST',
      headers: { ...u.headers, 'idempotency-key': randomUUID() },
      json: { amountCents: 1000 },
    });
    expect(start.status).toBe(201);
    const { deposit } = (await start.json()) as { deposit: { id: string } };
    for (const headers of forwarded) {
      const res = await requestFrom(t, '127.0.0.1', `/api/payments/sandbox/deposits/${deposit.id}/pay`, {
        method: 'POST',
        headers: { ...u.headers, ...headers, 'idempotency-key': randomUUID() },
        json: {},
      });
      expect(res.status, JSON.stringify(headers)).toBe(403);
    }
    const balance = await requestFrom(t, '127.0.0.1', '/api/wallet/balance', { headers: u.headers });
    expect(((await balance.json()) as { balanceCents: number }).balanceCents).toBe(0);
  });
});

describe('production', () => {
  let t: TestContext;
  beforeAll(async () => {
    // A database carried over from a demo: the demo accounts exist.
    t = await createTestContext({ config: { env: 'production', isProduction: true, allowSandboxPayments: true, mailDisabled: true } });
    for (const step of authSeedSteps) await step.run(t.deps);
  });
  afterAll(() => t.close());

  it('has no dev mailbox, even for a loopback peer', async () => {
    expect((await requestFrom(t, '127.0.0.1', '/api/dev/mailbox')).status).toBe(404);
    expect(JSON.stringify(await (await t.request('/api/openapi.json')).json())).not.toContain('/dev/mailbox');
  });

  it('refuses the demo accounts even from loopback, and ends their earlier sessions', async () => {
    const res = await signIn(t, '127.0.0.1', 'demo@packvault.test', 'demo-password-1');
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('DEMO_ACCOUNT_DISABLED');

    const [row] = await t.deps.db.select({ id: user.id }).from(user).where(eq(user.email, 'admin@packvault.test'));
    // A session left from the demo days (Better Auth itself now refuses to create one).
    await expect(createSessionCookie(t.deps, row!.id, { mfa: true })).rejects.toThrow(/disabled in production/);
    await t.deps.db.insert(session).values({ id: randomUUID(), token: randomUUID(), userId: row!.id, expiresAt: new Date(Date.now() + 86_400_000) });
    expect(await t.deps.db.select().from(session).where(eq(session.userId, row!.id))).toHaveLength(1);
    await revokeDemoSessions(t.deps);
    expect(await t.deps.db.select().from(session).where(eq(session.userId, row!.id))).toHaveLength(0);
  });
});
