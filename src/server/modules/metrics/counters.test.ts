import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductSummary } from '../../../shared/contracts/shop.ts';
import { giveCards, makeCard, makeClass } from '../buyback/test-support.ts';
import { fund, makeCatalog, slots } from '../shop/test-support.ts';
import { idem, moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';

/** The business counters move where the thing succeeds, once: a replay or a refusal does not count. */

const TOKEN = 'counters-test-token-0123456789';
let t: MoneyTestContext;
beforeAll(async () => {
  t = await moneyTestContext({ metricsToken: TOKEN });
});
afterAll(() => t.close());

async function counter(name: string): Promise<number> {
  const text = await (await t.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  if (!line) throw new Error(`${name} missing`);
  return Number(line.split(' ')[1]);
}

describe('business counters', () => {
  it('a sandbox deposit counts once (its replay and a second pay do not)', async () => {
    const before = await counter('packvault_deposits_total');
    const u = await t.makeUser();
    const { deposit } = (await (await t.as(u).post('/api/wallet/deposits', { amountCents: 2500 }, idem())).json()) as { deposit: { id: string } };
    const key = idem();
    expect((await t.as(u).post(`/api/payments/sandbox/deposits/${deposit.id}/pay`, {}, key)).status).toBe(200);
    await t.as(u).post(`/api/payments/sandbox/deposits/${deposit.id}/pay`, {}, key);
    expect((await t.as(u).post(`/api/payments/sandbox/deposits/${deposit.id}/pay`, {}, idem())).status).toBe(409);
    expect(await counter('packvault_deposits_total')).toBe(before + 1);
  });

  it('a buyback counts once, not its replay', async () => {
    const before = await counter('packvault_buybacks_total');
    const u = await t.makeUser();
    const cls = await makeClass(t);
    const card = await makeCard(t, { classId: cls.id, valueCents: 1000, stock: 5 });
    const [owned] = await giveCards(t, u, card.id);
    const key = idem();
    expect((await t.as(u).post('/api/buyback', { ownedCardIds: [owned] }, key)).status).toBe(201);
    await t.as(u).post('/api/buyback', { ownedCardIds: [owned] }, key);
    expect(await counter('packvault_buybacks_total')).toBe(before + 1);
  });

  it('packs opened count per pack, on both open paths, not on a replay', async () => {
    // The owner: this pack gives back more than its price, which only the owner sets (ADR 0024).
    const admin = await t.makeUser({ role: 'owner' });
    const cat = await makeCatalog(t, [{ name: 'Metric common', cards: [{ value: 50, stock: 100 }, { value: 80, stock: 100 }] }]);
    const created = (await (await t.as(admin).post('/api/admin/products', { name: 'Metric Pack', priceCents: 100, description: 'Two cards.' })).json()) as { product: ProductSummary };
    const { id: productId, packId } = created.product;
    expect(
      (await t.as(admin).put(`/api/admin/packs/${packId}`, { name: 'Metric Pack', slots: slots(2, [{ classId: cat.classes['Metric common']!, weight: 1 }]), pool: { mode: 'classes' } })).status,
    ).toBe(200);
    expect((await t.as(admin).patch(`/api/admin/products/${productId}`, { status: 'live' })).status).toBe(200);
    const u = await t.makeUser();
    await fund(t, u, 10_000);
    const before = await counter('packvault_pack_opens_total');
    const key = idem();
    const first = await t.as(u).post('/api/shop/open', { productId, quantity: 3 }, key);
    expect(first.status).toBe(201);
    await t.as(u).post('/api/shop/open', { productId, quantity: 3 }, key);
    expect((await t.as(u).post('/api/shop/open', { productId, quantity: 2 }, idem())).status).toBe(201);
    expect(await counter('packvault_pack_opens_total')).toBe(before + 5);
  });
});
