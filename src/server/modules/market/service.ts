import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, gte, ilike, inArray, isNotNull, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { eqLiteral } from '../../lib/sql.ts';
import type { z } from 'zod';
import {
  marketFee,
  type buyListingSchema,
  type CreateListingInput,
  type marketBrowseQuerySchema,
  type MarketListing,
  type MarketListingPage,
  type MarketPurchase,
  type MarketQuote,
  type myListingsQuerySchema,
  isFarFromComps,
  MARKET_COUNT_CAP,
} from '../../../shared/contracts/market.ts';
import { formatMoney } from '../../../shared/money.ts';
import { afterCommit } from '../../db/after-commit.ts';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { notify } from '../notifications/service.ts';
import { marketListings } from '../../db/schema/market.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import { likePattern } from '../../lib/like.ts';
import { isOwnAccount, staffAmong } from '../audit/duties.ts';
import { user } from '../auth/tables.ts';
import { cardClasses, cards } from '../catalog/tables.ts';
import { invalidCardState, listedError, moveCopies, transferListedCopy } from '../inventory/service.ts';
import { ownedCards } from '../inventory/tables.ts';
import { assertCanSpend } from '../responsible-play/service.ts';
import { setting } from '../settings/store.ts';
import { settleTrade } from '../wallet/service.ts';
import { compsReference } from './comps.ts';
import { cardName, lapseListingOffers, lockBalances, openOfferBuyers, type MarketCtx } from './offer-holds.ts';

/**
 * The marketplace (issue 43, ADR 0028): listings and buy-now. Every write runs in the caller's
 * transaction. Locks, the same order everywhere: balances (user id order, money flows only, as in
 * buyback and shipping) → the copy (`owned_cards` FOR UPDATE) → the listing. A listed copy is
 * 'listed' in inventory's state machine, so shipping, buyback and revoking refuse it (409 listed).
 */

export type ListingRow = typeof marketListings.$inferSelect;

export function marketSettings() {
  return setting('market.settings');
}

/** The fee and the seller's share of a price, by the terms in force now (or a listing's own). */
export function quotePrice(priceCents: number, terms = marketSettings()): MarketQuote {
  const s = marketSettings();
  const feeCents = marketFee(priceCents, terms.feeBp, terms.minFeeCents);
  return {
    priceCents,
    feeBp: terms.feeBp,
    minFeeCents: terms.minFeeCents,
    feeCents,
    sellerReceivesCents: priceCents - feeCents,
    minPriceCents: s.minPriceCents,
    maxPriceCents: s.maxPriceCents,
  };
}

/** 400 with a field message when a price (or an offer's amount) is outside the owner's bounds (market.settings). */
export function checkPrice(priceCents: number, field = 'priceCents', verb = 'List it') {
  const s = marketSettings();
  if (priceCents < s.minPriceCents || priceCents > s.maxPriceCents) {
    throw badRequest(`${verb} between ${formatMoney(s.minPriceCents)} and ${formatMoney(s.maxPriceCents)}.`, {
      [field]: [`Between ${formatMoney(s.minPriceCents)} and ${formatMoney(s.maxPriceCents)}.`],
    });
  }
}

export function quote(priceCents: number): MarketQuote {
  checkPrice(priceCents);
  return quotePrice(priceCents);
}

// ───────────────────────── reads ─────────────────────────

const listingColumns = {
  l: marketListings,
  name: cards.name,
  setName: cards.setName,
  number: cards.number,
  classId: cards.classId,
  className: cardClasses.name,
  classColour: cardClasses.colour,
  imageKey: cards.imageKey,
  gradingCompany: cards.gradingCompany,
  grade: cards.grade,
  valueCents: cards.valueCents,
  sellerUsername: user.username,
};

export function listingsFrom(db: DbOrTx) {
  return listingsWith(db, {});
}

