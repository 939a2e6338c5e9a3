import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import { eqLiteral } from '../../lib/sql.ts';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import {
  marketFee,
  OFFER_EXPIRY_HOURS,
  type acceptOfferSchema,
  type MarketOffer,
  type MarketOfferPage,
  type MarketOfferSale,
  type offersQuerySchema,
} from '../../../shared/contracts/market.ts';
import { formatMoney } from '../../../shared/money.ts';
import { afterCommit } from '../../db/after-commit.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { marketListings, marketOffers } from '../../db/schema/market.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import { user } from '../auth/tables.ts';
import { cards } from '../catalog/tables.ts';
import { invalidCardState, listedError, moveCopies, transferListedCopy } from '../inventory/service.ts';
import { ownedCards } from '../inventory/tables.ts';
import { notify } from '../notifications/service.ts';
import { assertCanSpend } from '../responsible-play/service.ts';
import { holdFunds, releaseHold, settleTrade } from '../wallet/service.ts';
import { cardName, closeOffer, lapseListingOffers, lockBalances, offerEvent, openOfferBuyers, tellOffer, type MarketCtx, type OfferRow } from './offer-holds.ts';
import { assertNotStaffDealing, checkPrice, isExpired, lockListing, marketSettings } from './service.ts';

/**
 * Offers (issue 43 item 3, ADR 0028 part 2). A buyer offers an amount on a listing, or on a card
 * (any owner of a vaulted, unlisted copy may accept, choosing the copy). The amount is held at
 * once: a `market_hold` entry moves it from the buyer's free balance to their hold account, so no
 * other debit can spend it. The seller of a listing accepts (the sale), rejects, or counters (a
 * new offer made by the seller; the buyer's hold carries over); the buyer accepts or declines a
 * counter, or cancels their own offer. Accepting is the sale: the hold is released and the
 * listing's sale entry (`settleTrade`) taken in the same transaction under the buyer's balance
 * lock, so the money cannot go anywhere between the two.
 *
 * Locks, as everywhere in the market: balances (user id order) → the copy → the listing → offers.
 * Every close of an open offer holds its buyer's balance and the offer row; making or countering
 * an offer on a listing holds the listing (shared), so an offer never outlives its listing.
 */

type OfferInput = { amountCents: number; expiresInHours?: number | undefined };

const offerClosed = (o: OfferRow) =>
  new AppError(
    409,
    'offer_closed',
    `This offer is ${o.state === 'open' ? 'expired' : o.state === 'countered' ? 'answered by a counter-offer' : o.state}: it can no longer be changed. Nothing moved.`,
  );

const expiryOf = (hours: number | undefined) => new Date(Date.now() + (hours ?? OFFER_EXPIRY_HOURS.default) * 3_600_000);

function isOpen(o: OfferRow, now = new Date()) {
  return o.state === 'open' && o.expiresAt > now;
}

async function lockOffer(tx: DbOrTx, id: string): Promise<OfferRow> {
  const [o] = await tx.select().from(marketOffers).where(eq(marketOffers.id, id)).for('update');
  if (!o) throw notFound('No such offer.');
  return o;
}

/** The listing locked FOR SHARE: no sale, delist or expiry ends it until this transaction commits. */
async function shareListing(tx: DbOrTx, id: string) {
  const [l] = await tx.select().from(marketListings).where(eq(marketListings.id, id)).for('share');
  return l;
}

// ───────────────────────── reads ─────────────────────────

const buyerUser = alias(user, 'offer_buyer');
const sellerUser = alias(user, 'offer_seller');

function offersFrom(db: DbOrTx) {
  return db
    .select({
      o: marketOffers,
      name: cards.name,
      setName: cards.setName,
      imageKey: cards.imageKey,
      buyerUsername: buyerUser.username,
      sellerUsername: sellerUser.username,
      listingPriceCents: marketListings.priceCents,
    })
    .from(marketOffers)
    .innerJoin(cards, eq(cards.id, marketOffers.cardId))
    .leftJoin(buyerUser, eq(buyerUser.id, marketOffers.buyerId))
    .leftJoin(sellerUser, eq(sellerUser.id, marketOffers.sellerId))
    .leftJoin(marketListings, eq(marketListings.id, marketOffers.listingId));
}

type Joined = Awaited<ReturnType<ReturnType<typeof offersFrom>['where']>>[number];

