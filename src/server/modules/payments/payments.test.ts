import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';
import { deposits, paymentEvents } from '../../db/schema/payments.ts';
import { ledgerEntries } from '../../db/schema/wallet.ts';
import { testConfig } from '../../test/harness.ts';
import { getBalance } from '../wallet/service.ts';
import { idem, ledgerInvariants, moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';
import { createPaymentProvider, stripeProvider, type StripeCheckoutClient } from './provider.ts';
import { createDeposit } from './service.ts';

describe('sandbox deposits', () => {
  let t: MoneyTestContext;
  beforeAll(async () => {
    t = await moneyTestContext();
  });
  afterAll(() => t.close());

  const start = async (u: string, amountCents: number) => {
    const res = await t.as(u).post('/api/wallet/deposits', { amountCents }, idem());
    return { res, body: await res.json() };
  };

  it('offers presets within the configured bounds, in test mode', async () => {
    const u = await t.makeUser();
    const body = await (await t.as(u).get('/api/wallet/deposit-options')).json();
    expect(body).toMatchObject({ provider: 'sandbox', testMode: true, minCents: 500, maxCents: 100000, currency: 'USD' });
    expect(body.presetsCents).toEqual([1000, 2500, 5000, 10000, 25000]);
  });

  it('creates a pending deposit, pays it on the sandbox checkout and credits once', async () => {
    const u = await t.makeUser();
    const { res, body } = await start(u, 2500);
    expect(res.status).toBe(201);
    expect(body.deposit).toMatchObject({ status: 'pending', amountCents: 2500, provider: 'sandbox', testMode: true });
    expect(body.checkoutUrl).toBe(`/checkout/${body.deposit.id}`);
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(0);

    const key = idem();
    const paid = await t.as(u).post(`/api/payments/sandbox/deposits/${body.deposit.id}/pay`, {}, key);
    expect(paid.status).toBe(200);
    expect(await paid.json()).toMatchObject({ deposit: { status: 'succeeded' }, balanceCents: 2500 });
    const replay = await t.as(u).post(`/api/payments/sandbox/deposits/${body.deposit.id}/pay`, {}, key);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const again = await t.as(u).post(`/api/payments/sandbox/deposits/${body.deposit.id}/pay`, {}, idem());
    expect(again.status).toBe(409);
    expect((await again.json()).error.code).toBe('deposit_not_pending');
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(2500);

    const entries = await t.deps.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, u));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ kind: 'deposit', amountCents: 2500, referenceType: 'deposit', referenceId: body.deposit.id });

    const list = await (await t.as(u).get('/api/wallet/deposits')).json();
    expect(list.total).toBe(1);
    expect(list.deposits[0].status).toBe('succeeded');
    const receipt = await (await t.as(u).get(`/api/wallet/deposits/${body.deposit.id}`)).json();
    expect(receipt.deposit.completedAt).toBeTruthy();
  });

  it('declines without moving money', async () => {
    const u = await t.makeUser();
    const { body } = await start(u, 1000);
    const res = await t.as(u).post(`/api/payments/sandbox/deposits/${body.deposit.id}/decline`);
    expect(res.status).toBe(200);
    expect((await res.json()).deposit).toMatchObject({ status: 'failed' });
    const pay = await t.as(u).post(`/api/payments/sandbox/deposits/${body.deposit.id}/pay`, {}, idem());
    expect(pay.status).toBe(409);
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(0);
  });

  it("keeps other users' deposits private", async () => {
    const u = await t.makeUser();
    const other = await t.makeUser();
    const { body } = await start(u, 1000);
    expect((await t.as(other).get(`/api/wallet/deposits/${body.deposit.id}`)).status).toBe(404);
    expect((await t.as(other).post(`/api/payments/sandbox/deposits/${body.deposit.id}/pay`, {}, idem())).status).toBe(404);
    expect((await t.as(other).post(`/api/payments/sandbox/deposits/${body.deposit.id}/decline`)).status).toBe(404);
    expect((await t.as(null).post(`/api/payments/sandbox/deposits/${body.deposit.id}/pay`, {}, idem())).status).toBe(401);
  });

  it('validates amounts, the key, and a verified email', async () => {
    const u = await t.makeUser();
    for (const amountCents of [499, 100001, 12.5, -5]) {
      const { res, body } = await start(u, amountCents);
      expect(res.status, String(amountCents)).toBe(400);
      expect(body.error.fields.amountCents).toBeDefined();
    }
    const noKey = await t.as(u).post('/api/wallet/deposits', { amountCents: 1000 });
    expect(noKey.status).toBe(400);
    expect((await noKey.json()).error.code).toBe('idempotency_key_required');
    const unverified = await t.makeUser({ verified: false });
    const r = await t.as(unverified).post('/api/wallet/deposits', { amountCents: 1000 }, idem());
    expect(r.status).toBe(403);
    expect((await r.json()).error.code).toBe('email_not_verified');
    expect((await t.as(null).post('/api/wallet/deposits', { amountCents: 1000 }, idem())).status).toBe(401);
  });

  it('expires a sandbox checkout after an hour', async () => {
    const u = await t.makeUser();
    const { body } = await start(u, 1000);
    await t.deps.db.update(deposits).set({ createdAt: new Date(Date.now() - 2 * 3600_000) }).where(eq(deposits.id, body.deposit.id));
    const pay = await t.as(u).post(`/api/payments/sandbox/deposits/${body.deposit.id}/pay`, {}, idem());
    expect(pay.status).toBe(409);
    expect((await pay.json()).error.code).toBe('deposit_expired');
    const [row] = await t.deps.db.select().from(deposits).where(eq(deposits.id, body.deposit.id));
    expect(row!.status).toBe('failed');
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(0);
  });

  it('50 parallel pays of one deposit with different keys → one credit', async () => {
    const u = await t.makeUser();
    const { body } = await start(u, 5000);
    const res = await Promise.all(
      Array.from({ length: 50 }, () => t.as(u).post(`/api/payments/sandbox/deposits/${body.deposit.id}/pay`, {}, idem())),
    );
    expect(res.filter((r) => r.status === 200)).toHaveLength(1);
    expect(res.filter((r) => r.status === 409)).toHaveLength(49);
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(5000);
    expect((await ledgerInvariants(t)).mismatched).toEqual([]);
  });

  describe('responsible play', () => {
    it('self-exclusion refuses deposits and pays on the server', async () => {
      const u = await t.makeUser();
      const { body: pending } = await start(u, 1000);
      const ex = await t.as(u).post('/api/wallet/self-exclusion', { duration: '7d', confirm: true });
      expect(ex.status).toBe(200);
      const limits = await ex.json();
      expect(limits.selfExclusion.duration).toBe('7d');
      // The balance says so, so the pages disable the buy buttons with the reason.
      const bal = await (await t.as(u).get('/api/wallet/balance')).json();
      expect(bal.selfExcludedUntil).toBe(limits.selfExclusion.endsAt);
      expect(Date.parse(limits.selfExclusion.endsAt) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);

      const { res, body } = await start(u, 1000);
      expect(res.status).toBe(403);
      expect(body.error.code).toBe('self_excluded');
      const pay = await t.as(u).post(`/api/payments/sandbox/deposits/${pending.deposit.id}/pay`, {}, idem());
      expect(pay.status).toBe(403);
      expect((await getBalance(t.deps.db, u)).balanceCents).toBe(0);

      // Cannot be shortened.
      const shorter = await (await t.as(u).post('/api/wallet/self-exclusion', { duration: '24h', confirm: true })).json();
      expect(shorter.selfExclusion.endsAt).toBe(limits.selfExclusion.endsAt);
      const unconfirmed = await t.as(u).post('/api/wallet/self-exclusion', { duration: '30d' });
      expect(unconfirmed.status).toBe(400);
    });

    it('a deposit limit refuses deposits over it; lower applies at once, higher after 24 hours', async () => {
      const u = await t.makeUser();
      const set = await t.as(u).put('/api/wallet/limits', { day: 2000 });
      expect(set.status).toBe(200);
      expect((await set.json()).limits.day).toMatchObject({ limitCents: 2000, pending: null, usedCents: 0 });

      const { body: d1 } = await start(u, 1500);
      await t.as(u).post(`/api/payments/sandbox/deposits/${d1.deposit.id}/pay`, {}, idem());
      const over = await start(u, 600);
      expect(over.res.status).toBe(403);
      expect(over.body.error.code).toBe('deposit_limit_reached');
      expect(over.body.error.message).toContain('$5.00');
      expect((await start(u, 500)).res.status).toBe(201);
      // A pending checkout counts too.
      expect((await start(u, 500)).res.status).toBe(403);

      const raise = await (await t.as(u).put('/api/wallet/limits', { day: 10000 })).json();
      expect(raise.limits.day.limitCents).toBe(2000);
      expect(raise.limits.day.pending.limitCents).toBe(10000);
      expect(Date.parse(raise.limits.day.pending.effectiveAt) - Date.now()).toBeGreaterThan(23.9 * 3600_000);
      expect((await start(u, 500)).res.status).toBe(403);

      const remove = await (await t.as(u).put('/api/wallet/limits', { day: null })).json();
      expect(remove.limits.day.limitCents).toBe(2000);
      expect(remove.limits.day.pending).toMatchObject({ limitCents: null });

      const lower = await (await t.as(u).put('/api/wallet/limits', { day: 1000, week: 5000 })).json();
      expect(lower.limits.day).toMatchObject({ limitCents: 1000, pending: null });
      expect(lower.limits.week).toMatchObject({ limitCents: 5000, pending: null, usedCents: 2000 });

      const bad = await t.as(u).put('/api/wallet/limits', { day: -5 });
      expect(bad.status).toBe(400);
      expect((await bad.json()).error.fields.day).toBeDefined();
    });

    it('a raise takes effect once its 24 hours have passed', async () => {
      const u = await t.makeUser();
      await t.as(u).put('/api/wallet/limits', { month: 1000 });
      await t.as(u).put('/api/wallet/limits', { month: 50000 });
      const { depositLimits } = await import('../../db/schema/responsible-play.ts');
      await t.deps.db
        .update(depositLimits)
        .set({ pendingEffectiveAt: new Date(Date.now() - 1000) })
        .where(eq(depositLimits.userId, u));
      const now = await (await t.as(u).get('/api/wallet/limits')).json();
      expect(now.limits.month).toMatchObject({ limitCents: 50000, pending: null });
      expect((await start(u, 20000)).res.status).toBe(201);
    });
  });
});