/** `listingsFrom` with more columns (browse adds its count). */
function listingsWith<E extends Record<string, SQL>>(db: DbOrTx, extra: E) {
  return db
    .select({ ...listingColumns, ...extra })
    .from(marketListings)
    .innerJoin(cards, eq(cards.id, marketListings.cardId))
    .innerJoin(cardClasses, eq(cardClasses.id, cards.classId))
    .leftJoin(user, eq(user.id, marketListings.sellerId));
}

type ListingJoined = { l: ListingRow } & Omit<{ [K in keyof typeof listingColumns]: unknown }, 'l'> & {
  name: string;
  setName: string;
  number: number;
  classId: string;
  className: string;
  classColour: string;
  imageKey: string;
  gradingCompany: string | null;
  grade: number | null;
  valueCents: number;
  sellerUsername: string | null;
};

export function toDto(r: ListingJoined): MarketListing {
  const { l } = r;
  const feeCents = l.feeCents ?? marketFee(l.priceCents, l.feeBp, l.minFeeCents);
  return {
    id: l.id,
    ownedCardId: l.ownedCardId,
    cardId: l.cardId,
    name: r.name,
    setName: r.setName,
    number: r.number,
    classId: r.classId,
    className: r.className,
    classColour: r.classColour,
    imageKey: r.imageKey,
    gradingCompany: r.gradingCompany,
    grade: r.grade,
    valueCents: r.valueCents,
    sellerId: l.sellerId,
    sellerUsername: r.sellerUsername,
    priceCents: l.priceCents,
    feeCents,
    sellerReceivesCents: l.priceCents - feeCents,
    state: l.state,
    version: l.version,
    expiresAt: l.expiresAt?.toISOString() ?? null,
    soldAt: l.soldAt?.toISOString() ?? null,
    soldPriceCents: l.state === 'sold' ? (l.soldPriceCents ?? l.priceCents) : null,
    createdAt: l.createdAt.toISOString(),
    updatedAt: l.updatedAt.toISOString(),
  };
}

const live = () => and(eqLiteral(marketListings.state, 'active'), or(isNull(marketListings.expiresAt), sql`${marketListings.expiresAt} > now()`));

/** One listing, for anyone while it is active; its seller (and buyer) see it in any state. */
export async function getListing(db: DbOrTx, id: string, viewerId: string | null): Promise<MarketListing> {
  const [row] = await listingsFrom(db).where(eq(marketListings.id, id));
  if (!row) throw notFound('No such listing.');
  const mine = viewerId !== null && (row.l.sellerId === viewerId || row.l.soldTo === viewerId);
  if (row.l.state !== 'active' && !mine) throw notFound('This listing has ended.');
  return toDto(row);
}

/** A name search matching at most this many cards filters by their ids; a broader one joins (ADR 0033). */
const NAME_CARDS_BY_ID = 500;

type BrowseQuery = z.output<typeof marketBrowseQuerySchema>;
/** What decides a browse statement's text: which filters are on, how the name is matched, the sort. */
type BrowseShape = Pick<BrowseQuery, 'sort' | 'graded'> & { name: 'ids' | 'join' | null; set: boolean; classId: boolean; minGrade: boolean; minPrice: boolean; maxPrice: boolean };

/**
 * The two statements of one browse shape, built once with placeholders for every value. Building a
 * statement this size is a third of the server's CPU per search (drizzle's query builder, then its
 * garbage); a few dozen shapes cover every combination the page makes.
 */