function toDto(r: Joined): MarketOffer {
  const { o } = r;
  return {
    id: o.id,
    listingId: o.listingId,
    cardId: o.cardId,
    name: r.name,
    setName: r.setName,
    imageKey: r.imageKey,
    buyerId: o.buyerId,
    buyerUsername: r.buyerUsername,
    sellerId: o.sellerId,
    sellerUsername: r.sellerUsername,
    madeBy: o.side,
    amountCents: o.amountCents,
    heldCents: o.heldCents,
    listingPriceCents: r.listingPriceCents,
    state: o.state,
    counterOf: o.counterOf,
    ownedCardId: o.ownedCardId,
    feeCents: o.feeCents,
    expiresAt: o.expiresAt.toISOString(),
    closedAt: o.closedAt?.toISOString() ?? null,
    createdAt: o.createdAt.toISOString(),
    updatedAt: o.updatedAt.toISOString(),
  };
}

async function dtoOf(db: DbOrTx, id: string): Promise<MarketOffer> {
  const [row] = await offersFrom(db).where(eq(marketOffers.id, id));
  return toDto(row!);
}

/**
 * A user's offers. 'made': the bids they made as a buyer and the counters they made as a seller.
 * 'received': bids on their listings (and card offers they accepted), counters to their bids, and
 * the open card offers on cards they hold a vaulted, unlisted copy of.
 */
export async function listOffers(db: DbOrTx, userId: string, side: 'made' | 'received', q: z.output<typeof offersQuerySchema>): Promise<MarketOfferPage> {
  const mine: SQL =
    side === 'made'
      ? or(and(eq(marketOffers.side, 'buyer'), eq(marketOffers.buyerId, userId)), and(eq(marketOffers.side, 'seller'), eq(marketOffers.sellerId, userId)))!
      : or(
          and(eq(marketOffers.side, 'buyer'), eq(marketOffers.sellerId, userId)),
          and(eq(marketOffers.side, 'seller'), eq(marketOffers.buyerId, userId)),
          and(
            sql`${marketOffers.listingId} is null`,
            eqLiteral(marketOffers.state, 'open'),
            sql`${marketOffers.expiresAt} > now()`,
            ne(marketOffers.buyerId, userId),
            inArray(
              marketOffers.cardId,
              db
                .select({ cardId: ownedCards.cardId })
                .from(ownedCards)
                .where(and(eq(ownedCards.ownerId, userId), eq(ownedCards.status, 'in_vault'))),
            ),
          ),
        )!;
  const where = and(mine, q.state ? eq(marketOffers.state, q.state) : undefined);
  const [rows, [total]] = await Promise.all([
    offersFrom(db)
      .where(where)
      .orderBy(desc(marketOffers.createdAt), desc(marketOffers.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ n: count() }).from(marketOffers).where(where),
  ]);
  return { items: rows.map(toDto), total: Number(total?.n ?? 0), page: q.page, pageSize: q.pageSize };
}

// ───────────────────────── make ─────────────────────────

async function insertAndHold(tx: Tx, o: typeof marketOffers.$inferInsert & { id: string; amountCents: number; buyerId: string }, memo: string) {
  try {
    await tx.insert(marketOffers).values({ ...o, heldCents: o.amountCents });
  } catch (err) {
    // Backstop of the check under the buyer's balance lock: one open offer per buyer per listing (or card).
    if (isUniqueViolation(err)) throw offerExists();
    throw err;
  }
  await holdFunds(tx, {
    userId: o.buyerId,
    amountCents: o.amountCents,
    referenceType: 'market_offer',
    referenceId: o.id,
    actorId: o.buyerId,
    idempotencyKey: `offer-hold:${o.id}`,
    memo,
  });
}

const offerExists = () =>
  new AppError(409, 'offer_exists', 'You already have an open offer here. Cancel it first to offer another amount. Nothing was held.');

async function hasOpenOffer(tx: DbOrTx, buyerId: string, where: SQL) {
  const [row] = await tx
    .select({ id: marketOffers.id })
    .from(marketOffers)
    .where(and(eq(marketOffers.buyerId, buyerId), eqLiteral(marketOffers.state, 'open'), where))
    .limit(1);
  return !!row;
}

