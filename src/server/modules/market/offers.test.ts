import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MarketOffer, MarketOfferPage, MarketOfferSale } from '../../../shared/contracts/market.ts';
import { ownedCards } from '../../db/schema/inventory.ts';
import { marketListings, marketOffers } from '../../db/schema/market.ts';
import { selfExclusions } from '../../db/schema/responsible-play.ts';
import { giveCards, makeCard, makeClass, statusesOf } from '../buyback/test-support.ts';
import { liveProduct, makeCatalog } from '../shop/test-support.ts';
import { fund } from '../shipping/test-support.ts';
import { getBalance } from '../wallet/service.ts';
import { ledgerInvariants, moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';
import { marketPersonalData } from './personal-data.ts';
import { OFFER_RATE } from './routes.ts';
import { marketExpiryJob } from './expiry-job.ts';
import { expireDue } from './service.ts';
import { buyerWith, codeOf, json, listOk as listCopy, type ApiErr } from './test-support.ts';

/** Offers and holds (issue 43 item 3, ADR 0028 part 2), over HTTP. */

let t: MoneyTestContext;
beforeAll(async () => {
  t = await moneyTestContext();
});
afterAll(() => t.close());

type Err = ApiErr;
const idem = () => ({ 'Idempotency-Key': randomUUID() });

async function seller(valueCents = 1000) {
  const userId = await t.makeUser();
  const cls = await makeClass(t);
  const card = await makeCard(t, { classId: cls.id, valueCents, stock: 50 });
  const [owned] = await giveCards(t, userId, card.id);
  return { userId, card, owned: owned! };
}

const listOk = (userId: string, ownedCardId: string, priceCents: number, extra: Record<string, unknown> = {}) => listCopy(t, userId, ownedCardId, priceCents, extra);
const buyer = (cents = 10_000) => buyerWith(t, cents);

const offer = (userId: string, listingId: string, body: Record<string, unknown>, headers: Record<string, string> = idem()) =>
  t.as(userId).post(`/api/market/${listingId}/offers`, body, headers);
const cardOffer = (userId: string, body: Record<string, unknown>, headers: Record<string, string> = idem()) => t.as(userId).post('/api/market/offers', body, headers);
async function offerOk(userId: string, listingId: string, amountCents: number) {
  const res = await offer(userId, listingId, { amountCents });
  if (res.status !== 201) throw new Error(`offer: ${res.status} ${await res.text()}`);
  return json<MarketOffer>(res);
}
const accept = (userId: string, offerId: string, body: Record<string, unknown> = {}, headers: Record<string, string> = idem()) =>
  t.as(userId).post(`/api/market/offers/${offerId}/accept`, body, headers);
const act = (userId: string | null, offerId: string, action: 'reject' | 'cancel') => t.as(userId).post(`/api/market/offers/${offerId}/${action}`, {});
const counter = (userId: string | null, offerId: string, amountCents: number) => t.as(userId).post(`/api/market/offers/${offerId}/counter`, { amountCents });

const bal = (userId: string) => getBalance(t.deps.db, userId);
const offerRow = async (id: string) => (await t.deps.db.select().from(marketOffers).where(eq(marketOffers.id, id)))[0]!;

/** The books: every entry sums to zero, cached balances and holds match their postings, each buyer's held money is what their open offers hold. */
async function expectBooks() {
  const inv = await ledgerInvariants(t);
  expect(inv.mismatched).toEqual([]);
  expect(inv.negativeBalances).toBe(0);
  const [unbalanced] = await t.deps.dbh.query<{ n: string }>(
    sql`select count(*) as n from (select entry_id from postings group by entry_id having sum(amount_cents) <> 0) x`,
  );
  expect(Number(unbalanced!.n)).toBe(0);
  const holds = await t.deps.dbh.query<{ user_id: string; held: string; offers: string }>(sql`
    select b.user_id, b.held_cents as held, coalesce((select sum(o.held_cents) from market_offers o where o.buyer_id = b.user_id and o.state = 'open'), 0) as offers
    from balances b`);
  expect(holds.filter((h) => Number(h.held) !== Number(h.offers))).toEqual([]);
  const [closedHolding] = await t.deps.dbh.query<{ n: string }>(sql`select count(*) as n from market_offers where state <> 'open' and held_cents <> 0`);
  expect(Number(closedHolding!.n)).toBe(0);
}

describe('holds', () => {
  it('an offer holds its amount at once: the free balance drops, /wallet/balance shows both, the history shows the hold', async () => {
    const s = await seller();
    const l = await listOk(s.userId, s.owned, 2000);
    const b = await buyer(5000);
    const o = await offerOk(b, l.id, 1500);
    expect(o).toMatchObject({ state: 'open', amountCents: 1500, heldCents: 1500, madeBy: 'buyer', listingId: l.id, sellerId: s.userId, listingPriceCents: 2000 });
    expect(await bal(b)).toMatchObject({ balanceCents: 3500, heldCents: 1500 });
    const wallet = await json<{ balanceCents: number; heldCents: number }>(await t.as(b).get('/api/wallet/balance'));
    expect(wallet).toMatchObject({ balanceCents: 3500, heldCents: 1500 });
    const history = await json<{ entries: Array<{ kind: string; amountCents: number }> }>(await t.as(b).get('/api/wallet/history'));
    expect(history.entries[0]).toMatchObject({ kind: 'market_hold', amountCents: -1500 });
    await expectBooks();
  });

  it('held money cannot be spent: a pack purchase that needs it is refused, and goes through once the hold is released', async () => {
    const owner = await t.makeUser({ role: 'owner' });
    const cat = await makeCatalog(t, [{ name: `Hold ${randomUUID().slice(0, 6)}`, cards: [{ value: 100, stock: 100 }] }]);
    const cls = Object.values(cat.classes)[0]!;
    const { productId } = await liveProduct(t, owner, { name: `Held pack ${randomUUID().slice(0, 6)}`, priceCents: 1000, slots: [{ odds: [{ classId: cls, weight: 1 }] }] });
    const s = await seller();
    const l = await listOk(s.userId, s.owned, 2000);
    const b = await buyer(1500);
    const o = await offerOk(b, l.id, 1000);
    const open = () => t.as(b).post('/api/shop/open', { productId, quantity: 1 }, idem());
    const refused = await open();
    expect(refused.status).toBe(409);
    expect(await codeOf(refused)).toBe('insufficient_funds');
    expect(await bal(b)).toMatchObject({ balanceCents: 500, heldCents: 1000 });
    // A second offer above the free balance is refused too, holding nothing more.
    const s2 = await seller();
    const l2 = await listOk(s2.userId, s2.owned, 2000);
    const second = await offer(b, l2.id, { amountCents: 600 });
    expect(second.status).toBe(409);
    expect(await codeOf(second)).toBe('insufficient_funds');
    // Buy now cannot spend it either.
    const s3 = await seller();
    const l3 = await listOk(s3.userId, s3.owned, 1000);
    const bought = await t.as(b).post(`/api/market/${l3.id}/buy`, { expectedPriceCents: 1000 }, idem());
    expect(await codeOf(bought)).toBe('insufficient_funds');
    expect((await act(b, o.id, 'cancel')).status).toBe(200);
    expect(await bal(b)).toMatchObject({ balanceCents: 1500, heldCents: 0 });
    expect((await open()).status).toBe(201);
    expect((await bal(b)).balanceCents).toBe(500);
    await expectBooks();
  });

  it('the database refuses a wallet row holding more than it has', async () => {
    const b = await buyer(100);
    await expect(t.deps.db.execute(sql`update balances set held_cents = -1 where user_id = ${b}`)).rejects.toThrow();
  });
});

describe('releases', () => {
  it('cancel (by the buyer) and reject (by the seller) give the hold back; the other side is told', async () => {
    const s = await seller();
    const l = await listOk(s.userId, s.owned, 2000);
    const b = await buyer(5000);
    const o1 = await offerOk(b, l.id, 1000);
    expect((await act(b, o1.id, 'cancel')).status).toBe(200);
    expect(await bal(b)).toMatchObject({ balanceCents: 5000, heldCents: 0 });
    const o2 = await offerOk(b, l.id, 1200);
    const rejected = await act(s.userId, o2.id, 'reject');
    expect(rejected.status).toBe(200);
    expect((await json<MarketOffer>(rejected)).state).toBe('rejected');
    expect(await bal(b)).toMatchObject({ balanceCents: 5000, heldCents: 0 });
    const again = await act(s.userId, o2.id, 'reject');
    expect(again.status).toBe(409);
    expect(await codeOf(again)).toBe('offer_closed');
    const inbox = (await json<{ items: Array<{ kind: string; title: string }> }>(await t.as(b).get('/api/notifications'))).items;
    expect(inbox.some((n) => n.kind === 'market_offer' && n.title.includes('declined'))).toBe(true);
    const sellerInbox = (await json<{ items: Array<{ kind: string; title: string }> }>(await t.as(s.userId).get('/api/notifications'))).items;
    expect(sellerInbox.filter((n) => n.kind === 'market_offer' && n.title.startsWith('Offer on'))).toHaveLength(2);
    await expectBooks();
  });

  it('expiry (lazily and by the job) gives the hold back and tells the buyer', async () => {
    const s = await seller();
    const l = await listOk(s.userId, s.owned, 2000);
    const b = await buyer(5000);
    const o = await offerOk(b, l.id, 1000);
    await t.deps.db.update(marketOffers).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(marketOffers.id, o.id));
    const late = await accept(s.userId, o.id);
    expect(late.status).toBe(409);
    expect(await codeOf(late)).toBe('offer_closed');
    expect((await offerRow(o.id)).state).toBe('expired');
    expect(await bal(b)).toMatchObject({ balanceCents: 5000, heldCents: 0 });
    expect(await statusesOf(t, [s.owned])).toEqual({ [s.owned]: 'listed' });

    const o2 = await offerOk(b, l.id, 1100);
    await t.deps.db.update(marketOffers).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(marketOffers.id, o2.id));
    await marketExpiryJob().run(t.deps, new AbortController().signal);
    expect((await offerRow(o2.id)).state).toBe('expired');
    expect(await bal(b)).toMatchObject({ balanceCents: 5000, heldCents: 0 });
    const inbox = (await json<{ items: Array<{ kind: string; title: string }> }>(await t.as(b).get('/api/notifications'))).items;
    expect(inbox.filter((n) => n.kind === 'market_offer' && n.title.includes('expired')).length).toBeGreaterThanOrEqual(2);
    await expectBooks();
  });

  it('a listing sold elsewhere (buy now), delisted or expired closes its offers: every hold goes back', async () => {
    const s = await seller();
    const l = await listOk(s.userId, s.owned, 2000);
    const b1 = await buyer(5000);
    const b2 = await buyer(5000);
    const o1 = await offerOk(b1, l.id, 1000);
    const o2 = await offerOk(b2, l.id, 1500);
    const winner = await buyer(5000);
    expect((await t.as(winner).post(`/api/market/${l.id}/buy`, { expectedPriceCents: 2000 }, idem())).status).toBe(201);
    for (const [o, b] of [[o1, b1], [o2, b2]] as const) {
      expect((await offerRow(o.id)).state).toBe('lapsed');
      expect(await bal(b)).toMatchObject({ balanceCents: 5000, heldCents: 0 });
    }
    const sold = await offer(b1, l.id, { amountCents: 1000 });
    expect(sold.status).toBe(409);
    expect(await codeOf(sold)).toBe('listing_sold');

    const s2 = await seller();
    const l2 = await listOk(s2.userId, s2.owned, 2000);
    const o3 = await offerOk(b1, l2.id, 900);
    expect((await t.as(s2.userId).delete(`/api/market/${l2.id}`)).status).toBe(200);
    expect((await offerRow(o3.id)).state).toBe('lapsed');
    expect(await bal(b1)).toMatchObject({ balanceCents: 5000, heldCents: 0 });

    const s3 = await seller();
    const l3 = await listOk(s3.userId, s3.owned, 2000, { expiresInDays: 1 });
    const o4 = await offerOk(b2, l3.id, 900);
    await t.deps.db.update(marketListings).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(marketListings.id, l3.id));
    await expireDue(t.deps.db, { listingId: l3.id });
    expect((await offerRow(o4.id)).state).toBe('lapsed');
    expect(await bal(b2)).toMatchObject({ balanceCents: 5000, heldCents: 0 });
    await expectBooks();
  });
});

