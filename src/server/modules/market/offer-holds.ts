import { and, asc, eq, sql } from 'drizzle-orm';
import { eqLiteral } from '../../lib/sql.ts';
import { afterCommit } from '../../db/after-commit.ts';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import { marketOffers } from '../../db/schema/market.ts';
import type { Deps } from '../../deps.ts';
import { cards } from '../catalog/tables.ts';
import { notify, type NotifyData } from '../notifications/service.ts';
import { lockBalance, releaseHold } from '../wallet/service.ts';

/**
 * The money side of offers that every listing flow needs (ADR 0028 part 2): locking the balances
 * an end of a listing will credit, and closing offers with their holds released. Kept apart from
 * service.ts (listings) and offers.ts (the offer flows) so both can use it without a cycle.
 *
 * Lock order, everywhere in the market: balances (user id order) → the copy → the listing → offers.
 */

export type OfferRow = typeof marketOffers.$inferSelect;

/** The deps a market write notifies with (none in a test that calls a service on its own). */
export interface MarketCtx {
  deps?: Deps | undefined;
}

/** Locks these users' balance rows in user id order (each created at zero if missing). */
export async function lockBalances(tx: Tx, userIds: Iterable<string | null | undefined>): Promise<void> {
  for (const u of [...new Set([...userIds].filter((x): x is string => !!x))].sort()) await lockBalance(tx, u);
}

/**
 * The buyers whose money the open offers on a listing hold, read without a lock: a flow that may
 * end the listing locks their balances first (lockBalances), before the copy and the listing. An
 * offer made between this read and the listing's lock is still closed (its balance is locked
 * then, out of order; the rare deadlock that can cause is retried by the routes).
 */
export async function openOfferBuyers(db: DbOrTx, listingId: string): Promise<string[]> {
  const rows = await db
    .select({ buyerId: marketOffers.buyerId })
    .from(marketOffers)
    .where(and(eq(marketOffers.listingId, listingId), eqLiteral(marketOffers.state, 'open')));
  return rows.map((r) => r.buyerId);
}

/** Once `tx` commits, the buyer's and the seller's open pages hear the offer's new state. */
export async function offerEvent(tx: DbOrTx, o: Pick<OfferRow, 'id' | 'buyerId' | 'sellerId' | 'listingId'>, state: string) {
  const users = [...new Set([o.buyerId, o.sellerId].filter((x): x is string => !!x))];
  await afterCommit(
    tx,
    users.map((u) => ({ topic: `user:${u}` as const, type: 'market.offer.changed', data: { offerId: o.id, listingId: o.listingId, state } })),
  );
}

export async function cardName(db: DbOrTx, cardId: string): Promise<string> {
  const [c] = await db.select({ name: cards.name }).from(cards).where(eq(cards.id, cardId));
  return c?.name ?? 'A card';
}

/** Tells one user about an offer (market_offer), in the transaction; once per offer and event. */
export async function tellOffer(
  ctx: MarketCtx,
  tx: DbOrTx,
  userId: string,
  o: Pick<OfferRow, 'id' | 'cardId' | 'listingId' | 'amountCents'>,
  event: NotifyData['market_offer']['event'],
  extra: { proceedsCents?: number } = {},
) {
  if (!ctx.deps) return;
  await notify(
    ctx.deps,
    tx,
    userId,
    'market_offer',
    { offerId: o.id, event, cardName: await cardName(tx, o.cardId), amountCents: o.amountCents, listingId: o.listingId, ...extra },
    { dedupeKey: `market-offer:${o.id}:${event}`, afterCommitOnly: true },
  );
}

/**
 * Closes an open offer the caller has locked (its buyer's balance first): the state, and its hold
 * back to the buyer's free balance (`market_release`, once per offer: the entry's idempotency key
 * is the offer's). `release: false` keeps the money held (a counter takes the hold over).
 */
export async function closeOffer(
  tx: Tx,
  o: OfferRow,
  state: 'rejected' | 'cancelled' | 'expired' | 'lapsed' | 'countered',
  actorId: string | null,
  opts: { release?: boolean } = {},
): Promise<void> {
  const now = new Date();
  const [closed] = await tx
    .update(marketOffers)
    .set({ state, heldCents: 0, closedAt: now, updatedAt: now })
    .where(and(eq(marketOffers.id, o.id), eqLiteral(marketOffers.state, 'open')))
    .returning({ id: marketOffers.id });
  if (!closed) throw new Error(`closeOffer: ${o.id} is not open`);
  if ((opts.release ?? true) && o.heldCents > 0) {
    await releaseHold(tx, {
      userId: o.buyerId,
      amountCents: o.heldCents,
      referenceType: 'market_offer',
      referenceId: o.id,
      actorId,
      idempotencyKey: `offer-release:${o.id}`,
      memo: `Offer ${state}`,
    });
  }
}

/**
 * Closes every open offer on a listing that has just ended (sold, delisted, expired), each hold
 * released, each buyer told (market_offer 'lapsed') — in the caller's transaction, after it locked
 * the listing. `except` is an offer the caller closes itself (the accepted one).
 */
export async function lapseListingOffers(tx: Tx, ctx: MarketCtx, listingId: string, actorId: string | null, except?: string): Promise<number> {
  const open = await tx
    .select()
    .from(marketOffers)
    .where(and(eq(marketOffers.listingId, listingId), eqLiteral(marketOffers.state, 'open'), except ? sql`${marketOffers.id} <> ${except}` : undefined))
    .orderBy(asc(marketOffers.buyerId), asc(marketOffers.id))
    .for('update');
  for (const o of open) {
    await lockBalance(tx, o.buyerId);
    await closeOffer(tx, o, 'lapsed', actorId);
    await offerEvent(tx, o, 'lapsed');
    await tellOffer(ctx, tx, o.buyerId, o, 'lapsed');
  }
  return open.length;
}

/**
 * Closes open offers past their expiry, each in its own transaction (the buyer's balance → the
 * offer: the hold goes back), at most `limit`; `offerId`/`userId` narrow it (before an action on
 * one offer, before a user's lists). The buyer is told (market_offer 'expired'). Returns how many.
 */
export async function expireOffersDue(
  db: Db,
  opts: { offerId?: string; userId?: string; limit?: number; ctx?: MarketCtx } = {},
): Promise<number> {
  const due = await db
    .select({ id: marketOffers.id, buyerId: marketOffers.buyerId })
    .from(marketOffers)
    .where(
      and(
        eqLiteral(marketOffers.state, 'open'),
        sql`${marketOffers.expiresAt} <= now()`,
        opts.offerId ? eq(marketOffers.id, opts.offerId) : undefined,
        opts.userId ? sql`(${marketOffers.buyerId} = ${opts.userId} or ${marketOffers.sellerId} = ${opts.userId})` : undefined,
      ),
    )
    .orderBy(asc(marketOffers.expiresAt))
    .limit(opts.limit ?? 100);
  const ctx = opts.ctx ?? {};
  let n = 0;
  for (const { id, buyerId } of due) {
    n += await db.transaction(async (tx) => {
      await lockBalance(tx, buyerId);
      const [o] = await tx.select().from(marketOffers).where(eq(marketOffers.id, id)).for('update');
      if (!o || o.state !== 'open' || o.expiresAt > new Date()) return 0;
      await closeOffer(tx, o, 'expired', null);
      await offerEvent(tx, o, 'expired');
      await tellOffer(ctx, tx, o.buyerId, o, 'expired');
      return 1;
    });
  }
  return n;
}