describe('Stripe deposits', () => {
  const WEBHOOK_SECRET = 'whsec_test_packvault_secret';
  let t: MoneyTestContext;
  const sessions: Array<Record<string, unknown>> = [];
  const fakeStripe: StripeCheckoutClient = {
    checkout: {
      sessions: {
        create: (async (params: Record<string, unknown>) => {
          sessions.push(params);
          return { id: `cs_test_${randomUUID().replace(/-/g, '')}`, url: 'https://checkout.stripe.com/c/pay/cs_test' };
        }) as never,
      },
    },
  };

  beforeAll(async () => {
    t = await moneyTestContext({ stripeSecretKey: 'sk_test_packvault', stripeWebhookSecret: WEBHOOK_SECRET });
  });
  afterAll(() => t.close());

  async function stripeDeposit(userId: string, amountCents: number) {
    const provider = stripeProvider(t.deps.config, fakeStripe);
    const started = await t.deps.db.transaction((tx) =>
      createDeposit(tx, provider, { currency: 'USD', minCents: 500, maxCents: 100000 }, { userId, amountCents }),
    );
    const [row] = await t.deps.db.select().from(deposits).where(eq(deposits.id, started.deposit.id));
    return { ...started, sessionId: row!.providerRef! };
  }

  function event(type: string, object: Record<string, unknown>, id = `evt_${randomUUID().replace(/-/g, '')}`) {
    return { id, object: 'event', type, api_version: '2025-01-01', created: Math.floor(Date.now() / 1000), data: { object } };
  }

  function send(payload: unknown, secret = WEBHOOK_SECRET) {
    const body = JSON.stringify(payload);
    const header = Stripe.webhooks.generateTestHeaderString({ payload: body, secret });
    return t.request('/api/payments/stripe/webhook', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'stripe-signature': header, origin: '' },
    });
  }

  const completed = (sessionId: string, amount: number, extra: Record<string, unknown> = {}) =>
    event('checkout.session.completed', {
      id: sessionId,
      object: 'checkout.session',
      payment_status: 'paid',
      amount_total: amount,
      payment_intent: `pi_${sessionId}`,
      ...extra,
    });

  it('starts a Checkout Session per deposit with the deposit id', async () => {
    const u = await t.makeUser();
    const d = await stripeDeposit(u, 2000);
    expect(d.checkoutUrl).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    expect(d.deposit).toMatchObject({ provider: 'stripe', testMode: true, status: 'pending' });
    const params = sessions.at(-1)!;
    expect(params).toMatchObject({ mode: 'payment', client_reference_id: d.deposit.id });
    expect((params.line_items as Array<{ price_data: { unit_amount: number } }>)[0]!.price_data.unit_amount).toBe(2000);
  });

  it('credits only from a signed checkout.session.completed, exactly once when replayed', async () => {
    const u = await t.makeUser();
    const d = await stripeDeposit(u, 3000);
    const evt = completed(d.sessionId, 3000);

    const forged = await send(evt, 'whsec_wrong_secret');
    expect(forged.status).toBe(400);
    expect((await forged.json()).error.code).toBe('invalid_signature');
    const unsigned = await t.request('/api/payments/stripe/webhook', { method: 'POST', body: JSON.stringify(evt) });
    expect(unsigned.status).toBe(400);
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(0);

    const first = await send(evt);
    expect(first.status).toBe(200);
    expect((await first.json()).outcome).toBe('credited');
    const replay = await send(evt);
    expect((await replay.json()).outcome).toBe('duplicate');
    // A different event about the same session does not credit again either.
    const other = await send(completed(d.sessionId, 3000));
    expect((await other.json()).outcome).toBe('noop');
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(3000);
    const [row] = await t.deps.db.select().from(deposits).where(eq(deposits.id, d.deposit.id));
    expect(row).toMatchObject({ status: 'succeeded', paymentIntentId: `pi_${d.sessionId}` });
  });

  it('20 parallel deliveries of one event → one credit', async () => {
    const u = await t.makeUser();
    const d = await stripeDeposit(u, 4000);
    const evt = completed(d.sessionId, 4000);
    const res = await Promise.all(Array.from({ length: 20 }, () => send(evt)));
    expect(res.map((r) => r.status)).toEqual(Array(20).fill(200));
    const outcomes = await Promise.all(res.map(async (r) => (await r.json()).outcome));
    expect(outcomes.filter((o) => o === 'credited')).toHaveLength(1);
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(4000);
    expect(await t.deps.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, evt.id))).toHaveLength(1);
  });

  it('waits for async payments, then credits or fails', async () => {
    const u = await t.makeUser();
    const ok = await stripeDeposit(u, 1000);
    await send(completed(ok.sessionId, 1000, { payment_status: 'unpaid' }));
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(0);
    await send(event('checkout.session.async_payment_succeeded', { id: ok.sessionId, object: 'checkout.session', payment_status: 'paid', amount_total: 1000 }));
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(1000);

    const bad = await stripeDeposit(u, 1000);
    await send(completed(bad.sessionId, 1000, { payment_status: 'unpaid' }));
    const failed = await send(event('checkout.session.async_payment_failed', { id: bad.sessionId, object: 'checkout.session', payment_status: 'unpaid' }));
    expect((await failed.json()).outcome).toBe('failed');
    const [row] = await t.deps.db.select().from(deposits).where(eq(deposits.id, bad.deposit.id));
    expect(row!.status).toBe('failed');
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(1000);
  });

  it('charge.refunded writes a refund entry, never below zero', async () => {
    const u = await t.makeUser();
    const d = await stripeDeposit(u, 5000);
    await send(completed(d.sessionId, 5000));
    const charge = (refunded: number) =>
      event('charge.refunded', { id: `ch_${d.sessionId}`, object: 'charge', payment_intent: `pi_${d.sessionId}`, amount: 5000, amount_refunded: refunded, refunded: refunded === 5000 });
    const partial = charge(2000);
    expect((await (await send(partial)).json()).outcome).toBe('refunded');
    expect((await (await send(partial)).json()).outcome).toBe('duplicate');
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(3000);

    // The user spends most of the rest; the full refund can only take what is left.
    await t.as((await t.makeUser({ role: 'admin' }))).post(`/api/admin/users/${u}/balance/adjust`, { amountCents: -2500, reason: 'spent in test' }, idem());
    expect((await (await send(charge(5000))).json()).outcome).toBe('refunded');
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(0);
    const refunds = await t.deps.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, u));
    expect(refunds.filter((e) => e.kind === 'refund').map((e) => e.amountCents)).toEqual([-2000, -500]);
    const [row] = await t.deps.db.select().from(deposits).where(eq(deposits.id, d.deposit.id));
    expect(row).toMatchObject({ status: 'refunded', refundedCents: 5000 });
    const inv = await ledgerInvariants(t);
    expect(inv.mismatched).toEqual([]);
    expect(inv.negativeBalances).toBe(0);
  });

  it('acknowledges events for unknown sessions without crediting', async () => {
    const res = await send(completed('cs_test_unknown', 1000));
    expect(res.status).toBe(200);
    expect((await res.json()).outcome).toBe('ignored');
  });

  it('turns the sandbox endpoints off', async () => {
    const u = await t.makeUser();
    const d = await stripeDeposit(u, 1000);
    expect((await t.as(u).post(`/api/payments/sandbox/deposits/${d.deposit.id}/pay`, {}, idem())).status).toBe(404);
    expect((await (await t.as(u).get('/api/wallet/deposit-options')).json()).provider).toBe('stripe');
  });
});

