import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminUserDetail } from '../../../shared/contracts/admin-users.ts';
import { fund, liveProduct, makeCatalog, slots } from '../shop/test-support.ts';
import { moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';

let t: MoneyTestContext;
beforeAll(async () => {
  t = await moneyTestContext();
});
afterAll(() => t.close());

describe('admin user summary', () => {
  it('sums balance, vault value at today’s market value, deposits, pack spend, buyback and openings', async () => {
    // The owner: this pack gives back more than its price, which only the owner sets (ADR 0024).
    const admin = await t.makeUser({ role: 'owner' });
    const u = await t.makeUser();
    const cat = await makeCatalog(t, [{ name: 'Only', cards: [{ value: 300, stock: 10 }] }]);
    const cardId = cat.cards.Only![0]!;
    const { productId } = await liveProduct(t, admin, { name: 'Two of a kind', priceCents: 500, slots: slots(2, [{ classId: cat.classes.Only!, weight: 10_000 }]) });

    const empty = (await (await t.as(admin).get(`/api/admin/users/${u}`)).json()) as AdminUserDetail;
    expect(empty.summary).toEqual({ balanceCents: 0, vaultValueCents: 0, vaultCount: 0, depositedCents: 0, spentOnPacksCents: 0, buybackReceivedCents: 0, openings: 0 });

    await fund(t, u, 2_000);
    await fund(t, u, 1_000);
    // Two packs of two cards: 4 copies worth 300 each, 1000 spent.
    const open = await t.as(u).post('/api/shop/open', { productId, quantity: 2 }, { 'Idempotency-Key': randomUUID() });
    expect(open.status).toBe(201);
    const [copy] = await t.deps.dbh.query<{ id: string }>(sql`select id from owned_cards where owner_id = ${u} limit 1`);
    // Sold back at the default 85%: 255.
    const sold = await t.as(u).post('/api/buyback', { ownedCardIds: [copy!.id] }, { 'Idempotency-Key': randomUUID() });
    expect(sold.status).toBe(201);
    // The market moves: the vault is valued at today's 400, not the 300 when pulled.
    await t.deps.dbh.query(sql`update cards set value_cents = 400 where id = ${cardId}`);

    const res = await t.as(admin).get(`/api/admin/users/${u}`);
    expect(res.status).toBe(200);
    const detail = (await res.json()) as AdminUserDetail;
    expect(detail.summary).toEqual({
      balanceCents: 3_000 - 1_000 + 255,
      vaultValueCents: 3 * 400,
      vaultCount: 3,
      depositedCents: 3_000,
      spentOnPacksCents: 1_000,
      buybackReceivedCents: 255,
      openings: 2,
    });
    // Another user's page shows only theirs; a plain user cannot read it.
    expect((await t.as(u).get(`/api/admin/users/${admin}`)).status).toBe(403);
  });
});