describe('accept', () => {
  it('a bid accepted by the seller is the sale: buyer pays from the hold, seller gets amount − fee, fee to the house, the card moves', async () => {
    const s = await seller();
    const l = await listOk(s.userId, s.owned, 3000);
    const b = await buyer(5000);
    const other = await buyer(5000);
    const o = await offerOk(b, l.id, 2000);
    const lost = await offerOk(other, l.id, 1800);
    const res = await accept(s.userId, o.id);
    expect(res.status).toBe(201);
    const sale = await json<MarketOfferSale>(res);
    expect(sale.offer).toMatchObject({ state: 'accepted', heldCents: 0, feeCents: 100, ownedCardId: s.owned });
    expect(await bal(b)).toMatchObject({ balanceCents: 3000, heldCents: 0 });
    expect(await bal(s.userId)).toMatchObject({ balanceCents: 1900 });
    expect(await bal(other)).toMatchObject({ balanceCents: 5000, heldCents: 0 });
    expect((await offerRow(lost.id)).state).toBe('lapsed');
    const [copy] = await t.deps.db.select().from(ownedCards).where(eq(ownedCards.id, s.owned));
    expect(copy).toMatchObject({ ownerId: b, status: 'in_vault' });
    const [listing] = await t.deps.db.select().from(marketListings).where(eq(marketListings.id, l.id));
    expect(listing).toMatchObject({ state: 'sold', soldTo: b, soldPriceCents: 2000, feeCents: 100 });
    const postings = await t.deps.dbh.query<{ amount_cents: string }>(sql`select amount_cents from postings where entry_id = ${sale.ledgerEntryId}`);
    expect(postings.map((p) => Number(p.amount_cents)).sort((x, y) => x - y)).toEqual([-2000, 100, 1900]);
    const inbox = (await json<{ items: Array<{ kind: string; title: string }> }>(await t.as(b).get('/api/notifications'))).items;
    expect(inbox.some((n) => n.kind === 'market_offer' && n.title.includes('accepted'))).toBe(true);
    const again = await accept(s.userId, o.id);
    expect(again.status).toBe(409);
    expect(await codeOf(again)).toBe('offer_closed');
    await expectBooks();
  });

  it('a counter: the bid becomes countered, the hold carries over; the buyer accepts and pays the rest from the free balance', async () => {
    const s = await seller();
    const l = await listOk(s.userId, s.owned, 3000);
    const b = await buyer(5000);
    const o = await offerOk(b, l.id, 2000);
    expect((await counter(s.userId, o.id, 1500)).status).toBe(400); // below the bid
    expect((await counter(s.userId, o.id, 3500)).status).toBe(400); // above the price
    expect((await counter(b, o.id, 2500)).status).toBe(403); // your own offer
    expect((await counter(await t.makeUser(), o.id, 2500)).status).toBe(404);
    const res = await counter(s.userId, o.id, 2500);
    expect(res.status).toBe(201);
    const c = await json<MarketOffer>(res);
    expect(c).toMatchObject({ madeBy: 'seller', state: 'open', amountCents: 2500, heldCents: 2000, counterOf: o.id });
    expect((await offerRow(o.id)).state).toBe('countered');
    expect(await bal(b)).toMatchObject({ balanceCents: 3000, heldCents: 2000 });
    const received = await json<MarketOfferPage>(await t.as(b).get('/api/market/offers/received'));
    expect(received.items.map((i) => i.id)).toContain(c.id);
    const made = await json<MarketOfferPage>(await t.as(s.userId).get('/api/market/offers/mine'));
    expect(made.items.map((i) => i.id)).toContain(c.id);
    // The seller cannot accept their own counter; the buyer can.
    const own = await accept(s.userId, c.id);
    expect(own.status).toBe(403);
    expect(await codeOf(own)).toBe('self_dealing');
    const bought = await accept(b, c.id);
    expect(bought.status).toBe(201);
    expect(await bal(b)).toMatchObject({ balanceCents: 2500, heldCents: 0 });
    expect(await bal(s.userId)).toMatchObject({ balanceCents: 2500 - 125 });
    await expectBooks();
  });

  it('a counter the buyer cannot cover is refused with nothing moved; declining it gives the hold back', async () => {
    const s = await seller();
    const l = await listOk(s.userId, s.owned, 3000);
    const b = await buyer(2100);
    const o = await offerOk(b, l.id, 2000);
    const c = await json<MarketOffer>(await counter(s.userId, o.id, 2900));
    const short = await accept(b, c.id);
    expect(short.status).toBe(409);
    expect(await codeOf(short)).toBe('insufficient_funds');
    expect(await bal(b)).toMatchObject({ balanceCents: 100, heldCents: 2000 });
    expect((await offerRow(c.id)).state).toBe('open');
    expect((await act(b, c.id, 'reject')).status).toBe(200);
    expect(await bal(b)).toMatchObject({ balanceCents: 2100, heldCents: 0 });
    const sellerInbox = (await json<{ items: Array<{ kind: string; title: string }> }>(await t.as(s.userId).get('/api/notifications'))).items;
    expect(sellerInbox.some((n) => n.kind === 'market_offer' && n.title.includes('counter declined'))).toBe(true);
    await expectBooks();
  });

  it('a card offer: any owner of a vaulted, unlisted copy accepts it with the copy they choose', async () => {
    const s = await seller();
    const b = await buyer(5000);
    const res = await cardOffer(b, { cardId: s.card.id, amountCents: 800 });
    expect(res.status).toBe(201);
    const o = await json<MarketOffer>(res);
    expect(o).toMatchObject({ listingId: null, sellerId: null, heldCents: 800 });
    const received = await json<MarketOfferPage>(await t.as(s.userId).get('/api/market/offers/received'));
    expect(received.items.map((i) => i.id)).toContain(o.id);
    const stranger = await t.makeUser();
    expect((await json<MarketOfferPage>(await t.as(stranger).get('/api/market/offers/received'))).items.map((i) => i.id)).not.toContain(o.id);
    // Card offers are accepted or left to expire.
    const rej = await act(s.userId, o.id, 'reject');
    expect(rej.status).toBe(409);
    expect(await codeOf(rej)).toBe('offer_action_unavailable');
    expect(await codeOf(await counter(s.userId, o.id, 900))).toBe('offer_action_unavailable');
    // The copy must be named, be theirs, be this card, and be in the vault unlisted.
    expect((await accept(s.userId, o.id, {})).status).toBe(400);
    expect((await accept(stranger, o.id, { ownedCardId: s.owned })).status).toBe(404);
    const otherCard = await seller();
    expect((await accept(otherCard.userId, o.id, { ownedCardId: otherCard.owned })).status).toBe(400);
    const [second] = await giveCards(t, s.userId, s.card.id);
    await listOk(s.userId, second!, 5000, { confirmFarPrice: true });
    expect(await codeOf(await accept(s.userId, o.id, { ownedCardId: second! }))).toBe('listed');
    const sold = await accept(s.userId, o.id, { ownedCardId: s.owned });
    expect(sold.status).toBe(201);
    expect((await json<MarketOfferSale>(sold)).offer).toMatchObject({ state: 'accepted', sellerId: s.userId, ownedCardId: s.owned, feeCents: 40 });
    const [copy] = await t.deps.db.select().from(ownedCards).where(eq(ownedCards.id, s.owned));
    expect(copy).toMatchObject({ ownerId: b, status: 'in_vault' });
    expect(await bal(b)).toMatchObject({ balanceCents: 4200, heldCents: 0 });
    expect((await bal(s.userId)).balanceCents).toBe(760);
    await expectBooks();
  });
});

