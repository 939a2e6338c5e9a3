import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CardComps, MarketOffer } from '../../../shared/contracts/market.ts';
import { giveCards, makeCard, makeClass } from '../buyback/test-support.ts';
import { moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';
import { buyerWith, json, listOk as listCopy } from './test-support.ts';

/** Issue 43 item 5: a card's price comps — recent sales, lowest listing, buyback quote, reference. */

let t: MoneyTestContext;
beforeAll(async () => {
  t = await moneyTestContext();
});
afterAll(() => t.close());

const idem = () => ({ 'Idempotency-Key': randomUUID() });
const comps = async (cardId: string) => {
  const res = await t.as(null).get(`/api/market/cards/${cardId}/comps`);
  expect(res.status, await res.clone().text()).toBe(200);
  return json<CardComps>(res);
};

const listOk = (userId: string, ownedCardId: string, priceCents: number) => listCopy(t, userId, ownedCardId, priceCents, { confirmFarPrice: true });
const buyer = () => buyerWith(t, 100_000);

describe('GET /api/market/cards/{id}/comps', () => {
  it('a card nobody has traded: no sales or listings, the buyback quote of its class, the value as the reference', async () => {
    const cls = await makeClass(t, { buybackRateBp: 7000 });
    const card = await makeCard(t, { classId: cls.id, valueCents: 1234, stock: 5 });
    const c = await comps(card.id);
    expect(c).toEqual({
      cardId: card.id,
      valueCents: 1234,
      sales: [],
      lowestListing: null,
      activeListings: 0,
      buyback: { rateBp: 7000, amountCents: 863 },
      reference: { cents: 1234, basis: 'value', sales: 0 },
    });
  });

  it('lists listing and card-offer sales newest first, the cheapest active listing, and turns to the median after three sales', async () => {
    const sellerId = await t.makeUser();
    const cls = await makeClass(t);
    const card = await makeCard(t, { classId: cls.id, valueCents: 1000, stock: 50 });
    const copies = await giveCards(t, sellerId, card.id, 5);

    // Two active listings: the lowest is $25.00.
    await listOk(sellerId, copies[0]!, 3000);
    const cheap = await listOk(sellerId, copies[1]!, 2500);
    // A sale by buy now at $40.00.
    const sold = await listOk(sellerId, copies[2]!, 4000);
    const b1 = await buyer();
    expect((await t.as(b1).post(`/api/market/${sold.id}/buy`, { expectedPriceCents: 4000 }, idem())).status).toBe(201);
    // A card offer of $35.00, accepted with another copy: a sale without a listing.
    const b2 = await buyer();
    const made = await t.as(b2).post('/api/market/offers', { cardId: card.id, amountCents: 3500 }, idem());
    expect(made.status, await made.clone().text()).toBe(201);
    const offer = await json<MarketOffer>(made);
    const accepted = await t.as(sellerId).post(`/api/market/offers/${offer.id}/accept`, { ownedCardId: copies[3] }, idem());
    expect(accepted.status, await accepted.clone().text()).toBe(201);

    let c = await comps(card.id);
    expect(c.sales.map((s) => [s.priceCents, s.via])).toEqual([
      [3500, 'card_offer'],
      [4000, 'listing'],
    ]);
    expect(c.lowestListing).toEqual({ id: cheap.id, priceCents: 2500 });
    expect(c.activeListings).toBe(2);
    // Two sales are not enough for a reference of their own.
    expect(c.reference).toEqual({ cents: 1000, basis: 'value', sales: 2 });

    // A third sale ($25.00, the cheap listing): the reference is the median of 25, 35, 40.
    expect((await t.as(await buyer()).post(`/api/market/${cheap.id}/buy`, { expectedPriceCents: 2500 }, idem())).status).toBe(201);
    c = await comps(card.id);
    expect(c.sales).toHaveLength(3);
    expect(c.reference).toEqual({ cents: 3500, basis: 'sales', sales: 3 });
    expect(c.activeListings).toBe(1);
    expect(c.lowestListing?.priceCents).toBe(3000);
    // The far-price rule uses the same reference: $15.00 is below half of $35.00.
    const far = await t.as(sellerId).post('/api/market', { ownedCardId: copies[4], priceCents: 1500 });
    expect(far.status).toBe(409);

    // Sales older than a year are not comps.
    await t.deps.db.execute(sql`update market_listings set sold_at = now() - interval '400 days' where card_id = ${card.id}::uuid and state = 'sold'`);
    expect((await comps(card.id)).sales.map((s) => s.via)).toEqual(['card_offer']);
  });

  it('an unknown, malformed or retired card is 404', async () => {
    expect((await t.as(null).get(`/api/market/cards/${randomUUID()}/comps`)).status).toBe(404);
    expect((await t.as(null).get('/api/market/cards/not-a-card/comps')).status).toBe(404);
    const cls = await makeClass(t);
    const card = await makeCard(t, { classId: cls.id, valueCents: 1000, stock: 1 });
    await t.deps.db.execute(sql`update cards set active = false where id = ${card.id}::uuid`);
    expect((await t.as(null).get(`/api/market/cards/${card.id}/comps`)).status).toBe(404);
  });
});
