import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryPage } from '../../../shared/contracts/wallet.ts';
import type { OpenResult, PurchaseResult } from '../../../shared/contracts/shop.ts';
import { fund, liveProduct, makeCatalog, slots } from '../shop/test-support.ts';
import { idem, moneyTestContext, type MoneyTestContext } from './test-support.ts';

/** History links each pack purchase to the openings its packs became (their fairness proofs). */
describe('history references of purchases', () => {
  let t: MoneyTestContext;
  let admin: string;
  let productId: string;
  beforeAll(async () => {
    t = await moneyTestContext();
    admin = await t.makeUser({ role: 'admin' });
    const cat = await makeCatalog(t, [{ name: 'Common', cards: [{ value: 50, stock: 200 }, { value: 80, stock: 200 }] }]);
    ({ productId } = await liveProduct(t, admin, { name: 'History Pack', priceCents: 300, slots: slots(2, [{ classId: cat.classes.Common!, weight: 1 }]) }));
  });
  afterAll(() => t.close());

  it('gives a purchase its packs and openings, oldest first; other kinds get none', async () => {
    const u = await t.makeUser();
    await fund(t, u, 5000);
    const opened = (await (await t.as(u).post('/api/shop/open', { productId, quantity: 2 }, idem())).json()) as OpenResult;
    expect(opened.openings).toHaveLength(2);
    const bought = (await (await t.as(u).post('/api/shop/purchases', { productId, quantity: 3 }, idem())).json()) as PurchaseResult;
    const packIds = bought.packs.map((p) => p.id);
    const later = (await (await t.as(u).post('/api/shop/open', { packIds: [packIds[0]] }, idem())).json()) as OpenResult;

    const page = (await (await t.as(u).get('/api/wallet/history')).json()) as HistoryPage;
    const purchases = page.entries.filter((e) => e.kind === 'pack_purchase');
    expect(purchases).toHaveLength(2);
    const [newer, older] = purchases;
    expect(newer!.referenceId).toBe(bought.purchase.id);
    expect(newer!.purchase).toEqual({ packs: 3, openingIds: [later.openings[0]!.id] });
    expect(older!.purchase!.packs).toBe(2);
    expect(new Set(older!.purchase!.openingIds)).toEqual(new Set(opened.openings.map((o) => o.id)));
    for (const e of page.entries.filter((e) => e.kind !== 'pack_purchase')) expect(e.purchase).toBeNull();
    expect(page.entries.some((e) => e.kind === 'deposit')).toBe(true);

    // The admin's view of the same history carries the same references.
    const asAdmin = (await (await t.as(admin).get(`/api/admin/users/${u}/history`)).json()) as HistoryPage;
    expect(asAdmin.entries.map((e) => e.purchase)).toEqual(page.entries.map((e) => e.purchase));
    // A kind filter still resolves them.
    const filtered = (await (await t.as(u).get('/api/wallet/history?kind=pack_purchase&pageSize=1')).json()) as HistoryPage;
    expect(filtered.entries[0]!.purchase).toEqual(newer!.purchase);
  });
});