/**
 * An offer on a listing, in the caller's transaction (withIdempotency + db.transaction): the
 * amount is held at once. 403 self_dealing (own listing, staff ↔ referred), 403 self_excluded,
 * 400 amount (outside the bounds, or above the price: buy it now), 409 listing_sold (ended),
 * 409 offer_exists, 409 insufficient_funds (the free balance is short). Refusals hold nothing.
 */
export async function makeListingOffer(tx: Tx, ctx: MarketCtx, buyerId: string, listingId: string, input: OfferInput): Promise<MarketOffer> {
  const [pre] = await tx.select({ sellerId: marketListings.sellerId }).from(marketListings).where(eq(marketListings.id, listingId));
  if (!pre) throw notFound('No such listing.');
  if (pre.sellerId === buyerId) throw new AppError(403, 'self_dealing', 'This is your own listing: you cannot make an offer on it.');
  await assertCanSpend(tx, buyerId);
  await assertNotStaffDealing(tx, buyerId, pre.sellerId, 'Nothing was held.');
  checkPrice(input.amountCents, 'amountCents', 'Offer');
  await lockBalances(tx, [buyerId]);
  const l = await shareListing(tx, listingId);
  if (!l || l.state !== 'active' || isExpired(l)) throw new AppError(409, 'listing_sold', 'This listing has ended. Nothing was held.');
  if (input.amountCents > l.priceCents) {
    throw badRequest(`Offer at most the price (${formatMoney(l.priceCents)}), or buy it now.`, { amountCents: [`At most ${formatMoney(l.priceCents)}.`] });
  }
  if (await hasOpenOffer(tx, buyerId, eq(marketOffers.listingId, listingId))) throw offerExists();
  const id = randomUUID();
  const name = await cardName(tx, l.cardId);
  await insertAndHold(
    tx,
    { id, listingId, cardId: l.cardId, buyerId, sellerId: l.sellerId, amountCents: input.amountCents, expiresAt: expiryOf(input.expiresInHours) },
    `Offer on ${name}`,
  );
  const offer = { id, listingId, cardId: l.cardId, buyerId, sellerId: l.sellerId, amountCents: input.amountCents };
  await offerEvent(tx, offer, 'open');
  await tellOffer(ctx, tx, l.sellerId, offer, 'received');
  return dtoOf(tx, id);
}

/** How many owners of a card hear about a new card offer (in-app and by their choice of mail). */
const CARD_OFFER_NOTIFY_MAX = 50;

/**
 * An offer on a card: any owner of a vaulted, unlisted copy may accept it, choosing the copy. The
 * amount is held at once. The same refusals as a listing offer; the amount only within the bounds.
 */
export async function makeCardOffer(tx: Tx, ctx: MarketCtx, buyerId: string, input: OfferInput & { cardId: string }): Promise<MarketOffer> {
  const [card] = await tx.select({ id: cards.id, name: cards.name }).from(cards).where(eq(cards.id, input.cardId));
  if (!card) throw notFound('No such card.');
  await assertCanSpend(tx, buyerId);
  checkPrice(input.amountCents, 'amountCents', 'Offer');
  await lockBalances(tx, [buyerId]);
  if (await hasOpenOffer(tx, buyerId, and(eq(marketOffers.cardId, card.id), sql`${marketOffers.listingId} is null`)!)) throw offerExists();
  const id = randomUUID();
  await insertAndHold(tx, { id, cardId: card.id, buyerId, amountCents: input.amountCents, expiresAt: expiryOf(input.expiresInHours) }, `Offer on ${card.name}`);
  const offer = { id, listingId: null, cardId: card.id, buyerId, sellerId: null, amountCents: input.amountCents };
  await offerEvent(tx, offer, 'open');
  if (ctx.deps) {
    const owners = await tx
      .selectDistinct({ ownerId: ownedCards.ownerId })
      .from(ownedCards)
      .where(and(eq(ownedCards.cardId, card.id), eq(ownedCards.status, 'in_vault'), ne(ownedCards.ownerId, buyerId)))
      .limit(CARD_OFFER_NOTIFY_MAX);
    for (const { ownerId } of owners) {
      await notify(
        ctx.deps,
        tx,
        ownerId,
        'market_offer',
        { offerId: id, event: 'received', cardName: card.name, amountCents: input.amountCents, listingId: null },
        { dedupeKey: `market-offer:${id}:received`, afterCommitOnly: true },
      );
    }
  }
  return dtoOf(tx, id);
}

// ───────────────────────── answer ─────────────────────────

