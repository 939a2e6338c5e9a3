import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deposits } from '../../db/schema/payments.ts';
import { TEST_ORIGIN } from '../../test/harness.ts';
import { sharedDatabaseEnv, startServerProcess } from '../../test/server-process.ts';
import { createSessionCookie } from '../auth/users.ts';
import { createDeposit } from '../payments/service.ts';
import { stripeProvider, type StripeCheckoutClient } from '../payments/provider.ts';
import { getBalance } from '../wallet/service.ts';
import { ledgerInvariants, moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';

/**
 * Issue 18's check on real processes (src/server/main.ts) sharing one PostgreSQL: the switch made
 * through process A reaches process B within a second (LISTEN/NOTIFY), and a Stripe webhook still
 * lands on B and credits while maintenance is on. PostgreSQL only: PGlite is one process.
 */

const onPostgres = inject('dbKind') === 'postgres';
const WEBHOOK_SECRET = 'whsec_test_maintenance_processes';

let t: MoneyTestContext;
let env: Record<string, string>;
beforeAll(async () => {
  t = await moneyTestContext({ stripeSecretKey: 'sk_test_packvault', stripeWebhookSecret: WEBHOOK_SECRET });
  if (!onPostgres) return;
  env = {
    ...(await sharedDatabaseEnv(t.deps)),
    STRIPE_SECRET_KEY: 'sk_test_packvault',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  };
});
afterAll(() => t.close());

/** Polls until `check` holds; returns how long it took. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < ms) {
    if (await check()) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`not within ${ms} ms`);
}

describe.skipIf(!onPostgres)('maintenance across two server processes on one PostgreSQL', () => {
  it('the switch through A reaches B within a second; a Stripe webhook still lands on B', async () => {
    const owner = await t.makeUser({ role: 'owner' });
    const { cookie } = await createSessionCookie(t.deps, owner, { mfa: true });
    const a = startServerProcess({ ...env, HOST: '127.0.0.1', DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'pv-maint-a-')) });
    const b = startServerProcess({ ...env, HOST: '127.0.0.1', DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'pv-maint-b-')) });
    try {
      const [pa, pb] = await Promise.all([a.listening, b.listening]);
      const products = (port: number) => fetch(`http://127.0.0.1:${port}/api/shop/products`).then((r) => r.status);
      expect(await products(pa)).toBe(200);
      expect(await products(pb)).toBe(200);

      const put = (port: number, json: unknown) =>
        fetch(`http://127.0.0.1:${port}/api/admin/maintenance`, {
          method: 'PUT',
          headers: { cookie, origin: TEST_ORIGIN, 'content-type': 'application/json' },
          body: JSON.stringify(json),
        });
      const endsAt = new Date(Date.now() + 3_600_000).toISOString();
      const on = await put(pa, { enabled: true, message: 'Moving house.', endsAt });
      expect(on.status, a.log()).toBe(200);
      const tookB = await within(1000, async () => (await products(pb)) === 503);
      expect(tookB).toBeLessThan(1000);
      expect(await products(pa)).toBe(503);
      const res = await fetch(`http://127.0.0.1:${pb}/api/maintenance`);
      expect(await res.json()).toMatchObject({ enabled: true, message: 'Moving house.', endsAt });

      // A payment made before the switch is credited through B while maintenance is on.
      const u = await t.makeUser();
      const fake: StripeCheckoutClient = {
        checkout: { sessions: { create: (async () => ({ id: `cs_test_${randomUUID().replace(/-/g, '')}`, url: 'https://checkout.stripe.com/c/pay/cs_test' })) as never } },
      };
      const started = await t.deps.db.transaction((tx) =>
        createDeposit(tx, stripeProvider(t.deps.config, fake), { currency: 'USD', minCents: 500, maxCents: 100000 }, { userId: u, amountCents: 4200 }),
      );
      const [dep] = await t.deps.db.select().from(deposits).where(eq(deposits.id, started.deposit.id));
      const body = JSON.stringify({
        id: `evt_${randomUUID().replace(/-/g, '')}`,
        object: 'event',
        type: 'checkout.session.completed',
        api_version: '2025-01-01',
        created: Math.floor(Date.now() / 1000),
        data: { object: { id: dep!.providerRef, object: 'checkout.session', payment_status: 'paid', amount_total: 4200, payment_intent: `pi_${dep!.providerRef}` } },
      });
      const hook = await fetch(`http://127.0.0.1:${pb}/api/payments/stripe/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload: body, secret: WEBHOOK_SECRET }) },
        body,
      });
      expect(hook.status, b.log()).toBe(200);
      expect(((await hook.json()) as { outcome: string }).outcome).toBe('credited');
      expect((await getBalance(t.deps.db, u)).balanceCents).toBe(4200);

      // Off through B reaches A within a second too.
      expect((await put(pb, { enabled: false })).status).toBe(200);
      expect(await within(1000, async () => (await products(pa)) === 200)).toBeLessThan(1000);
      await ledgerInvariants(t);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  }, 240_000);
});
