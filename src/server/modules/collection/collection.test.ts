import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollectionPage, OwnedCardDetail } from '../../../shared/contracts/collection.ts';
import { giveCards, makeCard, makeClass } from '../buyback/test-support.ts';
import { moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';

let t: MoneyTestContext;
beforeAll(async () => {
  t = await moneyTestContext();
});
afterAll(() => t.close());

const list = async (userId: string, qs = '') => {
  const res = await t.as(userId).get(`/api/collection${qs}`);
  expect(res.status).toBe(200);
  return (await res.json()) as CollectionPage;
};

describe('GET /api/collection', () => {
  it('lists only my cards with filters, search, sorting, pages and the vault total', async () => {
    const me = await t.makeUser();
    const other = await t.makeUser();
    const rare = await makeClass(t, { name: `Rare ${randomUUID().slice(0, 6)}`, buybackRateBp: 9000 });
    const common = await makeClass(t, { name: `Common ${randomUUID().slice(0, 6)}` });
    const dragon = await makeCard(t, { classId: rare.id, valueCents: 5000, name: 'Ember Dragon', setName: 'Fire' });
    const frog = await makeCard(t, { classId: common.id, valueCents: 120, name: 'Pond Frog', setName: 'Water' });
    const [d1] = await giveCards(t, me, dragon.id);
    const [f1, f2] = await giveCards(t, me, frog.id, 2);
    await giveCards(t, other, dragon.id, 3);
    await t.deps.dbh.query(sql`update owned_cards set status = 'sold_back' where id = ${f2}`);
    // Acquisition order: the dragon first.
    await t.deps.dbh.query(sql`update owned_cards set acquired_at = now() - interval '1 day' where id = ${d1}`);

    const all = await list(me);
    expect(all.total).toBe(2); // default: in the vault
    expect(all.items.map((i) => i.id)).toEqual([f1, d1]); // newest first
    expect(all.vault).toEqual({ count: 2, valueCents: 5120, buybackCents: 4500 + 102 });
    expect(all.statusCounts).toEqual({ in_vault: 2, sold_back: 1 });
    expect(all.sets).toEqual(['Fire', 'Water']);
    expect(all.classes.map((c) => c.id).sort()).toEqual([rare.id, common.id].sort());
    expect(all.items.find((i) => i.id === d1)).toMatchObject({ valueCents: 5000, rateBp: 9000, buybackCents: 4500, className: rare.name });
    expect(all.refs.classes.length).toBe(2);
    expect(all.refs.architects.length).toBe(2);

    expect((await list(me, '?sort=value_desc')).items.map((i) => i.id)).toEqual([d1, f1]);
    expect((await list(me, '?sort=value_asc')).items.map((i) => i.id)).toEqual([f1, d1]);
    expect((await list(me, '?sort=acquired_asc')).items.map((i) => i.id)).toEqual([d1, f1]);
    expect((await list(me, `?classId=${rare.id}`)).items.map((i) => i.id)).toEqual([d1]);
    expect((await list(me, '?set=Water')).items.map((i) => i.id)).toEqual([f1]);
    expect((await list(me, '?q=drag')).items.map((i) => i.id)).toEqual([d1]);
    expect((await list(me, '?q=100%25')).items).toEqual([]);
    expect((await list(me, '?status=sold_back')).items.map((i) => i.id)).toEqual([f2]);
    expect((await list(me, '?status=all')).total).toBe(3);
    expect((await list(me, `?status=all&ids=${f2},${d1}&sort=value_asc`)).items.map((i) => i.id)).toEqual([f2, d1]);
    const p2 = await list(me, '?status=all&pageSize=2&page=2');
    expect(p2.items).toHaveLength(1);
    expect(p2.total).toBe(3);
  });

  it('validates the query and needs a session', async () => {
    const me = await t.makeUser();
    expect((await t.as(null).get('/api/collection')).status).toBe(401);
    expect((await t.as(me).get('/api/collection?status=misplaced')).status).toBe(400);
    expect((await t.as(me).get('/api/collection?sort=random')).status).toBe(400);
    expect((await t.as(me).get('/api/collection?classId=x')).status).toBe(400);
    expect((await t.as(me).get('/api/collection?pageSize=1000')).status).toBe(400);
    expect((await t.as(me).get('/api/collection?ids=1,2')).status).toBe(400);
  });
});

describe('GET /api/collection/:id', () => {
  it('shows my card, how it was acquired, and hides other users’ cards', async () => {
    const me = await t.makeUser();
    const other = await t.makeUser();
    const cls = await makeClass(t);
    const card = await makeCard(t, { classId: cls.id, valueCents: 300 });
    const [mine] = await giveCards(t, me, card.id);
    const [theirs] = await giveCards(t, other, card.id);
    const res = await t.as(me).get(`/api/collection/${mine}`);
    expect(res.status).toBe(200);
    const d = (await res.json()) as OwnedCardDetail;
    expect(d.ownedCard).toMatchObject({ id: mine, acquiredVia: 'grant', status: 'in_vault', buybackCents: 255 });
    expect(d.opening).toBeNull();
    expect(d.buyback).toBeNull();
    expect(d.refs.classes[0]!.id).toBe(cls.id);
    expect((await t.as(me).get(`/api/collection/${theirs}`)).status).toBe(404);
    expect((await t.as(me).get(`/api/collection/${randomUUID()}`)).status).toBe(404);
    expect((await t.as(me).get('/api/collection/not-an-id')).status).toBe(404);
  });
});