function browseStatements(db: DbOrTx, shape: BrowseShape, key: string) {
  const l = marketListings;
  const p = sql.placeholder;
  const conds: Array<SQL | undefined> = [live()];
  if (shape.name === 'ids') conds.push(sql`${l.cardId} = any(${p('cardIds')}::uuid[])`);
  if (shape.name === 'join') conds.push(inArray(l.cardId, db.select({ id: cards.id }).from(cards).where(ilike(cards.name, p('pattern')))));
  if (shape.set) conds.push(eq(l.setName, p('set')));
  if (shape.classId) conds.push(eq(l.classId, p('classId')));
  // A card has a grade exactly when it has a grading company (cards_grading_pair).
  if (shape.graded === 'graded') conds.push(isNotNull(l.grade));
  if (shape.graded === 'raw') conds.push(isNull(l.grade));
  if (shape.minGrade) conds.push(gte(l.grade, p('minGrade')));
  if (shape.minPrice) conds.push(gte(l.priceCents, p('minPriceCents')));
  if (shape.maxPrice) conds.push(lte(l.priceCents, p('maxPriceCents')));
  const where = and(...conds);
  // Each order is one of the partial indexes' own (schema/market.ts), so a page is an index walk,
  // not a sort of every match: the created-at index is DESC NULLS LAST, and a plain DESC (NULLS
  // FIRST) would not match it (bench/market.ts: 190 ms → 11 ms at 100,000 listings).
  const order =
    shape.sort === 'price_asc'
      ? [asc(l.priceCents), asc(l.id)]
      : shape.sort === 'price_desc'
        ? [desc(l.priceCents), desc(l.id)]
        : [sql`${l.createdAt} desc nulls last`, asc(l.id)];
  // A deferred join: the page's ids come from market_listings alone, however deep the page, and
  // only those rows meet their card, class and seller.
  const page = db.select({ id: l.id }).from(l).where(where).orderBy(...order).limit(p('limit')).offset(p('offset')).as('page');
  // The count (to the cap) rides in the page's statement as a scalar subquery, run once: one round
  // trip per search instead of two. A page past the end has no row to carry it; only then is it
  // asked for on its own.
  const matches = () => db.select({ one: sql`1` }).from(l).where(where).limit(MARKET_COUNT_CAP + 1);
  return {
    page: listingsWith(db, { matched: sql<number>`(select count(*) from (${matches()}) m)`.mapWith(Number) })
      .innerJoin(page, eq(page.id, l.id))
      .orderBy(...order)
      .prepare(`market_browse ${key}`),
    count: db.select({ n: count() }).from(matches().as('m')).prepare(`market_count ${key}`),
  };
}

const browseCache = new WeakMap<DbOrTx, Map<string, ReturnType<typeof browseStatements>>>();

/**
 * Public browse: active, unexpired listings with filters and a sort (ADR 0028, 0033). Every filter
 * reads market_listings' own columns (the card's set, class and grade are copied onto the listing
 * by the database), so each page and each count is a walk of one partial index, never a join per
 * candidate row.
 *
 * "Name contains" finds the cards first (the trigram index on their names), then their listings by
 * id, an index probe per card. As a join, PostgreSQL's plan for a few cards walked the newest-first
 * index testing each listing's card (8 ms a page at 100,000 listings); a name matching more than
 * `nameByIdsUpTo` cards, which such a walk serves well, stays a join.
 */
