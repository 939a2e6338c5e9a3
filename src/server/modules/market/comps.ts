import { and, count, eq, min, sql } from 'drizzle-orm';
import { eqLiteral } from '../../lib/sql.ts';
import {
  CARD_COMPS_SALES,
  CARD_COMPS_SALES_DAYS,
  MARKET_COMPS_DAYS,
  MARKET_COMPS_MIN_SALES,
  type CardComps,
  type MarketSale,
} from '../../../shared/contracts/market.ts';
import { buybackAmount } from '../../../shared/contracts/collection.ts';
import { rowsOf, type DbOrTx } from '../../db/client.ts';
import { marketListings } from '../../db/schema/market.ts';
import { notFound } from '../../http/errors.ts';
import { ratesFor } from '../buyback/rates.ts';
import { cards } from '../catalog/tables.ts';

/**
 * A card's sales between collectors, newest first: listings sold (bought now, or to an accepted
 * offer, at the price paid) and card offers accepted (which have no listing). A graded card is a
 * card of its own in the catalog, so every sale here is of the same grade.
 */
export async function recentSales(db: DbOrTx, cardId: string, opts: { days: number; limit: number }): Promise<MarketSale[]> {
  const listings = sql`select coalesce(l.sold_price_cents, l.price_cents) as price_cents, l.sold_at, 'listing' as via
      from market_listings l
     where l.card_id = ${cardId}::uuid and l.state = 'sold' and l.sold_at > now() - make_interval(days => ${opts.days})
     order by l.sold_at desc limit ${opts.limit}`;
  const cardOffers = sql`select o.amount_cents, o.closed_at, 'card_offer'
      from market_offers o
     where o.card_id = ${cardId}::uuid and o.state = 'accepted' and o.listing_id is null and o.closed_at > now() - make_interval(days => ${opts.days})
     order by o.closed_at desc limit ${opts.limit}`;
  const rows = rowsOf<{ price_cents: number | string; sold_at: Date | string; via: MarketSale['via'] }>(
    await db.execute(sql`select * from ((${listings}) union all (${cardOffers})) s order by s.sold_at desc limit ${opts.limit}`),
  );
  return rows.map((r) => ({ priceCents: Number(r.price_cents), soldAt: new Date(r.sold_at).toISOString(), via: r.via }));
}

/** The median of the last sales when there are enough of them, else the card's value (the far-price rule, ADR 0028). */
function referenceOf(sales: MarketSale[], valueCents: number): CardComps['reference'] {
  if (sales.length >= MARKET_COMPS_MIN_SALES) {
    const sorted = sales.map((s) => s.priceCents).sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return { cents: sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2), basis: 'sales', sales: sorted.length };
  }
  return { cents: valueCents, basis: 'value', sales: sales.length };
}

/** The price a listing is compared with: the median of the card's last (≤ 10) market sales in 90 days, or its value. */
export async function compsReference(db: DbOrTx, cardId: string): Promise<CardComps['reference']> {
  const sales = await recentSales(db, cardId, { days: MARKET_COMPS_DAYS, limit: 10 });
  const [card] = await db.select({ value: cards.valueCents }).from(cards).where(eq(cards.id, cardId));
  return referenceOf(sales, card?.value ?? 0);
}

/** GET /api/market/cards/{id}/comps: recent sales, the lowest listing, the buyback quote and the reference, for an active card. */
export async function getCardComps(db: DbOrTx, cardId: string): Promise<CardComps> {
  const [card] = await db.select({ valueCents: cards.valueCents, classId: cards.classId, active: cards.active }).from(cards).where(eq(cards.id, cardId));
  if (!card?.active) throw notFound('This card is not in the catalog.');
  const [sales, recent, [active], rates] = await Promise.all([
    recentSales(db, cardId, { days: CARD_COMPS_SALES_DAYS, limit: CARD_COMPS_SALES }),
    recentSales(db, cardId, { days: MARKET_COMPS_DAYS, limit: 10 }),
    db
      .select({ n: count(), lowest: min(marketListings.priceCents) })
      .from(marketListings)
      .where(and(eq(marketListings.cardId, cardId), eqLiteral(marketListings.state, 'active'), sql`(${marketListings.expiresAt} is null or ${marketListings.expiresAt} > now())`)),
    ratesFor(db, [card.classId]),
  ]);
  let lowestListing: CardComps['lowestListing'] = null;
  if (active?.lowest != null) {
    // The cheapest one's id (oldest first among equals), from the active (card, price) index.
    const [l] = await db
      .select({ id: marketListings.id, priceCents: marketListings.priceCents })
      .from(marketListings)
      .where(and(eq(marketListings.cardId, cardId), eqLiteral(marketListings.state, 'active'), eq(marketListings.priceCents, Number(active.lowest)), sql`(${marketListings.expiresAt} is null or ${marketListings.expiresAt} > now())`))
      .orderBy(marketListings.createdAt)
      .limit(1);
    if (l) lowestListing = l;
  }
  const rateBp = rates.get(card.classId) ?? 0;
  return {
    cardId,
    valueCents: card.valueCents,
    sales,
    lowestListing,
    activeListings: Number(active?.n ?? 0),
    buyback: { rateBp, amountCents: buybackAmount(card.valueCents, rateBp) },
    reference: referenceOf(recent, card.valueCents),
  };
}
