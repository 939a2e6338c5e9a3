import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripeProvider, type StripeCheckoutClient } from './provider.ts';
import { createDeposit } from './service.ts';
import { idem, moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';

/** A deposit started with a return path (top up the difference) comes back there, and only to this site. */
describe('deposit return paths', () => {
  let t: MoneyTestContext;
  beforeAll(async () => {
    t = await moneyTestContext();
  });
  afterAll(() => t.close());

  it('stores a same-origin path and hands it back on the deposit', async () => {
    const u = await t.makeUser();
    const returnPath = '/shop/0b7f7f2e-1a2b-4c3d-8e9f-001122334455?buy=2';
    const res = await t.as(u).post('/api/wallet/deposits', { amountCents: 500, returnPath }, idem());
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.deposit.returnPath).toBe(returnPath);
    const got = await (await t.as(u).get(`/api/wallet/deposits/${body.deposit.id}`)).json();
    expect(got.deposit.returnPath).toBe(returnPath);
    const plain = await (await t.as(u).post('/api/wallet/deposits', { amountCents: 500 }, idem())).json();
    expect(plain.deposit.returnPath).toBeNull();
  });

  it.each([
    'https://evil.example/shop',
    '//evil.example/shop',
    '/\\evil.example',
    'shop/x',
    '',
    '/shop/x\r\nLocation: https://evil.example',
    '/a/../b',
    '/api/wallet/balance',
  ])('answers 400 for %j and starts nothing', async (returnPath) => {
    const u = await t.makeUser();
    const res = await t.as(u).post('/api/wallet/deposits', { amountCents: 500, returnPath }, idem());
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.fields.returnPath).toBeTruthy();
    const list = await (await t.as(u).get('/api/wallet/deposits')).json();
    expect(list.total).toBe(0);
  });

  it('answers 400 for a return path that is not a string', async () => {
    const u = await t.makeUser();
    const res = await t.as(u).post('/api/wallet/deposits', { amountCents: 500, returnPath: { to: '/shop' } }, idem());
    expect(res.status).toBe(400);
  });
});

describe('Stripe checkout with a return path', () => {
  let t: MoneyTestContext;
  const sessions: Array<Record<string, unknown>> = [];
  const fakeStripe: StripeCheckoutClient = {
    checkout: {
      sessions: {
        create: (async (params: Record<string, unknown>) => {
          sessions.push(params);
          return { id: `cs_test_${sessions.length}`, url: 'https://checkout.stripe.com/c/pay/cs_test' };
        }) as never,
      },
    },
  };
  const settings = { currency: 'USD', minCents: 500, maxCents: 100000 };
  beforeAll(async () => {
    t = await moneyTestContext();
  });
  afterAll(() => t.close());

  it('sends the user back to the path on this site, with the deposit id and the result', async () => {
    const u = await t.makeUser();
    const provider = stripeProvider(t.deps.config, fakeStripe);
    const d = await t.deps.db.transaction((tx) => createDeposit(tx, provider, settings, { userId: u, amountCents: 700, returnPath: '/shop/p1?buy=2' }));
    const base = `${t.deps.config.publicUrl}/shop/p1?buy=2&deposit=${d.deposit.id}`;
    expect(sessions.at(-1)).toMatchObject({ success_url: `${base}&result=success`, cancel_url: `${base}&result=cancelled` });
    const plain = await t.deps.db.transaction((tx) => createDeposit(tx, provider, settings, { userId: u, amountCents: 700 }));
    expect(sessions.at(-1)!.success_url).toBe(`${t.deps.config.publicUrl}/profile/billing?deposit=${plain.deposit.id}&result=success`);
  });

  it('refuses an off-site path in the service too, before anything is stored', async () => {
    const u = await t.makeUser();
    const provider = stripeProvider(t.deps.config, fakeStripe);
    const before = sessions.length;
    await expect(
      t.deps.db.transaction((tx) => createDeposit(tx, provider, settings, { userId: u, amountCents: 700, returnPath: '//evil.example' })),
    ).rejects.toMatchObject({ status: 400 });
    expect(sessions.length).toBe(before);
  });
});