export async function browse(db: DbOrTx, q: BrowseQuery, opts: { nameByIdsUpTo?: number } = {}): Promise<MarketListingPage> {
  const pattern = q.q ? likePattern(q.q) : undefined;
  let cardIds: string[] | null = null;
  if (pattern !== undefined) {
    const upTo = opts.nameByIdsUpTo ?? NAME_CARDS_BY_ID;
    const found = await db.select({ id: cards.id }).from(cards).where(ilike(cards.name, pattern)).limit(upTo + 1);
    if (found.length <= upTo) cardIds = found.map((r) => r.id);
  }
  const shape: BrowseShape = {
    name: pattern === undefined ? null : cardIds ? 'ids' : 'join',
    set: q.set !== undefined,
    classId: q.classId !== undefined,
    graded: q.graded,
    minGrade: q.minGrade !== undefined,
    minPrice: q.minPriceCents !== undefined,
    maxPrice: q.maxPriceCents !== undefined,
    sort: q.sort,
  };
  let cache = browseCache.get(db);
  if (!cache) browseCache.set(db, (cache = new Map()));
  const key = JSON.stringify(shape);
  let st = cache.get(key);
  if (!st) cache.set(key, (st = browseStatements(db, shape, key)));
  const params = {
    cardIds: cardIds ? `{${cardIds.join(',')}}` : undefined,
    pattern,
    set: q.set,
    classId: q.classId,
    minGrade: q.minGrade,
    minPriceCents: q.minPriceCents,
    maxPriceCents: q.maxPriceCents,
    limit: q.pageSize,
    offset: (q.page - 1) * q.pageSize,
  };
  const rows = await st.page.execute(params);
  const n = rows[0]?.matched ?? (q.page === 1 ? 0 : Number((await st.count.execute(params))[0]?.n ?? 0));
  return { items: rows.map(toDto), total: Math.min(n, MARKET_COUNT_CAP), totalIsCapped: n > MARKET_COUNT_CAP, page: q.page, pageSize: q.pageSize };
}

/** The seller's own listings, newest first, in every state (or one). */
export async function myListings(db: DbOrTx, sellerId: string, q: z.output<typeof myListingsQuerySchema>): Promise<MarketListingPage> {
  const where = and(eq(marketListings.sellerId, sellerId), q.state ? eq(marketListings.state, q.state) : undefined);
  const [rows, [total]] = await Promise.all([
    listingsFrom(db)
      .where(where)
      .orderBy(desc(marketListings.createdAt), desc(marketListings.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ n: count() }).from(marketListings).where(where),
  ]);
  return { items: rows.map(toDto), total: Number(total?.n ?? 0), totalIsCapped: false, page: q.page, pageSize: q.pageSize };
}

async function dtoOf(db: DbOrTx, id: string): Promise<MarketListing> {
  const [row] = await listingsFrom(db).where(eq(marketListings.id, id));
  return toDto(row!);
}

// ───────────────────────── writes ─────────────────────────

/** Locks the copy, then the listing (the order of every market write), and returns the listing. */
export async function lockListing(tx: DbOrTx, id: string): Promise<ListingRow> {
  const [pre] = await tx.select({ ownedCardId: marketListings.ownedCardId }).from(marketListings).where(eq(marketListings.id, id));
  if (!pre) throw notFound('No such listing.');
  await tx.select({ id: ownedCards.id }).from(ownedCards).where(eq(ownedCards.id, pre.ownedCardId)).for('update');
  const [row] = await tx.select().from(marketListings).where(eq(marketListings.id, id)).for('update');
  return row!;
}

export const isExpired = (l: ListingRow, now = new Date()) => l.state === 'active' && l.expiresAt !== null && l.expiresAt <= now;

const closedError = (l: ListingRow) =>
  new AppError(409, 'listing_closed', `This listing has ${l.state === 'sold' ? 'sold' : isExpired(l) ? 'expired' : `been ${l.state}`}: it can no longer be changed.`);

/**
 * Ends a locked, active listing (delisted or expired), puts the copy back in the seller's vault and
 * closes its open offers with their holds released (their buyers' balances locked first: openOfferBuyers).
 */