describe('races', () => {
  it('10 concurrent accepts of one offer capture it exactly once', async () => {
    const s = await seller();
    const l = await listOk(s.userId, s.owned, 3000);
    const b = await buyer(5000);
    const o = await offerOk(b, l.id, 2000);
    const results = await Promise.all(Array.from({ length: 10 }, () => accept(s.userId, o.id)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((x) => x === 201)).toHaveLength(1);
    expect(statuses.filter((x) => x === 409)).toHaveLength(9);
    for (const r of results.filter((x) => x.status === 409)) expect(await codeOf(r)).toBe('offer_closed');
    expect(await bal(b)).toMatchObject({ balanceCents: 3000, heldCents: 0 });
    expect((await bal(s.userId)).balanceCents).toBe(1900);
    const [n] = await t.deps.dbh.query<{ n: string }>(sql`select count(*) as n from journal_entries where kind = 'market_sale' and reference_id = ${o.id}`);
    expect(Number(n!.n)).toBe(1);
    await expectBooks();
  });

  it('accept vs buy now vs delist: exactly one ends the listing, every other hold goes back, the books balance', async () => {
    for (let i = 0; i < 4; i++) {
      const s = await seller();
      const l = await listOk(s.userId, s.owned, 3000);
      const b = await buyer(5000);
      const bystander = await buyer(5000);
      const o = await offerOk(b, l.id, 2000);
      await offerOk(bystander, l.id, 1000);
      const direct = await buyer(5000);
      const [accepted, bought, delisted] = await Promise.all([
        accept(s.userId, o.id),
        t.as(direct).post(`/api/market/${l.id}/buy`, { expectedPriceCents: 3000 }, idem()),
        t.as(s.userId).delete(`/api/market/${l.id}`),
      ]);
      const wins = [accepted.status === 201, bought.status === 201, delisted.status === 200].filter(Boolean);
      expect(wins, `${accepted.status} ${bought.status} ${delisted.status}`).toHaveLength(1);
      for (const r of [accepted, bought, delisted]) expect([200, 201, 409]).toContain(r.status);
      const [copy] = await t.deps.db.select().from(ownedCards).where(eq(ownedCards.id, s.owned));
      if (accepted.status === 201) expect(copy).toMatchObject({ ownerId: b, status: 'in_vault' });
      else if (bought.status === 201) expect(copy).toMatchObject({ ownerId: direct, status: 'in_vault' });
      else expect(copy).toMatchObject({ ownerId: s.userId, status: 'in_vault' });
      expect((await bal(bystander))).toMatchObject({ balanceCents: 5000, heldCents: 0 });
      expect((await bal(b)).heldCents).toBe(0);
      expect((await bal(b)).balanceCents).toBe(accepted.status === 201 ? 3000 : 5000);
    }
    await expectBooks();
  });

  it('an offer made while the listing sells never outlives it', async () => {
    for (let i = 0; i < 4; i++) {
      const s = await seller();
      const l = await listOk(s.userId, s.owned, 3000);
      const b = await buyer(5000);
      const direct = await buyer(5000);
      const [made, bought] = await Promise.all([offer(b, l.id, { amountCents: 2000 }), t.as(direct).post(`/api/market/${l.id}/buy`, { expectedPriceCents: 3000 }, idem())]);
      expect(bought.status).toBe(201);
      if (made.status === 201) expect((await offerRow((await json<MarketOffer>(made)).id)).state).toBe('lapsed');
      else expect(await codeOf(made)).toBe('listing_sold');
      expect(await bal(b)).toMatchObject({ balanceCents: 5000, heldCents: 0 });
    }
    await expectBooks();
  });

  it('two offers at once from one buyer: one is held, the other 409 offer_exists', async () => {
    const s = await seller();
    const l = await listOk(s.userId, s.owned, 3000);
    const b = await buyer(5000);
    const results = await Promise.all([offer(b, l.id, { amountCents: 1000 }), offer(b, l.id, { amountCents: 1100 })]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await codeOf(results.find((r) => r.status === 409)!)).toBe('offer_exists');
    expect((await bal(b)).heldCents).toBeGreaterThan(0);
    await expectBooks();
  });
});

describe('refusals and bad input', () => {
  it('bad amounts are 400 with a field; nothing is held', async () => {
    const s = await seller();
    const l = await listOk(s.userId, s.owned, 3000);
    const b = await buyer(5000);
    for (const amountCents of [0, -100, 12.5, 1e12, '100', null, 99, 3001]) {
      const res = await offer(b, l.id, { amountCents });
      expect(res.status, String(amountCents)).toBe(400);
      expect((await json<Err>(res)).error.fields?.amountCents, String(amountCents)).toBeTruthy();
    }
    expect((await cardOffer(b, { cardId: s.card.id, amountCents: -5 })).status).toBe(400);
    expect((await cardOffer(b, { cardId: 'x', amountCents: 500 })).status).toBe(400);
    expect((await cardOffer(b, { cardId: randomUUID(), amountCents: 500 })).status).toBe(404);
    expect((await offer(b, randomUUID(), { amountCents: 500 })).status).toBe(404);
    expect((await offer(b, l.id, { amountCents: 500, extra: 1 })).status).toBe(400);
    expect((await t.as(b).post(`/api/market/${l.id}/offers`, { amountCents: 500 })).status).toBe(400); // no Idempotency-Key
    expect(await bal(b)).toMatchObject({ balanceCents: 5000, heldCents: 0 });
  });

  it('own listing (403 self_dealing), self-excluded (403), above the free balance (409), a second open offer (409 offer_exists)', async () => {
    const s = await seller();
    const l = await listOk(s.userId, s.owned, 3000);
    await fund(t, s.userId, 5000);
    const own = await offer(s.userId, l.id, { amountCents: 1000 });
    expect(own.status).toBe(403);
    expect(await codeOf(own)).toBe('self_dealing');
    const excluded = await buyer(5000);
    await t.deps.db.insert(selfExclusions).values({ userId: excluded, duration: '7d', endsAt: new Date(Date.now() + 7 * 86_400_000) });
    expect(await codeOf(await offer(excluded, l.id, { amountCents: 1000 }))).toBe('self_excluded');
    expect(await codeOf(await cardOffer(excluded, { cardId: s.card.id, amountCents: 1000 }))).toBe('self_excluded');
    const poor = await buyer(500);
    const broke = await offer(poor, l.id, { amountCents: 1000 });
    expect(broke.status).toBe(409);
    expect(await codeOf(broke)).toBe('insufficient_funds');
    const b = await buyer(5000);
    await offerOk(b, l.id, 1000);
    expect(await codeOf(await offer(b, l.id, { amountCents: 1200 }))).toBe('offer_exists');
    expect(await bal(b)).toMatchObject({ balanceCents: 4000, heldCents: 1000 });
    expect(await bal(poor)).toMatchObject({ balanceCents: 500, heldCents: 0 });
    expect(await bal(excluded)).toMatchObject({ balanceCents: 5000, heldCents: 0 });
    await expectBooks();
  });

  it('the same Idempotency-Key holds once', async () => {
    const s = await seller();
    const l = await listOk(s.userId, s.owned, 3000);
    const b = await buyer(5000);
    const headers = idem();
    const first = await offer(b, l.id, { amountCents: 1000 }, headers);
    const second = await offer(b, l.id, { amountCents: 1000 }, headers);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await bal(b)).toMatchObject({ balanceCents: 4000, heldCents: 1000 });
  });

  it('rate-limits making offers (429)', async () => {
    const b = await buyer(100_000);
    const statuses: number[] = [];
    for (let i = 0; i <= OFFER_RATE.limit; i++) {
      const s = await seller();
      statuses.push((await cardOffer(b, { cardId: s.card.id, amountCents: 100 })).status);
    }
    expect(statuses.slice(0, OFFER_RATE.limit).every((x) => x === 201)).toBe(true);
    expect(statuses[OFFER_RATE.limit]).toBe(429);
  });
});