/** Who may answer an offer: the other side. The maker gets `own`; a stranger 404 (ids of others' offers are not confirmed). */
function recipientOf(o: Pick<OfferRow, 'side' | 'buyerId' | 'sellerId' | 'listingId'>): string | null {
  if (o.side === 'seller') return o.buyerId;
  return o.listingId ? o.sellerId : null; // a card offer: any owner of a copy
}
function makerOf(o: Pick<OfferRow, 'side' | 'buyerId' | 'sellerId'>): string {
  return o.side === 'seller' ? o.sellerId! : o.buyerId;
}

async function preRead(tx: DbOrTx, id: string): Promise<OfferRow> {
  const [o] = await tx.select().from(marketOffers).where(eq(marketOffers.id, id));
  if (!o) throw notFound('No such offer.');
  return o;
}

export type AcceptInput = z.output<typeof acceptOfferSchema>;

/**
 * Accepts an offer: the sale, in the caller's transaction. The seller accepts a bid on their
 * listing; any owner accepts a card offer with one of their vaulted, unlisted copies
 * (`ownedCardId`); the buyer accepts a counter. The buyer's hold is released and the sale entry
 * taken at once (a counter above the hold takes the rest from the free balance: 409
 * insufficient_funds when short), the copy moves to the buyer, other offers on the listing close.
 * Exactly once: the offer row's lock and state, and the sale entry's idempotency key (the offer's).
 * 403 self_dealing (your own offer), 404 (not yours to answer), 409 offer_closed, listing_sold, listed.
 */
export async function acceptOffer(tx: Tx, ctx: MarketCtx, actorId: string, offerId: string, input: AcceptInput): Promise<MarketOfferSale> {
  const pre = await preRead(tx, offerId);
  if (makerOf(pre) === actorId || (pre.side === 'buyer' && pre.buyerId === actorId)) {
    throw new AppError(403, 'self_dealing', 'This is your own offer: you cannot accept it. Nothing moved.');
  }
  const recipient = recipientOf(pre);
  if (recipient !== null && recipient !== actorId) throw notFound('No such offer.');
  const buyerId = pre.buyerId;
  const sellerId = pre.listingId ? pre.sellerId! : actorId;
  if (actorId === buyerId) await assertCanSpend(tx, buyerId);
  await assertNotStaffDealing(tx, buyerId, sellerId, 'Nothing moved.');
  if (!pre.listingId && !input.ownedCardId) {
    throw badRequest('Pick the copy of this card to sell.', { ownedCardId: ['Pick one of your vault cards.'] });
  }

  // Locks: balances (buyer, seller, and the other offers' buyers the sale closes) → copy → listing → offer.
  await lockBalances(tx, [buyerId, sellerId, ...(pre.listingId ? await openOfferBuyers(tx, pre.listingId) : [])]);
  let copyId: string;
  let feeCents: number;
  let listing: typeof marketListings.$inferSelect | undefined;
  if (pre.listingId) {
    listing = await lockListing(tx, pre.listingId);
    copyId = listing.ownedCardId;
  } else {
    const [copy] = await tx
      .select({ id: ownedCards.id, ownerId: ownedCards.ownerId, status: ownedCards.status, cardId: ownedCards.cardId })
      .from(ownedCards)
      .where(eq(ownedCards.id, input.ownedCardId!))
      .for('update');
    if (!copy || copy.ownerId !== actorId) throw notFound('This card is not in your collection.');
    if (copy.cardId !== pre.cardId) throw badRequest('This copy is a different card from the one offered on.', { ownedCardId: ['Pick a copy of the card on offer.'] });
    if (copy.status === 'listed') throw listedError();
    if (copy.status !== 'in_vault') throw invalidCardState('list', [copy]);
    copyId = copy.id;
  }
  const o = await lockOffer(tx, offerId);
  if (!isOpen(o)) throw offerClosed(o);
  if (listing && (listing.state !== 'active' || isExpired(listing))) throw new AppError(409, 'listing_sold', 'This listing has ended. Nothing moved.');
  if (listing) feeCents = marketFee(o.amountCents, listing.feeBp, listing.minFeeCents);
  else {
    const s = marketSettings();
    feeCents = marketFee(o.amountCents, s.feeBp, s.minFeeCents);
  }
  const name = await cardName(tx, o.cardId);

  // The capture: the hold back to the free balance and the sale's entry, under the buyer's balance lock.
  if (o.heldCents > 0) {
    await releaseHold(tx, {
      userId: buyerId,
      amountCents: o.heldCents,
      referenceType: 'market_offer',
      referenceId: o.id,
      actorId,
      idempotencyKey: `offer-release:${o.id}`,
      memo: 'Offer accepted',
    });
  }
  const money = await settleTrade(tx, {
    buyerId,
    sellerId,
    priceCents: o.amountCents,
    feeCents,
    referenceType: 'market_offer',
    referenceId: o.id,
    actorId,
    idempotencyKey: `offer-sale:${o.id}`,
    memo: `Marketplace offer: ${name}`,
  });
  const movement = { actorId, referenceType: 'market_offer', referenceId: o.id };
  if (!listing) await moveCopies(tx, 'list', { ids: [copyId], ownerId: sellerId, ...movement, note: 'Sold to a card offer' });
  const moved = await transferListedCopy(tx, { id: copyId, fromOwnerId: sellerId, toOwnerId: buyerId, ...movement });
  if (!moved) throw listedError();
  const now = new Date();
  await tx
    .update(marketOffers)
    .set({ state: 'accepted', heldCents: 0, sellerId, ownedCardId: copyId, feeCents, ledgerEntryId: money.entryId, closedAt: now, updatedAt: now })
    .where(eq(marketOffers.id, o.id));
  if (listing) {
    await tx
      .update(marketListings)
      .set({ state: 'sold', soldTo: buyerId, soldAt: now, soldPriceCents: o.amountCents, feeCents, ledgerEntryId: money.entryId, closedAt: now, updatedAt: now })
      .where(eq(marketListings.id, listing.id));
    await lapseListingOffers(tx, ctx, listing.id, actorId, o.id);
    await afterCommit(tx, { topic: 'public', type: 'market.listing.sold', data: { listingId: listing.id } });
  }
  await offerEvent(tx, { ...o, sellerId }, 'accepted');
  const proceedsCents = o.amountCents - feeCents;
  if (actorId === sellerId) await tellOffer(ctx, tx, buyerId, o, 'accepted');
  else if (ctx.deps) {
    // The buyer accepted the seller's counter: the seller hears of the sale as of any other.
    await notify(
      ctx.deps,
      tx,
      sellerId,
      'market_sold',
      { listingId: o.listingId!, cardName: name, priceCents: o.amountCents, feeCents, proceedsCents },
      { dedupeKey: `market-sold:${o.listingId}`, afterCommitOnly: true },
    );
  }
  return { offer: await dtoOf(tx, o.id), ownedCardId: copyId, ledgerEntryId: money.entryId };
}