export async function endListing(
  tx: Tx,
  l: ListingRow,
  state: 'delisted' | 'expired',
  actorId: string | null,
  ctx: MarketCtx = {},
  /** The back office removed it: who, and the reason the seller is told. */
  removal?: { by: string; reason: string },
) {
  await tx
    .update(marketListings)
    .set({ state, closedAt: new Date(), updatedAt: new Date(), ...(removal ? { removedBy: removal.by, removedReason: removal.reason } : {}) })
    .where(eq(marketListings.id, l.id));
  await moveCopies(tx, 'delist', {
    ids: [l.ownedCardId],
    ownerId: l.sellerId,
    actorId,
    referenceType: 'market_listing',
    referenceId: l.id,
    note: state === 'expired' ? 'Listing expired' : removal ? `Removed by the back office: ${removal.reason}` : null,
  });
  await lapseListingOffers(tx, ctx, l.id, actorId);
  // The seller hears of an end they did not choose (their own delist needs no word).
  if (ctx.deps && (state === 'expired' || removal)) {
    await notify(
      ctx.deps,
      tx,
      l.sellerId,
      'market_listing',
      { listingId: l.id, event: removal ? 'removed' : 'expired', cardName: await cardName(tx, l.cardId), priceCents: l.priceCents, reason: removal?.reason ?? null },
      { dedupeKey: `market-listing:${l.id}`, afterCommitOnly: true },
    );
  }
}

/** 409 price_far_from_comps unless the seller confirmed a price far from the card's comparables. */
async function checkFarPrice(tx: DbOrTx, cardId: string, priceCents: number, confirmed: boolean | undefined) {
  if (confirmed) return;
  const ref = await compsReference(tx, cardId);
  if (!isFarFromComps(priceCents, ref.cents)) return;
  const basis = ref.basis === 'sales' ? `the middle of its last ${ref.sales} sales here is ${formatMoney(ref.cents)}` : `its value is ${formatMoney(ref.cents)}`;
  const side = priceCents < ref.cents ? 'well below' : 'well above';
  const message = `${formatMoney(priceCents)} is ${side} what this card goes for: ${basis}. Check the price, or confirm to list it anyway.`;
  throw new AppError(409, 'price_far_from_comps', message, { priceCents: [message] });
}

export async function createListing(tx: Tx, sellerId: string, input: CreateListingInput): Promise<MarketListing> {
  checkPrice(input.priceCents);
  const s = marketSettings();
  if (input.expiresInDays !== undefined && input.expiresInDays > s.maxListingDays) {
    throw badRequest(`A listing runs at most ${s.maxListingDays} days.`, { expiresInDays: [`At most ${s.maxListingDays} days.`] });
  }
  const [copy] = await tx
    .select({ id: ownedCards.id, ownerId: ownedCards.ownerId, status: ownedCards.status, cardId: ownedCards.cardId })
    .from(ownedCards)
    .where(eq(ownedCards.id, input.ownedCardId))
    .for('update');
  // Another user's copy answers like a missing one: ids of other people's cards are not confirmed.
  if (!copy || copy.ownerId !== sellerId) throw notFound('This card is not in your collection.');
  if (copy.status === 'listed') throw new AppError(409, 'listed', 'This card is already listed on the market.');
  if (copy.status !== 'in_vault') throw invalidCardState('list', [copy]);
  await checkFarPrice(tx, copy.cardId, input.priceCents, input.confirmFarPrice);
  const id = randomUUID();
  await moveCopies(tx, 'list', { ids: [copy.id], ownerId: sellerId, actorId: sellerId, referenceType: 'market_listing', referenceId: id });
  const expiresAt = input.expiresInDays ? new Date(Date.now() + input.expiresInDays * 86_400_000) : null;
  await tx.insert(marketListings).values({
    id,
    ownedCardId: copy.id,
    cardId: copy.cardId,
    sellerId,
    priceCents: input.priceCents,
    feeBp: s.feeBp,
    minFeeCents: s.minFeeCents,
    expiresAt,
  });
  return dtoOf(tx, id);
}

/** A seller's own active listing, locked; expired ones are ended here (the caller's transaction commits that). */
async function ownActive(tx: Tx, sellerId: string, id: string): Promise<ListingRow> {
  const l = await lockListing(tx, id);
  if (l.sellerId !== sellerId) throw notFound('No such listing.');
  if (l.state !== 'active' || isExpired(l)) throw closedError(l);
  return l;
}