describe('authorization', () => {
  it('every offer route: 401 anonymous; 404 for another user; 403 for the wrong side', async () => {
    const s = await seller();
    const l = await listOk(s.userId, s.owned, 3000);
    const b = await buyer(5000);
    const o = await offerOk(b, l.id, 1000);
    const stranger = await t.makeUser();
    expect((await t.as(null).post(`/api/market/${l.id}/offers`, { amountCents: 1000 }, idem())).status).toBe(401);
    expect((await t.as(null).post('/api/market/offers', { cardId: s.card.id, amountCents: 1000 }, idem())).status).toBe(401);
    expect((await t.as(null).get('/api/market/offers/mine')).status).toBe(401);
    expect((await t.as(null).get('/api/market/offers/received')).status).toBe(401);
    expect((await t.as(null).post(`/api/market/offers/${o.id}/accept`, {}, idem())).status).toBe(401);
    for (const a of ['reject', 'cancel'] as const) expect((await act(null, o.id, a)).status).toBe(401);
    expect((await counter(null, o.id, 1500)).status).toBe(401);

    // A stranger: not theirs to see or answer.
    expect((await accept(stranger, o.id)).status).toBe(404);
    expect((await act(stranger, o.id, 'reject')).status).toBe(404);
    expect((await act(stranger, o.id, 'cancel')).status).toBe(404);
    expect((await counter(stranger, o.id, 1500)).status).toBe(404);
    expect((await json<MarketOfferPage>(await t.as(stranger).get('/api/market/offers/mine'))).items).toEqual([]);
    expect((await json<MarketOfferPage>(await t.as(stranger).get('/api/market/offers/received'))).items).toEqual([]);
    // The wrong side: the buyer cannot accept or reject their own offer, the seller cannot cancel it.
    const selfAccept = await accept(b, o.id);
    expect(selfAccept.status).toBe(403);
    expect(await codeOf(selfAccept)).toBe('self_dealing');
    expect((await act(b, o.id, 'reject')).status).toBe(403);
    expect((await act(s.userId, o.id, 'cancel')).status).toBe(403);
    expect((await accept(s.userId, randomUUID())).status).toBe(404);
    expect((await accept(s.userId, 'nope')).status).toBe(404); // a path id that is no id: 404 (http/openapi.ts)
    // Lists: the buyer sees it as made, the seller as received.
    expect((await json<MarketOfferPage>(await t.as(b).get('/api/market/offers/mine'))).items.map((i) => i.id)).toEqual([o.id]);
    expect((await json<MarketOfferPage>(await t.as(s.userId).get('/api/market/offers/received'))).items.map((i) => i.id)).toEqual([o.id]);
    expect((await t.as(b).get('/api/market/offers/mine?state=bogus')).status).toBe(400);
    expect(await bal(b)).toMatchObject({ balanceCents: 4000, heldCents: 1000 });
  });
});