describe('payment configuration', () => {
  const base = { NODE_ENV: 'production', APP_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/packvault-config-test', MAIL_DISABLED: 'true' };

  it('refuses to start production with the sandbox unless explicitly allowed', () => {
    expect(() => loadConfig(base)).toThrow(ConfigError);
    expect(() => loadConfig(base)).toThrow(/ALLOW_SANDBOX_PAYMENTS/);
    expect(loadConfig({ ...base, ALLOW_SANDBOX_PAYMENTS: 'true' }).allowSandboxPayments).toBe(true);
    const stripe = loadConfig({ ...base, STRIPE_SECRET_KEY: 'sk_live_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' });
    expect(createPaymentProvider(stripe).name).toBe('stripe');
    expect(createPaymentProvider(stripe).testMode).toBe(false);
    expect(() => loadConfig({ ...base, STRIPE_SECRET_KEY: 'sk_live_abc' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
    expect(() => createPaymentProvider(testConfig({ env: 'production', isProduction: true }))).toThrow(/ALLOW_SANDBOX_PAYMENTS/);
    expect(createPaymentProvider(testConfig()).name).toBe('sandbox');
  });

  it('reads deposit bounds', () => {
    const c = loadConfig({ DATA_DIR: '/tmp/packvault-config-test', DEPOSIT_MIN_CENTS: '1000', DEPOSIT_MAX_CENTS: '5000' });
    expect([c.depositMinCents, c.depositMaxCents]).toEqual([1000, 5000]);
    expect(() => loadConfig({ DATA_DIR: '/tmp/packvault-config-test', DEPOSIT_MIN_CENTS: '1000', DEPOSIT_MAX_CENTS: '500' })).toThrow(/DEPOSIT_MAX_CENTS/);
  });
});