export async function updatePrice(tx: Tx, sellerId: string, id: string, priceCents: number, confirmFarPrice?: boolean): Promise<MarketListing> {
  checkPrice(priceCents);
  const l = await ownActive(tx, sellerId, id);
  if (l.priceCents !== priceCents) {
    await checkFarPrice(tx, l.cardId, priceCents, confirmFarPrice);
    await tx
      .update(marketListings)
      .set({ priceCents, version: sql`${marketListings.version} + 1`, updatedAt: new Date() })
      .where(eq(marketListings.id, l.id));
  }
  return dtoOf(tx, id);
}

export async function delist(tx: Tx, sellerId: string, id: string, ctx: MarketCtx = {}): Promise<MarketListing> {
  // Offers' holds go back to their buyers: their balances first (the lock order), then copy → listing.
  await lockBalances(tx, await openOfferBuyers(tx, id));
  const l = await ownActive(tx, sellerId, id);
  await endListing(tx, l, 'delisted', sellerId, ctx);
  return dtoOf(tx, id);
}

/**
 * Ends listings past their expiry, each in its own transaction (copy → listing locks), at most
 * `limit`; `listingId`/`sellerId` narrow it (a read of one listing, a seller's page). Returns how
 * many expired. Runs lazily before reads and buys, and as a job.
 */
export async function expireDue(db: Db, opts: { listingId?: string; sellerId?: string; limit?: number; ctx?: MarketCtx } = {}): Promise<number> {
  const due = await db
    .select({ id: marketListings.id })
    .from(marketListings)
    .where(
      and(
        eqLiteral(marketListings.state, 'active'),
        sql`${marketListings.expiresAt} <= now()`,
        opts.listingId ? eq(marketListings.id, opts.listingId) : undefined,
        opts.sellerId ? eq(marketListings.sellerId, opts.sellerId) : undefined,
      ),
    )
    .orderBy(asc(marketListings.expiresAt))
    .limit(opts.limit ?? 100);
  let n = 0;
  for (const { id } of due) {
    n += await db.transaction(async (tx) => {
      await lockBalances(tx, await openOfferBuyers(tx, id));
      const l = await lockListing(tx, id);
      if (!isExpired(l)) return 0;
      await endListing(tx, l, 'expired', null, opts.ctx);
      return 1;
    });
  }
  return n;
}

export type BuyInput = z.output<typeof buyListingSchema>;

/**
 * Buy now, in the caller's transaction (withIdempotency + db.transaction). Refusals move nothing:
 * 409 listing_sold (sold, delisted or expired meanwhile: of twenty buyers at once the first to lock
 * wins), 409 price_changed (the buyer saw another price or version), 403 self_dealing, 403
 * self_excluded, 409 insufficient_funds.
 */
/** Separation of duties (ADR 0024): staff do not trade with the accounts they referred, either way (403 self_dealing). */
export async function assertNotStaffDealing(tx: DbOrTx, buyerId: string, sellerId: string, nothing: string) {
  const staff = await staffAmong(tx, [buyerId, sellerId]);
  if ((staff.has(buyerId) && (await isOwnAccount(tx, buyerId, sellerId))) || (staff.has(sellerId) && (await isOwnAccount(tx, sellerId, buyerId)))) {
    throw new AppError(403, 'self_dealing', `Staff cannot trade with the accounts they referred (separation of duties). ${nothing}`);
  }
}