describe('account deletion', () => {
  it("cancels the person's open offers and ends their listings: every hold goes back", async () => {
    const s = await seller();
    const l = await listOk(s.userId, s.owned, 3000);
    const b = await buyer(5000);
    const o = await offerOk(b, l.id, 1000);
    const other = await seller();
    const ol = await listOk(other.userId, other.owned, 3000);
    const buyerOfMine = await buyer(5000);
    const mine = await offerOk(buyerOfMine, ol.id, 500);
    await t.deps.db.transaction((tx) => marketPersonalData.erase(tx, { id: s.userId, email: '', username: '', name: '' }));
    expect((await offerRow(o.id)).state).toBe('lapsed');
    expect(await bal(b)).toMatchObject({ balanceCents: 5000, heldCents: 0 });
    expect(await statusesOf(t, [s.owned])).toEqual({ [s.owned]: 'in_vault' });
    await t.deps.db.transaction((tx) => marketPersonalData.erase(tx, { id: buyerOfMine, email: '', username: '', name: '' }));
    expect((await offerRow(mine.id)).state).toBe('cancelled');
    expect(await bal(buyerOfMine)).toMatchObject({ balanceCents: 5000, heldCents: 0 });
    const exported = await marketPersonalData.export(t.deps.db, { id: b, email: '', username: '', name: '' });
    expect((exported.offers as unknown[]).length).toBe(1);
    await expectBooks();
  });
});
