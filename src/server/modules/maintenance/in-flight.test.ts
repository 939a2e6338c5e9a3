import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purchases } from '../../db/schema/shop.ts';
import { deposits } from '../../db/schema/payments.ts';
import { createDeposit } from '../payments/service.ts';
import { stripeProvider, type StripeCheckoutClient } from '../payments/provider.ts';
import { CLEAN, fund, liveProduct, makeCatalog, shopInvariants, slots } from '../shop/test-support.ts';
import { getBalance } from '../wallet/service.ts';
import { ledgerInvariants, moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';
import { maintenanceCache, setMaintenance } from './service.ts';

/**
 * The gate decides when a request starts. A purchase that got past it runs to its commit even if
 * maintenance is switched on while it runs (here: the switch arrives, as from another process's
 * NOTIFY, inside the purchase's own transaction); one that starts after the switch changes nothing.
 */

const WEBHOOK_SECRET = 'whsec_test_maintenance';
let t: MoneyTestContext;
let owner: string;
let productId: string;

beforeAll(async () => {
  t = await moneyTestContext({ stripeSecretKey: 'sk_test_packvault', stripeWebhookSecret: WEBHOOK_SECRET });
  owner = await t.makeUser({ role: 'owner' });
  const cat = await makeCatalog(t, [{ name: 'Common', cards: Array.from({ length: 4 }, (_, i) => ({ value: 40 + i, stock: 50 })) }]);
  ({ productId } = await liveProduct(t, owner, { name: 'Flip Pack', priceCents: 300, slots: slots(2, [{ classId: cat.classes.Common!, weight: 100 }]) }));
});
afterAll(() => t.close());

const on = () => ({ enabled: true as const, message: 'Flipping mid-purchase.', endsAt: new Date(Date.now() + 3_600_000).toISOString() });
const off = () => setMaintenance(t.deps, { actorId: owner, ip: null }, { enabled: false });
const buy = (u: string) => t.as(u).post('/api/shop/purchases', { productId, quantity: 2 }, { 'Idempotency-Key': randomUUID() });

describe('in-flight money requests and the switch', () => {
  it('a purchase that started before the switch completes whole', async () => {
    const u = await t.makeUser();
    await fund(t, u, 1000);
    const db = t.deps.db as unknown as { transaction: (fn: (tx: unknown) => Promise<unknown>, cfg?: unknown) => Promise<unknown> };
    const original = db.transaction;
    let flipped = false;
    db.transaction = (fn, cfg) =>
      original.call(t.deps.db, async (tx: unknown) => {
        if (!flipped) {
          flipped = true;
          // Maintenance goes on now, while this purchase's transaction is open.
          maintenanceCache(t.deps).apply({ ...on(), changedAt: new Date().toISOString() });
        }
        return fn(tx);
      }, cfg);
    let res: Response;
    try {
      res = await buy(u);
    } finally {
      db.transaction = original;
    }
    expect(flipped).toBe(true);
    expect(res.status).toBe(201);
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(400);
    const rows = await t.deps.db.select().from(purchases).where(eq(purchases.userId, u));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.quantity).toBe(2);
    expect(await shopInvariants(t)).toEqual(CLEAN);
    await ledgerInvariants(t);

    // The next one, started after the switch, is refused at the door.
    const next = await buy(u);
    expect(next.status).toBe(503);
    expect(next.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(400);
    expect(await t.deps.db.select().from(purchases).where(eq(purchases.userId, u))).toHaveLength(1);
    await off();
  });

  it('a purchase refused at the start changes nothing; an admin with two-factor still buys', async () => {
    const u = await t.makeUser();
    await fund(t, u, 1000);
    await setMaintenance(t.deps, { actorId: owner, ip: null }, on());
    const res = await buy(u);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('maintenance');
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(1000);
    expect(await t.deps.db.select().from(purchases).where(eq(purchases.userId, u))).toEqual([]);

    const admin = await t.makeUser({ role: 'admin', mfa: true });
    await fund(t, admin, 1000);
    expect((await buy(admin)).status).toBe(201);
    const noMfa = await t.makeUser({ role: 'admin', mfa: false });
    expect((await buy(noMfa)).status).toBe(503);
    await ledgerInvariants(t);
    await off();
  });

  it('a Stripe webhook lands and credits while maintenance is on', async () => {
    const u = await t.makeUser();
    const fake: StripeCheckoutClient = {
      checkout: { sessions: { create: (async () => ({ id: `cs_test_${randomUUID().replace(/-/g, '')}`, url: 'https://checkout.stripe.com/c/pay/cs_test' })) as never } },
    };
    const started = await t.deps.db.transaction((tx) =>
      createDeposit(tx, stripeProvider(t.deps.config, fake), { currency: 'USD', minCents: 500, maxCents: 100000 }, { userId: u, amountCents: 2500 }),
    );
    const [dep] = await t.deps.db.select().from(deposits).where(eq(deposits.id, started.deposit.id));
    await setMaintenance(t.deps, { actorId: owner, ip: null }, on());
    const body = JSON.stringify({
      id: `evt_${randomUUID().replace(/-/g, '')}`,
      object: 'event',
      type: 'checkout.session.completed',
      api_version: '2025-01-01',
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: dep!.providerRef, object: 'checkout.session', payment_status: 'paid', amount_total: 2500, payment_intent: `pi_${dep!.providerRef}` } },
    });
    const res = await t.request('/api/payments/stripe/webhook', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload: body, secret: WEBHOOK_SECRET }), origin: '' },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { outcome: string }).outcome).toBe('credited');
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(2500);
    await ledgerInvariants(t);
    await off();
  });
});
