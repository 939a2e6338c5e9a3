import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MarketOffer } from '../../../shared/contracts/market.ts';
import type { AdminMarketListing, AdminMarketSummary, AdminMarketTrade } from '../../../shared/contracts/market-admin.ts';
import type { Paged } from '../../../shared/contracts/paging.ts';
import { auditLog } from '../../db/schema/audit.ts';
import { user } from '../../db/schema/auth.ts';
import { notifications } from '../../db/schema/notifications.ts';
import { referrals } from '../../db/schema/referrals.ts';
import { giveCards, makeCard, makeClass, statusesOf } from '../buyback/test-support.ts';
import { getBalance } from '../wallet/service.ts';
import { idem, ledgerInvariants, moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';
import { buyerWith, errOf, json, listOk as listCopy } from './test-support.ts';

/** Issue 43 item 7: /admin/market's API — listings and trades with filters, figures, removal with a reason. */

let t: MoneyTestContext;
let admin: string;
beforeAll(async () => {
  t = await moneyTestContext();
  admin = await t.makeUser({ role: 'admin' });
});
afterAll(() => t.close());


async function sellerWith(n: number, valueCents = 1000) {
  const userId = await t.makeUser();
  const cls = await makeClass(t);
  const card = await makeCard(t, { classId: cls.id, valueCents, stock: 50 });
  const copies = await giveCards(t, userId, card.id, n);
  return { userId, card, copies };
}

const listOk = (userId: string, ownedCardId: string, priceCents: number) => listCopy(t, userId, ownedCardId, priceCents, { confirmFarPrice: true });
const buyer = () => buyerWith(t, 100_000);

const remove = (who: string | null, id: string, body: unknown = { reason: 'counterfeit suspected' }) => t.as(who).post(`/api/admin/market/listings/${id}/remove`, body);

describe('GET /api/admin/market/listings and /trades', () => {
  it('lists every listing with its seller and open offers, filtered by state, card and seller; trades cover both kinds of sale', async () => {
    const s = await sellerWith(4);
    const mine = await listOk(s.userId, s.copies[0]!, 2000);
    const sold = await listOk(s.userId, s.copies[1]!, 3000);
    const b = await buyer();
    expect((await t.as(b).post(`/api/market/${sold.id}/buy`, { expectedPriceCents: 3000 }, idem())).status).toBe(201);
    const bidder = await buyer();
    expect((await t.as(bidder).post(`/api/market/${mine.id}/offers`, { amountCents: 1500 }, idem())).status).toBe(201);
    const cardOffer = await json<MarketOffer>(await t.as(bidder).post('/api/market/offers', { cardId: s.card.id, amountCents: 2500 }, idem()));
    expect((await t.as(s.userId).post(`/api/market/offers/${cardOffer.id}/accept`, { ownedCardId: s.copies[2] }, idem())).status).toBe(201);

    const byCard = await json<Paged<AdminMarketListing>>(await t.as(admin).get(`/api/admin/market/listings?card=${encodeURIComponent(s.card.name)}`));
    expect(byCard.items.map((l) => [l.id, l.state])).toEqual([
      [sold.id, 'sold'],
      [mine.id, 'active'],
    ]);
    const active = byCard.items.find((l) => l.id === mine.id)!;
    expect(active.openOffers).toBe(1);
    expect(active.sellerEmail).toMatch(/@/);
    expect(byCard.items.find((l) => l.id === sold.id)!.buyerId).toBe(b);
    const onlyActive = await json<Paged<AdminMarketListing>>(await t.as(admin).get(`/api/admin/market/listings?state=active&card=${encodeURIComponent(s.card.name)}`));
    expect(onlyActive.items.map((l) => l.id)).toEqual([mine.id]);
    const other = await json<Paged<AdminMarketListing>>(await t.as(admin).get(`/api/admin/market/listings?seller=nobody-like-this-${randomUUID()}`));
    expect(other.total).toBe(0);

    const trades = await json<Paged<AdminMarketTrade>>(await t.as(admin).get(`/api/admin/market/trades?card=${encodeURIComponent(s.card.name)}`));
    expect(trades.items.map((x) => [x.via, x.priceCents, x.buyerId])).toEqual([
      ['card_offer', 2500, bidder],
      ['listing', 3000, b],
    ]);
    expect(trades.items.every((x) => x.feeCents > 0 && x.ledgerEntryId)).toBe(true);
    // By buyer or seller (username or email) and by date.
    const [bidderRow] = await t.deps.db.select({ email: user.email }).from(user).where(eq(user.id, bidder));
    const byBuyer = await json<Paged<AdminMarketTrade>>(await t.as(admin).get(`/api/admin/market/trades?user=${encodeURIComponent(bidderRow!.email)}`));
    expect(byBuyer.items.map((x) => x.id)).toEqual([cardOffer.id]);
    expect((await json<Paged<AdminMarketTrade>>(await t.as(admin).get(`/api/admin/market/trades?user=nobody-${randomUUID()}`))).total).toBe(0);
    expect((await json<Paged<AdminMarketTrade>>(await t.as(admin).get(`/api/admin/market/trades?card=${encodeURIComponent(s.card.name)}&to=2020-01-01`))).total).toBe(0);
  });

  it('the figures: active listings, open offers and holds now; sales, volume and fee revenue over the period', async () => {
    const before = await json<AdminMarketSummary>(await t.as(admin).get('/api/admin/market/summary'));
    const s = await sellerWith(2);
    const l = await listOk(s.userId, s.copies[0]!, 4000);
    await t.as(await buyer()).post(`/api/market/${l.id}/buy`, { expectedPriceCents: 4000 }, idem());
    const open = await listOk(s.userId, s.copies[1]!, 5000);
    await t.as(await buyer()).post(`/api/market/${open.id}/offers`, { amountCents: 1000 }, idem());
    const after = await json<AdminMarketSummary>(await t.as(admin).get('/api/admin/market/summary'));
    expect(after.sales - before.sales).toBe(1);
    expect(after.volumeCents - before.volumeCents).toBe(4000);
    expect(after.feesCents - before.feesCents).toBe(l.feeCents);
    expect(after.activeListings - before.activeListings).toBe(1);
    expect(after.openOffers - before.openOffers).toBe(1);
    expect(after.heldCents - before.heldCents).toBe(1000);
    // A period with no sales; a period that ends before it starts is refused.
    const past = await json<AdminMarketSummary>(await t.as(admin).get('/api/admin/market/summary?from=2020-01-01&to=2020-01-31'));
    expect(past).toMatchObject({ from: '2020-01-01', to: '2020-01-31', sales: 0, volumeCents: 0, feesCents: 0 });
    expect((await t.as(admin).get('/api/admin/market/summary?from=2020-02-01&to=2020-01-01')).status).toBe(400);
  });
});

describe('POST /api/admin/market/listings/{id}/remove', () => {
  it('ends the listing: the card back in the vault, offers closed with their holds released, the seller told the reason, audited', async () => {
    const s = await sellerWith(1);
    const l = await listOk(s.userId, s.copies[0]!, 2000);
    const bidder = await buyer();
    const free = (await getBalance(t.deps.db, bidder)).balanceCents;
    expect((await t.as(bidder).post(`/api/market/${l.id}/offers`, { amountCents: 1500 }, idem())).status).toBe(201);
    expect((await getBalance(t.deps.db, bidder)).balanceCents).toBe(free - 1500);

    // No reason, a user, another admin's refusal: 400, 403, and nothing moves.
    expect((await remove(admin, l.id, {})).status).toBe(400);
    expect((await remove(admin, l.id, { reason: 'x' })).status).toBe(400);
    expect((await remove(s.userId, l.id)).status).toBe(403);
    expect((await remove(null, l.id)).status).toBe(401);
    expect(await statusesOf(t, [s.copies[0]!])).toEqual({ [s.copies[0]!]: 'listed' });

    const res = await remove(admin, l.id, { reason: '  counterfeit suspected  ' });
    expect(res.status, await res.clone().text()).toBe(200);
    const out = await json<AdminMarketListing>(res);
    expect(out).toMatchObject({ id: l.id, state: 'delisted', removedBy: admin, removedReason: 'counterfeit suspected' });
    expect(await statusesOf(t, [s.copies[0]!])).toEqual({ [s.copies[0]!]: 'in_vault' });
    expect((await getBalance(t.deps.db, bidder)).balanceCents).toBe(free);
    const told = await t.deps.db.select().from(notifications).where(and(eq(notifications.userId, s.userId), eq(notifications.kind, 'market_listing')));
    expect(told).toHaveLength(1);
    expect(told[0]!.title).toMatch(/listing removed/);
    expect(told[0]!.body).toMatch(/The reason: counterfeit suspected\./);
    const audits = await t.deps.db.select().from(auditLog).where(and(eq(auditLog.action, 'market.listing.remove'), eq(auditLog.targetId, l.id)));
    expect(audits).toHaveLength(1);
    expect(audits[0]!.after).toMatchObject({ reason: 'counterfeit suspected' });
    // The listing is gone from the market; removing it again changes nothing.
    expect((await t.as(null).get(`/api/market/${l.id}`)).status).toBe(404);
    const again = await remove(admin, l.id);
    expect(again.status).toBe(409);
    expect((await errOf(again)).code).toBe('listing_closed');
    expect((await remove(admin, randomUUID())).status).toBe(404);
    const inv = await ledgerInvariants(t);
    expect(inv.mismatched).toEqual([]);
    expect(inv.negativeBalances).toBe(0);
  });

  it('staff never remove their own or a referred account’s listing, nor a competitor’s listing of a card they sell; each refusal is audited', async () => {
    const staff = await t.makeUser({ role: 'admin' });
    const own = await sellerWith(0);
    const [staffCopy] = await giveCards(t, staff, own.card.id, 1);
    const ownListing = await listOk(staff, staffCopy!, 2000);
    let res = await remove(staff, ownListing.id);
    expect(res.status).toBe(403);
    expect((await errOf(res)).code).toBe('self_dealing');

    const puppet = await t.makeUser();
    await t.deps.db.insert(referrals).values({ referrerId: staff, refereeId: puppet, code: `C${randomUUID().slice(0, 8)}`, status: 'rejected', reason: 'test link' });
    const [puppetCopy] = await giveCards(t, puppet, own.card.id, 1);
    res = await remove(staff, (await listOk(puppet, puppetCopy!, 2100)).id);
    expect((await errOf(res)).code).toBe('self_dealing');

    // A stranger selling the same card as the staff member: a competitor.
    const stranger = await t.makeUser();
    const [strangerCopy] = await giveCards(t, stranger, own.card.id, 1);
    const competitor = await listOk(stranger, strangerCopy!, 1900);
    res = await remove(staff, competitor.id);
    expect(res.status).toBe(403);
    expect((await errOf(res)).message).toMatch(/selling this card on the market yourself/);
    expect(await statusesOf(t, [strangerCopy!])).toEqual({ [strangerCopy!]: 'listed' });
    // Another admin, with no stake, may.
    expect((await remove(admin, competitor.id)).status).toBe(200);
    const refused = await t.deps.db.select().from(auditLog).where(and(eq(auditLog.actorId, staff), eq(auditLog.action, 'market.listing.remove.refused')));
    expect(refused).toHaveLength(3);
  });
});
