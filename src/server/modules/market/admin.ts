import { and, count, desc, eq, gte, ilike, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { eqLiteral } from '../../lib/sql.ts';
import type { z } from 'zod';
import { dayEnd, instantMs, isCalendarDay } from '../../../shared/contracts/dates.ts';
import type {
  AdminMarketListing,
  AdminMarketSummary,
  AdminMarketTrade,
  adminMarketListingsQuerySchema,
  adminMarketSummaryQuerySchema,
  adminMarketTradesQuerySchema,
} from '../../../shared/contracts/market-admin.ts';
import type { Paged } from '../../../shared/contracts/paging.ts';
import { afterCommit } from '../../db/after-commit.ts';
import { rowsOf, type DbOrTx, type Tx } from '../../db/client.ts';
import { marketListings, marketOffers } from '../../db/schema/market.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { likePattern } from '../../lib/like.ts';
import { audit } from '../audit/service.ts';
import { accountsOf, ownRecordError } from '../audit/duties.ts';
import { user } from '../auth/tables.ts';
import { cards } from '../catalog/tables.ts';
import { lockBalances, openOfferBuyers, type MarketCtx } from './offer-holds.ts';
import { endListing, isExpired, listingsFrom, lockListing, toDto } from './service.ts';

/** The back office's view of the market (issue 43 item 7, /admin/market). */

const DAY_MS = 86_400_000;
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/** A period of days (`to` inclusive) or instants (`to` exclusive): the last 30 days by default. */
function periodOf(q: { from?: string | undefined; to?: string | undefined }) {
  const to = q.to ?? dayOf(new Date());
  const end = isCalendarDay(to) ? dayEnd(to) : new Date(to);
  const from = q.from ?? dayOf(new Date(end.getTime() - 30 * DAY_MS));
  return { from, to, start: new Date(instantMs(from)), end };
}

/** Usernames and emails of a set of users (sellers, buyers), by id. */
async function peopleOf(db: DbOrTx, ids: Array<string | null>) {
  const want = [...new Set(ids.filter((x): x is string => !!x))];
  if (!want.length) return new Map<string, { username: string | null; email: string }>();
  const rows = await db.select({ id: user.id, username: user.username, email: user.email }).from(user).where(inArray(user.id, want));
  return new Map(rows.map((r) => [r.id, { username: r.username, email: r.email }]));
}

type ListingRows = Awaited<ReturnType<ReturnType<typeof listingsFrom>['where']>>;

/** The back office's view of listings: the public one plus seller email, buyer, open offers, removal. */
async function adminDtos(db: DbOrTx, rows: ListingRows): Promise<AdminMarketListing[]> {
  const ids = rows.map((r) => r.l.id);
  const [people, offers] = await Promise.all([
    peopleOf(db, rows.flatMap((r) => [r.l.sellerId, r.l.soldTo])),
    ids.length
      ? db
          .select({ listingId: marketOffers.listingId, n: count() })
          .from(marketOffers)
          .where(and(inArray(marketOffers.listingId, ids), eqLiteral(marketOffers.state, 'open')))
          .groupBy(marketOffers.listingId)
      : Promise.resolve([]),
  ]);
  const openOffers = new Map(offers.map((o) => [o.listingId, Number(o.n)]));
  return rows.map((r) => ({
    ...toDto(r),
    sellerEmail: people.get(r.l.sellerId)?.email ?? null,
    buyerId: r.l.soldTo,
    buyerUsername: r.l.soldTo ? (people.get(r.l.soldTo)?.username ?? null) : null,
    openOffers: openOffers.get(r.l.id) ?? 0,
    removedBy: r.l.removedBy,
    removedReason: r.l.removedReason,
    closedAt: r.l.closedAt?.toISOString() ?? null,
  }));
}

/** Every listing, newest first: by state, card name, seller (username or email), listing date. */
export async function adminListings(db: DbOrTx, q: z.output<typeof adminMarketListingsQuerySchema>): Promise<Paged<AdminMarketListing>> {
  const conds: SQL[] = [];
  if (q.state !== 'all') conds.push(eq(marketListings.state, q.state));
  if (q.card) conds.push(ilike(cards.name, likePattern(q.card)));
  if (q.seller) conds.push(or(ilike(user.username, likePattern(q.seller)), ilike(user.email, likePattern(q.seller)))!);
  if (q.from) conds.push(gte(marketListings.createdAt, new Date(`${q.from}T00:00:00Z`)));
  if (q.to) conds.push(lt(marketListings.createdAt, dayEnd(q.to)));
  const where = conds.length ? and(...conds) : undefined;
  const [rows, [total]] = await Promise.all([
    listingsFrom(db)
      .where(where)
      .orderBy(desc(marketListings.createdAt), desc(marketListings.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db
      .select({ n: count() })
      .from(marketListings)
      .innerJoin(cards, eq(cards.id, marketListings.cardId))
      .leftJoin(user, eq(user.id, marketListings.sellerId))
      .where(where),
  ]);
  return {
    items: await adminDtos(db, rows),
    total: Number(total?.n ?? 0),
    page: q.page,
    pageSize: q.pageSize,
  };
}

/**
 * Every trade between collectors, one row each: a sold listing (bought now, or by an accepted
 * offer, at the price paid), an accepted card offer (which has no listing), or an accepted swap (at
 * its cash part). The trades list and the figures both read it; the period's bounds reach each
 * branch's own rows.
 */
const TRADES = sql`
  select l.id, 'listing' as via, l.card_id, 1 as cards, coalesce(l.sold_price_cents, l.price_cents) as price_cents, coalesce(l.fee_cents, 0) as fee_cents,
         l.seller_id, l.sold_to as buyer_id, l.ledger_entry_id, l.sold_at as at
    from market_listings l where l.state = 'sold'
  union all
  select o.id, 'card_offer', o.card_id, 1, o.amount_cents, coalesce(o.fee_cents, 0), o.seller_id, o.buyer_id, o.ledger_entry_id, o.closed_at
    from market_offers o where o.state = 'accepted' and o.listing_id is null
  union all
  -- An accepted swap (ADR 0032): its cash is the price (the fee it posted to market_fees), paid by the buyer.
  select sw.id, 'swap',
         (select i.card_id from market_swap_items i where i.swap_id = sw.id and i.from_proposer = (sw.cash_cents < 0) order by i.owned_card_id limit 1),
         (select count(*)::int from market_swap_items i where i.swap_id = sw.id),
         abs(sw.cash_cents), coalesce(sw.fee_cents, 0),
         case when sw.cash_cents < 0 then sw.proposer_id else sw.recipient_id end,
         case when sw.cash_cents < 0 then sw.recipient_id else sw.proposer_id end,
         sw.ledger_entry_id, sw.closed_at
    from market_swaps sw where sw.state = 'accepted'`;

/**
 * Every trade between collectors, newest first: sold listings (bought now or by an accepted offer),
 * accepted card offers and accepted swaps; by card name, buyer or seller (username or email), date of the sale.
 */
export async function adminTrades(db: DbOrTx, q: z.output<typeof adminMarketTradesQuerySchema>): Promise<Paged<AdminMarketTrade>> {
  const from = q.from ? new Date(`${q.from}T00:00:00Z`) : null;
  const to = q.to ? dayEnd(q.to) : null;
  const card = q.card ? likePattern(q.card) : null;
  const who = q.user ? likePattern(q.user) : null;
  const filtered = sql`
    select t.*, c.name, s.username as seller_username, b.username as buyer_username
      from (${TRADES}) t
      join cards c on c.id = t.card_id
      left join "user" s on s.id = t.seller_id
      left join "user" b on b.id = t.buyer_id
     where true
       ${from ? sql`and t.at >= ${from.toISOString()}::timestamptz` : sql``}
       ${to ? sql`and t.at < ${to.toISOString()}::timestamptz` : sql``}
       ${card ? sql`and c.name ilike ${card}` : sql``}
       ${who ? sql`and (s.username ilike ${who} or s.email ilike ${who} or b.username ilike ${who} or b.email ilike ${who})` : sql``}`;
  const [rows, [total]] = await Promise.all([
    db.execute(sql`select * from (${filtered}) f order by f.at desc, f.id desc limit ${q.pageSize} offset ${(q.page - 1) * q.pageSize}`),
    db.execute(sql`select count(*) as n from (${filtered}) f`),
  ]).then(([r, n]) => [rowsOf<Record<string, unknown>>(r), rowsOf<{ n: string | number }>(n)] as const);
  return {
    items: rows.map((r) => ({
      id: String(r.id),
      via: r.via as AdminMarketTrade['via'],
      cards: Number(r.cards),
      cardId: String(r.card_id),
      name: String(r.name),
      priceCents: Number(r.price_cents),
      feeCents: Number(r.fee_cents),
      sellerId: (r.seller_id as string | null) ?? null,
      sellerUsername: (r.seller_username as string | null) ?? null,
      buyerId: (r.buyer_id as string | null) ?? null,
      buyerUsername: (r.buyer_username as string | null) ?? null,
      ledgerEntryId: (r.ledger_entry_id as string | null) ?? null,
      at: new Date(r.at as string | Date).toISOString(),
    })),
    total: Number(total?.n ?? 0),
    page: q.page,
    pageSize: q.pageSize,
  };
}

/**
 * The market now (active listings, open offers and what they hold) and its sales over the period:
 * how many, their volume, and the fee revenue (the fees those sales posted to `market_fees`).
 */
export async function marketSummary(db: DbOrTx, q: z.output<typeof adminMarketSummaryQuerySchema>): Promise<AdminMarketSummary> {
  const p = periodOf(q);
  const [now] = rowsOf<{ listings: string; listed: string | null; offers: string; held: string | null }>(
    await db.execute(sql`
      select (select count(*) from market_listings where state = 'active') as listings,
             (select sum(price_cents) from market_listings where state = 'active') as listed,
             (select count(*) from market_offers where state = 'open') as offers,
             (select sum(held_cents) from market_offers where state = 'open') as held`),
  );
  const [sold] = rowsOf<{ n: string; volume: string | null; fees: string | null }>(
    await db.execute(sql`
      select count(*) filter (where t.price_cents > 0) as n, sum(t.price_cents) as volume, sum(t.fee_cents) as fees from (${TRADES}) t
       where t.at >= ${p.start.toISOString()}::timestamptz and t.at < ${p.end.toISOString()}::timestamptz`),
  );
  return {
    from: p.from,
    to: p.to,
    activeListings: Number(now?.listings ?? 0),
    activeListingsCents: Number(now?.listed ?? 0),
    openOffers: Number(now?.offers ?? 0),
    heldCents: Number(now?.held ?? 0),
    sales: Number(sold?.n ?? 0),
    volumeCents: Number(sold?.volume ?? 0),
    feesCents: Number(sold?.fees ?? 0),
  };
}

export interface AdminCtx {
  actorId: string;
  ip: string | null;
}

/**
 * Takes a listing off the market with a reason: the copy goes back to the seller's vault, open
 * offers close with their holds released, the seller is told the reason, and it is audited. A
 * staff member may not remove their own (or a referred account's) listing, nor one of a card they
 * or their accounts are selling too: removing a competitor's listing would be a gain from their
 * own admin action.
 */
export async function removeListing(tx: Tx, ctx: AdminCtx & MarketCtx, id: string, reason: string): Promise<AdminMarketListing> {
  const [pre] = await tx.select({ sellerId: marketListings.sellerId, cardId: marketListings.cardId }).from(marketListings).where(eq(marketListings.id, id));
  if (!pre) throw notFound('No such listing.');
  const mine = await accountsOf(tx, ctx.actorId);
  if (mine.has(pre.sellerId)) throw ownRecordError('remove this listing');
  const [competing] = await tx
    .select({ n: count() })
    .from(marketListings)
    .where(and(eq(marketListings.cardId, pre.cardId), eqLiteral(marketListings.state, 'active'), inArray(marketListings.sellerId, [...mine])));
  if (Number(competing?.n ?? 0) > 0) {
    throw new AppError(
      403,
      'self_dealing',
      'You are selling this card on the market yourself (or an account you referred is): removing another seller’s listing of it would be your gain. Ask another admin to review it; this attempt was recorded.',
    );
  }
  // The lock order of every market flow: the offers' buyers' balances, then copy → listing.
  await lockBalances(tx, await openOfferBuyers(tx, id));
  const l = await lockListing(tx, id);
  if (l.state !== 'active' || isExpired(l)) {
    throw new AppError(409, 'listing_closed', `This listing has ${l.state === 'sold' ? 'sold' : isExpired(l) ? 'expired' : `been ${l.state}`}: there is nothing to remove.`);
  }
  await endListing(tx, l, 'delisted', ctx.actorId, ctx, { by: ctx.actorId, reason });
  await afterCommit(tx, { topic: 'public', type: 'market.listing.ended', data: { listingId: id, state: 'delisted' } });
  await audit(tx, {
    actorId: ctx.actorId,
    action: 'market.listing.remove',
    targetType: 'market_listing',
    targetId: id,
    before: { state: 'active', priceCents: l.priceCents, sellerId: l.sellerId },
    after: { state: 'delisted', reason },
    ip: ctx.ip,
  });
  const [out] = await adminDtos(tx, await listingsFrom(tx).where(eq(marketListings.id, id)));
  return out!;
}