/**
 * The recipient declines: a seller a bid on their listing, a buyer a counter. The hold goes back
 * to the buyer; the maker is told. Card offers cannot be rejected (409 offer_action_unavailable:
 * there is no one seller); the maker cancels instead (403 forbidden).
 */
export async function rejectOffer(tx: Tx, ctx: MarketCtx, actorId: string, offerId: string): Promise<MarketOffer> {
  const pre = await preRead(tx, offerId);
  if (makerOf(pre) === actorId) throw new AppError(403, 'forbidden', 'This is your own offer: cancel it instead.');
  if (!pre.listingId) {
    if (pre.buyerId === actorId) throw new AppError(403, 'forbidden', 'This is your own offer: cancel it instead.');
    throw new AppError(409, 'offer_action_unavailable', 'An offer on a card is open to every owner of a copy: accept it, or leave it to expire.');
  }
  if (recipientOf(pre) !== actorId) throw notFound('No such offer.');
  await lockBalances(tx, [pre.buyerId]);
  const o = await lockOffer(tx, offerId);
  if (!isOpen(o)) throw offerClosed(o);
  await closeOffer(tx, o, 'rejected', actorId);
  await offerEvent(tx, o, 'rejected');
  if (o.side === 'buyer') await tellOffer(ctx, tx, o.buyerId, o, 'rejected');
  else await tellOffer(ctx, tx, o.sellerId!, o, 'counter_declined');
  return dtoOf(tx, o.id);
}

