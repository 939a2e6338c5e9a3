import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MissingCards, SetCompletionList, Wishlist } from '../../../shared/contracts/collection.ts';
import type { ProductSummary } from '../../../shared/contracts/shop.ts';
import type { BusEvent } from '../realtime/bus.ts';
import { giveCards, makeCard, makeClass } from '../buyback/test-support.ts';
import { slots } from '../shop/test-support.ts';
import { moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';

let t: MoneyTestContext;
let admin: string;
const events: BusEvent[] = [];
beforeAll(async () => {
  t = await moneyTestContext();
  admin = await t.makeUser({ role: 'admin' });
  t.deps.bus.subscribe((e) => events.push(e));
});
afterAll(() => t.close());

const sets = async (userId: string) => {
  const res = await t.as(userId).get('/api/collection/sets');
  expect(res.status).toBe(200);
  return ((await res.json()) as SetCompletionList).items;
};
const wishlistOf = async (userId: string) => {
  const res = await t.as(userId).get('/api/wishlist');
  expect(res.status).toBe(200);
  return (await res.json()) as Wishlist;
};
const notes = (userId: string) =>
  t.deps.dbh.query<{ title: string; body: string; link: string | null; dedupe_key: string; data: { cardId: string } }>(
    sql`select title, body, link, dedupe_key, data from notifications where user_id = ${userId} and kind = 'wishlist_live' order by created_at`,
  );

describe('set completion', () => {
  it('counts distinct cards in the vault per set, and lists what is missing', async () => {
    const me = await t.makeUser();
    const other = await t.makeUser();
    const cls = await makeClass(t);
    const fire = `Fire ${randomUUID().slice(0, 6)}`;
    const water = `Water ${randomUUID().slice(0, 6)}`;
    const f = await Promise.all([1, 2, 3, 4].map((i) => makeCard(t, { classId: cls.id, valueCents: 100 * i, setName: fire, name: `Fire ${i}` })));
    const w = await Promise.all([1, 2].map((i) => makeCard(t, { classId: cls.id, valueCents: 100 * i, setName: water, name: `Water ${i}` })));
    const retired = await makeCard(t, { classId: cls.id, valueCents: 10, setName: fire, name: 'Retired' });
    await t.deps.dbh.query(sql`update cards set active = false where id = ${retired.id}`);

    // Two copies of one card count once; a sold copy does not count; another user's cards do not.
    await giveCards(t, me, f[0]!.id, 2);
    const [sold] = await giveCards(t, me, f[1]!.id);
    await t.deps.dbh.query(sql`update owned_cards set status = 'sold_back' where id = ${sold}`);
    await giveCards(t, me, f[2]!.id);
    await giveCards(t, me, w[0]!.id);
    await giveCards(t, me, w[1]!.id);
    await giveCards(t, other, f[3]!.id);
    await giveCards(t, me, retired.id);

    const mine = await sets(me);
    expect(mine.find((s) => s.setName === fire)).toEqual({ setName: fire, total: 4, owned: 2 });
    expect(mine.find((s) => s.setName === water)).toEqual({ setName: water, total: 2, owned: 2 });
    // The complete set first.
    expect(mine.findIndex((s) => s.setName === water)).toBeLessThan(mine.findIndex((s) => s.setName === fire));
    expect((await sets(other)).find((s) => s.setName === fire)).toEqual({ setName: fire, total: 4, owned: 1 });

    const res = await t.as(me).get(`/api/collection/sets/missing?set=${encodeURIComponent(fire)}`);
    expect(res.status).toBe(200);
    const missing = (await res.json()) as MissingCards;
    expect(missing.items.map((c) => c.id)).toEqual([f[1]!.id, f[3]!.id]);
    expect(missing.items.every((c) => c.wished === false)).toBe(true);
    expect(missing.refs.classes).toHaveLength(1);

    expect((await t.as(me).put(`/api/wishlist/${f[3]!.id}`, {})).status).toBe(200);
    const again = (await (await t.as(me).get(`/api/collection/sets/missing?set=${encodeURIComponent(fire)}`)).json()) as MissingCards;
    expect(again.items.find((c) => c.id === f[3]!.id)?.wished).toBe(true);
  });

  it('needs a session and a set name', async () => {
    const me = await t.makeUser();
    expect((await t.as(null).get('/api/collection/sets')).status).toBe(401);
    expect((await t.as(null).get('/api/collection/sets/missing?set=x')).status).toBe(401);
    expect((await t.as(me).get('/api/collection/sets/missing')).status).toBe(400);
    expect((await t.as(me).get(`/api/collection/sets/missing?set=${'x'.repeat(101)}`)).status).toBe(400);
  });
});

describe('wishlist', () => {
  it('adds and removes idempotently, only for the signed-in user', async () => {
    const me = await t.makeUser();
    const other = await t.makeUser();
    const cls = await makeClass(t);
    const a = await makeCard(t, { classId: cls.id, valueCents: 100 });
    const b = await makeCard(t, { classId: cls.id, valueCents: 200 });

    for (let i = 0; i < 2; i++) {
      const res = await t.as(me).put(`/api/wishlist/${a.id}`, {});
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ cardId: a.id, wished: true });
    }
    await t.as(me).put(`/api/wishlist/${b.id}`, {});
    await giveCards(t, me, b.id);
    const list = await wishlistOf(me);
    expect(list.cardIds).toEqual([b.id, a.id]);
    expect(list.items.map((i) => [i.card.id, i.owned])).toEqual([
      [b.id, true],
      [a.id, false],
    ]);
    expect((await wishlistOf(other)).items).toEqual([]);

    // Another user's removal touches only their own (empty) list.
    expect((await t.as(other).delete(`/api/wishlist/${a.id}`)).status).toBe(200);
    expect((await wishlistOf(me)).cardIds).toHaveLength(2);

    for (let i = 0; i < 2; i++) {
      const res = await t.as(me).delete(`/api/wishlist/${a.id}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ cardId: a.id, wished: false });
    }
    expect((await wishlistOf(me)).cardIds).toEqual([b.id]);
  });

  // A malformed path id names nothing: 404, as every path parameter in the API (http/openapi.ts).
  it('answers 404 for a malformed id or an unknown card, 401 signed out', async () => {
    const me = await t.makeUser();
    const cls = await makeClass(t);
    const card = await makeCard(t, { classId: cls.id, valueCents: 100 });
    expect((await t.as(me).put('/api/wishlist/not-an-id', {})).status).toBe(404);
    expect((await t.as(me).delete('/api/wishlist/not-an-id')).status).toBe(404);
    expect((await t.as(me).put(`/api/wishlist/${randomUUID()}`, {})).status).toBe(404);
    expect((await t.as(me).delete(`/api/wishlist/${randomUUID()}`)).status).toBe(404);
    expect((await t.as(null).put(`/api/wishlist/${card.id}`, {})).status).toBe(401);
    expect((await t.as(null).get('/api/wishlist')).status).toBe(401);
    await t.deps.dbh.query(sql`update cards set archived_at = now(), active = false where id = ${card.id}`);
    expect((await t.as(me).put(`/api/wishlist/${card.id}`, {})).status).toBe(404);
    expect((await wishlistOf(me)).items).toEqual([]);
  });
});

describe('wishlist_live notifications', () => {
  it('tells wishers when a product goes live with their card, once, and not for cards it cannot draw', async () => {
    const fan = await t.makeUser();
    const bystander = await t.makeUser();
    const inPack = await makeClass(t);
    const notInPack = await makeClass(t);
    const drawn = await makeCard(t, { classId: inPack.id, valueCents: 500, name: 'Drawn Dragon' });
    const emptyStock = await makeCard(t, { classId: inPack.id, valueCents: 500, name: 'Gone Griffin', stock: 0 });
    const elsewhere = await makeCard(t, { classId: notInPack.id, valueCents: 500, name: 'Other Owl' });
    for (const c of [drawn, emptyStock, elsewhere]) expect((await t.as(fan).put(`/api/wishlist/${c.id}`, {})).status).toBe(200);
    await t.as(bystander).put(`/api/wishlist/${elsewhere.id}`, {});

    const created = await t.as(admin).post('/api/admin/products', { name: 'Dragon Box', priceCents: 500 });
    expect(created.status).toBe(201);
    const product = ((await created.json()) as { product: ProductSummary }).product;
    const put = await t.as(admin).put(`/api/admin/packs/${product.packId}`, {
      name: 'Dragon Box',
      slots: slots(1, [{ classId: inPack.id, weight: 1 }]),
      pool: { mode: 'classes' },
    });
    expect(put.status).toBe(200);
    expect(await notes(fan)).toEqual([]); // a draft tells no one

    events.length = 0;
    expect((await t.as(admin).patch(`/api/admin/products/${product.id}`, { status: 'live' })).status).toBe(200);
    const got = await notes(fan);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({
      title: 'Drawn Dragon is in a pack',
      link: `/shop/${product.id}`,
      dedupe_key: `wishlist:${fan}:${drawn.id}:${product.id}`,
      data: { cardId: drawn.id },
    });
    expect(got[0]!.body).toContain('Dragon Box');
    expect(await notes(bystander)).toEqual([]);
    expect(events.some((e) => e.topic === `user:${fan}` && e.type === 'notification.created')).toBe(true);

    // Off and on again, or the same pool saved again: nothing new.
    await t.as(admin).patch(`/api/admin/products/${product.id}`, { status: 'draft' });
    await t.as(admin).patch(`/api/admin/products/${product.id}`, { status: 'live' });
    await t.as(admin).put(`/api/admin/packs/${product.packId}`, {
      name: 'Dragon Box',
      slots: slots(1, [{ classId: inPack.id, weight: 1 }]),
      pool: { mode: 'classes' },
    });
    expect(await notes(fan)).toHaveLength(1);

    // The live product's odds now reach the other class: its wishers hear, once.
    await t.as(admin).put(`/api/admin/packs/${product.packId}`, {
      name: 'Dragon Box',
      slots: slots(1, [
        { classId: inPack.id, weight: 1 },
        { classId: notInPack.id, weight: 1 },
      ]),
      pool: { mode: 'classes' },
    });
    expect((await notes(fan)).map((n) => n.data.cardId).sort()).toEqual([drawn.id, elsewhere.id].sort());
    expect((await notes(bystander)).map((n) => n.data.cardId)).toEqual([elsewhere.id]);
  });

  it('tells wishers when a card already in a live pool comes back: restocked from none, or moved into its class', async () => {
    const fan = await t.makeUser();
    const inPack = await makeClass(t);
    const outside = await makeClass(t);
    await makeCard(t, { classId: inPack.id, valueCents: 500, name: 'Anchor Ant' }); // so the product can go live
    const soldOut = await makeCard(t, { classId: inPack.id, valueCents: 500, name: 'Sold Out Stag', stock: 0 });
    const mover = await makeCard(t, { classId: outside.id, valueCents: 500, name: 'Moving Moth' });
    for (const c of [soldOut, mover]) expect((await t.as(fan).put(`/api/wishlist/${c.id}`, {})).status).toBe(200);
    const created = await t.as(admin).post('/api/admin/products', { name: 'Stag Box', priceCents: 500 });
    const product = ((await created.json()) as { product: ProductSummary }).product;
    await t.as(admin).put(`/api/admin/packs/${product.packId}`, { name: 'Stag Box', slots: slots(1, [{ classId: inPack.id, weight: 1 }]), pool: { mode: 'classes' } });
    expect((await t.as(admin).patch(`/api/admin/products/${product.id}`, { status: 'live' })).status).toBe(200);
    expect(await notes(fan)).toEqual([]); // neither can be drawn yet

    // Restocked from none: a notice. More stock on top, or a sell-out and a restock again: no repeat.
    const restock = (delta: number) => t.as(admin).post(`/api/admin/catalog/cards/${soldOut.id}/stock`, { delta, reason: 'restock' });
    expect((await restock(3)).status).toBe(200);
    expect((await notes(fan)).map((n) => n.data.cardId)).toEqual([soldOut.id]);
    expect((await restock(2)).status).toBe(200);
    expect((await restock(-5)).status).toBe(200);
    expect((await restock(1)).status).toBe(200);
    expect(await notes(fan)).toHaveLength(1);

    // Moved into the pack's class (it has stock): a notice for that card too.
    const moved = await t.as(admin).patch(`/api/admin/catalog/cards/${mover.id}`, { classId: inPack.id });
    expect(moved.status, await moved.text()).toBe(200);
    expect((await notes(fan)).map((n) => n.data.cardId).sort()).toEqual([soldOut.id, mover.id].sort());
    expect((await notes(fan))[1]!.link).toBe(`/shop/${product.id}`);
    await t.as(admin).patch(`/api/admin/products/${product.id}`, { status: 'archived' });
  });

  it('mails only those who turned the kind’s email on', async () => {
    const fan = await t.makeUser();
    const cls = await makeClass(t);
    const card = await makeCard(t, { classId: cls.id, valueCents: 500, name: 'Mail Moth' });
    await t.as(fan).put(`/api/wishlist/${card.id}`, {});
    const prefs = await t.as(fan).put('/api/notifications/preferences', { preferences: [{ kind: 'wishlist_live', inApp: true, email: true }] });
    expect(prefs.status).toBe(200);
    const created = await t.as(admin).post('/api/admin/products', { name: 'Moth Pack', priceCents: 500 });
    const product = ((await created.json()) as { product: ProductSummary }).product;
    await t.as(admin).put(`/api/admin/packs/${product.packId}`, { name: 'Moth Pack', slots: slots(1, [{ classId: cls.id, weight: 1 }]), pool: { mode: 'classes' } });
    await t.as(admin).patch(`/api/admin/products/${product.id}`, { status: 'live' });
    const mails = await t.deps.dbh.query<{ subject: string }>(
      sql`select subject from mail_messages where kind = 'wishlist-live' and subject like ${'%Mail Moth%'}`,
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('On your wishlist: Mail Moth is in Moth Pack');
  });
});