export async function buy(
  tx: Tx,
  buyerId: string,
  id: string,
  input: BuyInput,
  /** With deps, the seller is notified (market_sold) in the same transaction. */
  opts: { idempotencyKey?: string | null; deps?: Deps } = {},
): Promise<MarketPurchase> {
  const [pre] = await tx.select({ sellerId: marketListings.sellerId }).from(marketListings).where(eq(marketListings.id, id));
  if (!pre) throw notFound('No such listing.');
  if (pre.sellerId === buyerId) throw new AppError(403, 'self_dealing', 'This is your own listing: you cannot buy it. Delist it to keep the card.');
  await assertCanSpend(tx, buyerId);
  await assertNotStaffDealing(tx, buyerId, pre.sellerId, 'Nothing was bought.');
  // Balances first, in user id order (as every money flow: balance → cards), then copy → listing.
  // The open offers' buyers too: the sale closes their offers and gives their holds back.
  await lockBalances(tx, [buyerId, pre.sellerId, ...(await openOfferBuyers(tx, id))]);
  const l = await lockListing(tx, id);
  if (l.state !== 'active' || isExpired(l)) {
    throw new AppError(409, 'listing_sold', l.state === 'sold' ? 'Someone else bought this card first. Nothing was charged.' : 'This listing has ended. Nothing was charged.');
  }
  if (l.priceCents !== input.expectedPriceCents || (input.expectedVersion !== undefined && input.expectedVersion !== l.version)) {
    throw new AppError(409, 'price_changed', `The seller changed the price to ${formatMoney(l.priceCents)}. Nothing was charged; check the new price and buy again.`, {
      priceCents: [String(l.priceCents)],
    });
  }
  const feeCents = marketFee(l.priceCents, l.feeBp, l.minFeeCents);
  const [card] = await tx.select({ name: cards.name }).from(cards).where(eq(cards.id, l.cardId));
  const money = await settleTrade(tx, {
    buyerId,
    sellerId: l.sellerId,
    priceCents: l.priceCents,
    feeCents,
    referenceType: 'market_listing',
    referenceId: l.id,
    actorId: buyerId,
    idempotencyKey: opts.idempotencyKey ? `market:${opts.idempotencyKey}` : null,
    memo: `Marketplace: ${card?.name ?? 'a card'}`,
  });
  const moved = await transferListedCopy(tx, {
    id: l.ownedCardId,
    fromOwnerId: l.sellerId,
    toOwnerId: buyerId,
    actorId: buyerId,
    referenceType: 'market_listing',
    referenceId: l.id,
  });
  // Cannot happen under the copy's lock; never take money for a card that did not move.
  if (!moved) throw listedError();
  const now = new Date();
  await tx
    .update(marketListings)
    .set({ state: 'sold', soldTo: buyerId, soldAt: now, soldPriceCents: l.priceCents, feeCents, ledgerEntryId: money.entryId, closedAt: now, updatedAt: now })
    .where(eq(marketListings.id, l.id));
  await lapseListingOffers(tx, { deps: opts.deps }, l.id, buyerId);
  await afterCommit(tx, { topic: 'public', type: 'market.listing.sold', data: { listingId: l.id } });
  if (opts.deps) {
    await notify(
      opts.deps,
      tx,
      l.sellerId,
      'market_sold',
      { listingId: l.id, cardName: card?.name ?? 'A card', priceCents: l.priceCents, feeCents, proceedsCents: l.priceCents - feeCents },
      { dedupeKey: `market-sold:${l.id}`, afterCommitOnly: true },
    );
  }
  return { listing: await dtoOf(tx, l.id), ownedCardId: l.ownedCardId, ledgerEntryId: money.entryId, balanceCents: money.buyerBalanceCents };
}

/** Ends every active listing of a seller (account deletion, ADR 0028), in the caller's transaction. */
export async function cancelListingsOf(tx: Tx, sellerId: string, ctx: MarketCtx = {}): Promise<number> {
  const rows = await tx
    .select({ id: marketListings.id })
    .from(marketListings)
    .where(and(eq(marketListings.sellerId, sellerId), eqLiteral(marketListings.state, 'active')))
    .orderBy(asc(marketListings.ownedCardId));
  for (const { id } of rows) {
    await lockBalances(tx, await openOfferBuyers(tx, id));
    const l = await lockListing(tx, id);
    if (l.state === 'active') await endListing(tx, l, 'delisted', null, ctx);
  }
  return rows.length;
}