/** The maker withdraws: a buyer their bid (any kind), a seller their counter. The hold goes back to the buyer. */
export async function cancelOffer(tx: Tx, ctx: MarketCtx, actorId: string, offerId: string): Promise<MarketOffer> {
  const pre = await preRead(tx, offerId);
  if (makerOf(pre) !== actorId) {
    if (recipientOf(pre) === actorId) throw new AppError(403, 'forbidden', 'This offer was made to you: reject it instead.');
    throw notFound('No such offer.');
  }
  await lockBalances(tx, [pre.buyerId]);
  const o = await lockOffer(tx, offerId);
  if (!isOpen(o)) throw offerClosed(o);
  await closeOffer(tx, o, 'cancelled', actorId);
  await offerEvent(tx, o, 'cancelled');
  return dtoOf(tx, o.id);
}

/**
 * The seller answers a bid on their listing with another amount (above the bid, at most the
 * price): the bid becomes 'countered' and a new open offer, made by the seller, takes over its hold
 * (no money moves). The buyer accepts it (the rest, if any, comes from their free balance) or
 * declines it (the hold comes back). A counter is not countered again, and card offers have none
 * (409 offer_action_unavailable): decline, then offer anew.
 */
export async function counterOffer(tx: Tx, ctx: MarketCtx, actorId: string, offerId: string, input: OfferInput): Promise<MarketOffer> {
  const pre = await preRead(tx, offerId);
  if (makerOf(pre) === actorId) throw new AppError(403, 'forbidden', 'This is your own offer: you cannot counter it.');
  if (!pre.listingId || pre.side === 'seller') {
    if (recipientOf(pre) !== actorId && pre.listingId) throw notFound('No such offer.');
    throw new AppError(
      409,
      'offer_action_unavailable',
      pre.listingId ? 'Accept or decline this counter-offer; to offer another amount, decline it and make a new offer.' : 'An offer on a card cannot be countered: accept it, or leave it to expire.',
    );
  }
  if (recipientOf(pre) !== actorId) throw notFound('No such offer.');
  checkPrice(input.amountCents, 'amountCents', 'Counter');
  const l = await shareListing(tx, pre.listingId);
  const o = await lockOffer(tx, offerId);
  if (!isOpen(o)) throw offerClosed(o);
  if (!l || l.state !== 'active' || isExpired(l)) throw new AppError(409, 'listing_sold', 'This listing has ended. Nothing moved.');
  if (input.amountCents <= o.amountCents || input.amountCents > l.priceCents) {
    throw badRequest(`Counter with more than the offer (${formatMoney(o.amountCents)}) and at most your price (${formatMoney(l.priceCents)}).`, {
      amountCents: [`More than ${formatMoney(o.amountCents)}, at most ${formatMoney(l.priceCents)}.`],
    });
  }
  await closeOffer(tx, o, 'countered', actorId, { release: false });
  const id = randomUUID();
  await tx.insert(marketOffers).values({
    id,
    listingId: o.listingId,
    cardId: o.cardId,
    buyerId: o.buyerId,
    sellerId: o.sellerId,
    side: 'seller',
    amountCents: input.amountCents,
    heldCents: o.heldCents,
    counterOf: o.id,
    expiresAt: expiryOf(input.expiresInHours),
  });
  await offerEvent(tx, o, 'countered');
  const counter = { id, listingId: o.listingId, cardId: o.cardId, buyerId: o.buyerId, sellerId: o.sellerId, amountCents: input.amountCents };
  await offerEvent(tx, counter, 'open');
  await tellOffer(ctx, tx, o.buyerId, counter, 'countered');
  return dtoOf(tx, id);
}

// ───────────────────────── account deletion ─────────────────────────

/**
 * Closes every open offer a person is party to as buyer or as counter-maker (account deletion, ADR
 * 0028), their holds released, in the caller's transaction. Offers on their listings close when
 * those listings end (cancelListingsOf).
 */
export async function cancelOffersOf(tx: Tx, userId: string): Promise<number> {
  const rows = await tx
    .select({ id: marketOffers.id, buyerId: marketOffers.buyerId })
    .from(marketOffers)
    .where(and(eqLiteral(marketOffers.state, 'open'), or(eq(marketOffers.buyerId, userId), and(eq(marketOffers.side, 'seller'), eq(marketOffers.sellerId, userId)))));
  await lockBalances(tx, rows.map((r) => r.buyerId));
  let n = 0;
  for (const { id } of rows) {
    const o = await lockOffer(tx, id);
    if (o.state !== 'open') continue;
    await closeOffer(tx, o, 'cancelled', null);
    await offerEvent(tx, o, 'cancelled');
    n++;
  }
  return n;
}
