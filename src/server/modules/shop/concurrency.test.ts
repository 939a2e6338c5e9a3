import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ProductSummary } from '../../../shared/contracts/shop.ts';
import { cards } from '../../db/schema/catalog.ts';
import { reconcileStock } from '../inventory/service.ts';
import { ledgerInvariants, moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';
import { CLEAN, fund, makeCatalog, shopInvariants, slots } from './test-support.ts';

// Real parallelism needs PostgreSQL (PGlite runs one statement at a time).
const onPostgres = inject('dbKind') === 'postgres';

describe.runIf(onPostgres)('concurrent openings on PostgreSQL', () => {
  let t: MoneyTestContext;
  let productId: string;
  let initialStock: Map<string, number>;

  beforeAll(async () => {
    t = await moneyTestContext();
    // The owner: this pack gives back more than its price, which only the owner sets (ADR 0024).
    const admin = await t.makeUser({ role: 'owner' });
    // Scarce Rares: the pack sells out during the run, so races for the last copies happen.
    const cat = await makeCatalog(t, [
      { name: 'Common', cards: Array.from({ length: 6 }, (_, i) => ({ value: 50 + i, stock: 400 })) },
      { name: 'Rare', cards: [{ value: 2000, stock: 3 }, { value: 2500, stock: 2 }, { value: 4000, stock: 1 }] },
    ]);
    const res = await t.as(admin).post('/api/admin/products', { name: 'Race Pack', priceCents: 100 });
    const p = ((await res.json()) as { product: ProductSummary }).product;
    productId = p.id;
    await t.as(admin).put(`/api/admin/packs/${p.packId}`, {
      name: 'Race Pack',
      slots: slots(3, [
        { classId: cat.classes.Common!, weight: 80 },
        { classId: cat.classes.Rare!, weight: 20 },
      ]),
      pool: { mode: 'classes' },
    });
    await t.as(admin).patch(`/api/admin/products/${productId}`, { status: 'live' });
    initialStock = new Map((await t.deps.db.select({ id: cards.id, stock: cards.stock }).from(cards)).map((c) => [c.id, c.stock]));
  });
  afterAll(() => t?.close());

  it('many users and one user in parallel: no oversell, no negative balance, unique nonces, every debit has its cards', async () => {
    const users = await Promise.all(Array.from({ length: 12 }, () => t.makeUser()));
    for (const u of users) await fund(t, u, 500); // 5 packs each at most
    const solo = users[0]!;
    const reqs: Array<Promise<Response>> = [];
    for (let round = 0; round < 6; round++) {
      for (const u of users) {
        reqs.push(t.as(u).post('/api/shop/open', { productId, quantity: 1 }, { 'Idempotency-Key': randomUUID() }));
      }
      // The same user hammering in parallel too.
      for (let k = 0; k < 3; k++) reqs.push(t.as(solo).post('/api/shop/open', { productId, quantity: 1 }, { 'Idempotency-Key': randomUUID() }));
    }
    const results = await Promise.all(reqs);
    const statuses = await Promise.all(results.map(async (r) => ({ status: r.status, code: r.status === 201 ? null : ((await r.json()) as { error: { code: string } }).error.code })));
    const ok = statuses.filter((s) => s.status === 201).length;
    // Only expected refusals: out of money, or sold out once the Rares are gone.
    for (const s of statuses.filter((x) => x.status !== 201)) expect(['insufficient_funds', 'sold_out']).toContain(s.code);
    expect(ok).toBeGreaterThan(0);

    expect(await shopInvariants(t)).toEqual(CLEAN);
    const inv = await ledgerInvariants(t);
    expect(inv.mismatched).toEqual([]);
    expect(inv.negativeBalances).toBe(0);
    // Stock taken = cards owned, per card.
    const now = new Map((await t.deps.db.select({ id: cards.id, stock: cards.stock }).from(cards)).map((c) => [c.id, c.stock]));
    const owned = await t.deps.dbh.query<{ card_id: string; n: string }>(sql`select card_id, count(*) as n from owned_cards group by card_id`);
    const ownedBy = new Map(owned.map((o) => [o.card_id, Number(o.n)]));
    for (const [id, s0] of initialStock) {
      expect(now.get(id)!).toBeGreaterThanOrEqual(0);
      expect(s0 - now.get(id)!).toBe(ownedBy.get(id) ?? 0);
    }
    const [openings] = await t.deps.dbh.query<{ n: string }>(sql`select count(*) as n from openings`);
    expect(Number(openings!.n)).toBe(ok);
    // The solo user's nonces are 0..n-1 with no gaps or repeats.
    const nonces = await t.deps.dbh.query<{ nonce: number }>(sql`select nonce from openings where user_id = ${solo} order by nonce`);
    expect(nonces.map((n) => Number(n.nonce))).toEqual(nonces.map((_, i) => i));
    // The stock half of the books: every card's movements explain its stock (issue 14).
    expect(await reconcileStock(t.deps.db)).toMatchObject({ ok: true, details: { mismatches: 0 } });
  });
});

