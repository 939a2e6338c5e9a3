import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import { eqLiteral } from '../../lib/sql.ts';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import {
  marketFee,
  OFFER_EXPIRY_HOURS,
  type BinderItem,
  type BinderPage,
  type bindersQuerySchema,
  type MarketSwap,
  type MarketSwapPage,
  type MarketSwapState,
  type proposeSwapSchema,
  type swapsQuerySchema,
} from '../../../shared/contracts/market.ts';
import { formatMoney } from '../../../shared/money.ts';
import { afterCommit } from '../../db/after-commit.ts';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import { marketBinder, marketSwapItems, marketSwaps } from '../../db/schema/market.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import { likePattern } from '../../lib/like.ts';
import { user } from '../auth/tables.ts';
import { cards } from '../catalog/tables.ts';
import { invalidCardState, listedError, swapVaultCopies } from '../inventory/service.ts';
import { ownedCards } from '../inventory/tables.ts';
import { notify, type NotifyData } from '../notifications/service.ts';
import { assertCanSpend } from '../responsible-play/service.ts';
import { holdFunds, lockBalance, releaseHold, settleTrade } from '../wallet/service.ts';
import { lockBalances, type MarketCtx } from './offer-holds.ts';
import { assertNotStaffDealing, checkPrice, marketSettings } from './service.ts';

/**
 * Trade binders and swaps (issue 43 item 4, ADR 0032). A collector opens chosen vault copies to
 * trade (their binder); another proposes a swap: copies of theirs for copies in that binder, with
 * cash either way. Cash the proposer pays is held at once (`market_hold`), like an offer's; cash
 * the recipient pays is taken when they accept. Accepting settles it all in one transaction, only
 * if every copy is still in its owner's vault, unlisted: else 409 `swap_stale`, nothing moves, and
 * the swap closes as stale in a transaction of its own (the hold goes back, the proposer is told).
 *
 * Locks, as everywhere in the market: balances (user id order) → the copies (id order) → the swap.
 */

type SwapRow = typeof marketSwaps.$inferSelect;
export type ProposeInput = z.output<typeof proposeSwapSchema>;

const expiryOf = (hours: number | undefined) => new Date(Date.now() + (hours ?? OFFER_EXPIRY_HOURS.default) * 3_600_000);
const isOpen = (s: SwapRow, now = new Date()) => s.state === 'open' && s.expiresAt > now;

const swapClosed = (s: SwapRow) =>
  new AppError(409, 'swap_closed', `This swap is ${s.state === 'open' ? 'expired' : s.state}: it can no longer be answered. Nothing moved.`);

export const swapStale = () =>
  new AppError(
    409,
    'swap_stale',
    'A card in this swap has moved since it was proposed (sold, listed, shipped or swapped), so it cannot settle. Nothing moved; the swap is closed and any held money is back with the proposer.',
  );

// ───────────────────────── binders ─────────────────────────

const owner = alias(user, 'binder_owner');

function binderFrom(db: DbOrTx) {
  return db
    .select({
      ownedCardId: marketBinder.ownedCardId,
      cardId: marketBinder.cardId,
      name: cards.name,
      setName: cards.setName,
      imageKey: cards.imageKey,
      valueCents: cards.valueCents,
      ownerId: marketBinder.userId,
      ownerUsername: owner.username,
      addedAt: marketBinder.createdAt,
    })
    .from(marketBinder)
    .innerJoin(ownedCards, and(eq(ownedCards.id, marketBinder.ownedCardId), eq(ownedCards.ownerId, marketBinder.userId), eq(ownedCards.status, 'in_vault')))
    .innerJoin(cards, eq(cards.id, marketBinder.cardId))
    .leftJoin(owner, eq(owner.id, marketBinder.userId));
}

type BinderRow = Awaited<ReturnType<ReturnType<typeof binderFrom>['where']>>[number];
const binderDto = (r: BinderRow): BinderItem => ({ ...r, addedAt: r.addedAt.toISOString() });

/**
 * Copies open to trade: a user's own binder (`ownerId`), or other collectors' (`exceptUserId`),
 * of one card or matching a name. Only copies their owner still holds in the vault, unlisted.
 */
export async function listBinder(
  db: DbOrTx,
  q: z.output<typeof bindersQuerySchema> & { ownerId?: string; exceptUserId?: string },
): Promise<BinderPage> {
  const where = and(
    q.ownerId ? eq(marketBinder.userId, q.ownerId) : undefined,
    q.exceptUserId ? ne(marketBinder.userId, q.exceptUserId) : undefined,
    q.cardId ? eq(marketBinder.cardId, q.cardId) : undefined,
    q.ownedCardId ? eq(marketBinder.ownedCardId, q.ownedCardId) : undefined,
    q.q ? ilike(cards.name, likePattern(q.q)) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    binderFrom(db)
      .where(where)
      .orderBy(desc(marketBinder.createdAt), asc(marketBinder.ownedCardId))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db
      .select({ n: count() })
      .from(marketBinder)
      .innerJoin(ownedCards, and(eq(ownedCards.id, marketBinder.ownedCardId), eq(ownedCards.ownerId, marketBinder.userId), eq(ownedCards.status, 'in_vault')))
      .innerJoin(cards, eq(cards.id, marketBinder.cardId))
      .where(where),
  ]);
  return { items: rows.map(binderDto), total: Number(total?.n ?? 0), page: q.page, pageSize: q.pageSize };
}

/** Opens a vault copy of the user's to swap proposals. 404 not theirs; 409 listed / invalid_card_state (not in the vault). Idempotent. */
export async function addToBinder(db: DbOrTx, userId: string, ownedCardId: string): Promise<BinderItem> {
  const [copy] = await db
    .select({ id: ownedCards.id, ownerId: ownedCards.ownerId, status: ownedCards.status, cardId: ownedCards.cardId })
    .from(ownedCards)
    .where(eq(ownedCards.id, ownedCardId));
  if (!copy || copy.ownerId !== userId) throw notFound('This card is not in your collection.');
  if (copy.status === 'listed') throw listedError();
  if (copy.status !== 'in_vault') throw invalidCardState('list', [copy]);
  await db.insert(marketBinder).values({ ownedCardId, userId, cardId: copy.cardId }).onConflictDoNothing();
  const [row] = await binderFrom(db).where(and(eq(marketBinder.ownedCardId, ownedCardId), eq(marketBinder.userId, userId)));
  if (!row) throw invalidCardState('list', [copy]); // moved meanwhile
  return binderDto(row);
}

/** Takes a copy out of the user's binder (open swaps for it stay, and settle only if it is still there to give). Idempotent. */
export async function removeFromBinder(db: DbOrTx, userId: string, ownedCardId: string): Promise<void> {
  await db.delete(marketBinder).where(and(eq(marketBinder.ownedCardId, ownedCardId), eq(marketBinder.userId, userId)));
}

// ───────────────────────── reads ─────────────────────────

const proposerUser = alias(user, 'swap_proposer');
const recipientUser = alias(user, 'swap_recipient');

async function toDtos(db: DbOrTx, where: SQL | undefined, page?: { limit: number; offset: number }): Promise<MarketSwap[]> {
  let q = db
    .select({ s: marketSwaps, proposerUsername: proposerUser.username, recipientUsername: recipientUser.username })
    .from(marketSwaps)
    .leftJoin(proposerUser, eq(proposerUser.id, marketSwaps.proposerId))
    .leftJoin(recipientUser, eq(recipientUser.id, marketSwaps.recipientId))
    .where(where)
    .orderBy(desc(marketSwaps.createdAt), desc(marketSwaps.id))
    .$dynamic();
  if (page) q = q.limit(page.limit).offset(page.offset);
  const rows = await q;
  if (!rows.length) return [];
  const items = await db
    .select({
      swapId: marketSwapItems.swapId,
      ownedCardId: marketSwapItems.ownedCardId,
      cardId: marketSwapItems.cardId,
      fromProposer: marketSwapItems.fromProposer,
      name: cards.name,
      setName: cards.setName,
      imageKey: cards.imageKey,
      valueCents: cards.valueCents,
    })
    .from(marketSwapItems)
    .innerJoin(cards, eq(cards.id, marketSwapItems.cardId))
    .where(
      inArray(
        marketSwapItems.swapId,
        rows.map((r) => r.s.id),
      ),
    )
    .orderBy(asc(marketSwapItems.swapId), desc(marketSwapItems.fromProposer), asc(cards.name), asc(marketSwapItems.ownedCardId));
  return rows.map(({ s, proposerUsername, recipientUsername }) => ({
    id: s.id,
    proposerId: s.proposerId,
    proposerUsername,
    recipientId: s.recipientId,
    recipientUsername,
    cashCents: s.cashCents,
    heldCents: s.heldCents,
    feeCents: s.feeCents,
    state: s.state,
    items: items
      .filter((i) => i.swapId === s.id)
      .map(({ swapId: _s, fromProposer, ...i }) => ({ ...i, from: fromProposer ? ('proposer' as const) : ('recipient' as const) })),
    expiresAt: s.expiresAt.toISOString(),
    closedAt: s.closedAt?.toISOString() ?? null,
    createdAt: s.createdAt.toISOString(),
  }));
}

async function dtoOf(db: DbOrTx, id: string): Promise<MarketSwap> {
  const [s] = await toDtos(db, eq(marketSwaps.id, id));
  return s!;
}

/** A user's swaps: 'made' (proposed) or 'received' (proposed to them), newest first. */
export async function listSwaps(db: DbOrTx, userId: string, side: 'made' | 'received', q: z.output<typeof swapsQuerySchema>): Promise<MarketSwapPage> {
  const where = and(side === 'made' ? eq(marketSwaps.proposerId, userId) : eq(marketSwaps.recipientId, userId), q.state ? eq(marketSwaps.state, q.state) : undefined);
  const [items, [total]] = await Promise.all([
    toDtos(db, where, { limit: q.pageSize, offset: (q.page - 1) * q.pageSize }),
    db.select({ n: count() }).from(marketSwaps).where(where),
  ]);
  return { items, total: Number(total?.n ?? 0), page: q.page, pageSize: q.pageSize };
}

/** One swap, for either party (404 for anyone else: ids of others' swaps are not confirmed). */
export async function getSwap(db: DbOrTx, userId: string, id: string): Promise<MarketSwap> {
  const [s] = await toDtos(db, and(eq(marketSwaps.id, id), or(eq(marketSwaps.proposerId, userId), eq(marketSwaps.recipientId, userId))));
  if (!s) throw notFound('No such swap.');
  return s;
}

// ───────────────────────── telling ─────────────────────────

async function swapEvent(tx: DbOrTx, s: Pick<SwapRow, 'id' | 'proposerId' | 'recipientId'>, state: MarketSwapState) {
  await afterCommit(
    tx,
    [s.proposerId, s.recipientId].map((u) => ({ topic: `user:${u}` as const, type: 'market.swap.changed', data: { swapId: s.id, state } })),
  );
}

async function tellSwap(ctx: MarketCtx, tx: DbOrTx, userId: string, s: SwapRow, event: NotifyData['market_swap']['event']) {
  if (!ctx.deps) return;
  const other = userId === s.proposerId ? s.recipientId : s.proposerId;
  const [u] = await tx.select({ username: user.username }).from(user).where(eq(user.id, other));
  const [n] = await tx.select({ n: count() }).from(marketSwapItems).where(eq(marketSwapItems.swapId, s.id));
  await notify(
    ctx.deps,
    tx,
    userId,
    'market_swap',
    { swapId: s.id, event, counterparty: u?.username ?? null, cardCount: Number(n?.n ?? 0), cashCents: s.cashCents, toProposer: userId === s.proposerId },
    { dedupeKey: `market-swap:${s.id}:${event}`, afterCommitOnly: true },
  );
}

/** Closes an open swap the caller has locked (the proposer's balance first): the state, and any hold back to the proposer. */
async function closeSwap(tx: Tx, s: SwapRow, state: 'declined' | 'cancelled' | 'expired' | 'stale', actorId: string | null): Promise<void> {
  const now = new Date();
  const [closed] = await tx
    .update(marketSwaps)
    .set({ state, heldCents: 0, closedAt: now, updatedAt: now })
    .where(and(eq(marketSwaps.id, s.id), eqLiteral(marketSwaps.state, 'open')))
    .returning({ id: marketSwaps.id });
  if (!closed) throw new Error(`closeSwap: ${s.id} is not open`);
  await releaseSwapHold(tx, s, actorId, `Swap ${state}`);
}

/** The proposer's held cash back to their free balance (once per swap: the entry's idempotency key is the swap's). */
async function releaseSwapHold(tx: Tx, s: SwapRow, actorId: string | null, memo: string) {
  if (s.heldCents <= 0) return;
  await releaseHold(tx, {
    userId: s.proposerId,
    amountCents: s.heldCents,
    referenceType: 'market_swap',
    referenceId: s.id,
    actorId,
    idempotencyKey: `swap-release:${s.id}`,
    memo,
  });
}

async function lockSwap(tx: DbOrTx, id: string): Promise<SwapRow> {
  const [s] = await tx.select().from(marketSwaps).where(eq(marketSwaps.id, id)).for('update');
  if (!s) throw notFound('No such swap.');
  return s;
}

async function preRead(db: DbOrTx, id: string): Promise<SwapRow> {
  const [s] = await db.select().from(marketSwaps).where(eq(marketSwaps.id, id));
  if (!s) throw notFound('No such swap.');
  return s;
}

// ───────────────────────── propose ─────────────────────────

/**
 * Proposes a swap, in the caller's transaction (withIdempotency + the market's runner). The
 * wanted copies must all be in one other collector's binder now; the given ones the proposer's,
 * in the vault and unlisted. Cash the proposer pays is held at once. 400 (a copy on both sides,
 * copies of two collectors, cash outside the price bounds), 404 (a copy not found or not open to
 * trade), 403 self_dealing / self_excluded, 409 listed / invalid_card_state / insufficient_funds.
 */
export async function proposeSwap(tx: Tx, ctx: MarketCtx, proposerId: string, input: ProposeInput): Promise<MarketSwap> {
  if (input.give.some((id) => input.want.includes(id))) {
    throw badRequest('A card cannot be on both sides of a swap.', { want: ['Pick cards of the other collector.'] });
  }
  const wanted = await tx
    .select({ id: ownedCards.id, cardId: ownedCards.cardId, ownerId: ownedCards.ownerId })
    .from(marketBinder)
    .innerJoin(ownedCards, and(eq(ownedCards.id, marketBinder.ownedCardId), eq(ownedCards.ownerId, marketBinder.userId), eq(ownedCards.status, 'in_vault')))
    .where(inArray(marketBinder.ownedCardId, input.want));
  if (wanted.length !== input.want.length) throw notFound('A card you asked for is no longer open to trade. Nothing was proposed.');
  const recipientId = wanted[0]!.ownerId;
  if (wanted.some((w) => w.ownerId !== recipientId)) {
    throw badRequest('A swap is with one collector: the cards you ask for must all be theirs.', { want: ['Pick cards of one collector.'] });
  }
  if (recipientId === proposerId) throw new AppError(403, 'self_dealing', 'These are your own cards: you cannot swap with yourself. Nothing was proposed.');
  if (input.cashCents > 0) await assertCanSpend(tx, proposerId);
  await assertNotStaffDealing(tx, proposerId, recipientId, 'Nothing was proposed.');
  if (input.cashCents !== 0) checkPrice(Math.abs(input.cashCents), 'cashCents', 'Add cash');

  await lockBalances(tx, [proposerId]);
  const given = await tx
    .select({ id: ownedCards.id, cardId: ownedCards.cardId, ownerId: ownedCards.ownerId, status: ownedCards.status })
    .from(ownedCards)
    .where(inArray(ownedCards.id, input.give))
    .orderBy(asc(ownedCards.id))
    .for('share');
  if (given.length !== input.give.length || given.some((g) => g.ownerId !== proposerId)) throw notFound('A card you offered is not in your collection.');
  const notFree = given.filter((g) => g.status !== 'in_vault');
  if (notFree.length) throw invalidCardState('list', notFree);

  const id = randomUUID();
  const cash = input.cashCents;
  await tx.insert(marketSwaps).values({ id, proposerId, recipientId, cashCents: cash, heldCents: Math.max(cash, 0), expiresAt: expiryOf(input.expiresInHours) });
  await tx.insert(marketSwapItems).values([
    ...given.map((g) => ({ swapId: id, ownedCardId: g.id, cardId: g.cardId, fromProposer: true })),
    ...wanted.map((w) => ({ swapId: id, ownedCardId: w.id, cardId: w.cardId, fromProposer: false })),
  ]);
  if (cash > 0) {
    await holdFunds(tx, {
      userId: proposerId,
      amountCents: cash,
      referenceType: 'market_swap',
      referenceId: id,
      actorId: proposerId,
      idempotencyKey: `swap-hold:${id}`,
      memo: 'Cash offered in a swap',
    });
  }
  const s = await preRead(tx, id);
  await swapEvent(tx, s, 'open');
  await tellSwap(ctx, tx, recipientId, s, 'received');
  return dtoOf(tx, id);
}

// ───────────────────────── answer ─────────────────────────

/**
 * The recipient accepts: every copy changes owner and the cash moves, in the caller's transaction,
 * or nothing does. 403 forbidden (the proposer: cancel instead), 404 (a stranger), 409 swap_closed,
 * swap_stale (a copy moved: the route then closes the swap), insufficient_funds (the recipient's
 * cash), 403 self_excluded (the recipient pays) or self_dealing (staff).
 */
export async function acceptSwap(tx: Tx, ctx: MarketCtx, actorId: string, swapId: string): Promise<MarketSwap> {
  const pre = await preRead(tx, swapId);
  if (pre.proposerId === actorId) throw new AppError(403, 'forbidden', 'You proposed this swap: the other collector accepts it. Withdraw it instead.');
  if (pre.recipientId !== actorId) throw notFound('No such swap.');
  if (pre.cashCents < 0) await assertCanSpend(tx, actorId);
  await assertNotStaffDealing(tx, pre.proposerId, pre.recipientId, 'Nothing moved.');

  await lockBalances(tx, [pre.proposerId, pre.recipientId]);
  const items = await tx.select().from(marketSwapItems).where(eq(marketSwapItems.swapId, swapId));
  // The copies in id order, before the swap row (the market's lock order).
  await tx
    .select({ id: ownedCards.id })
    .from(ownedCards)
    .where(
      inArray(
        ownedCards.id,
        items.map((i) => i.ownedCardId),
      ),
    )
    .orderBy(asc(ownedCards.id))
    .for('update');
  const s = await lockSwap(tx, swapId);
  if (!isOpen(s)) throw swapClosed(s);

  const movement = { actorId, referenceType: 'market_swap', referenceId: s.id };
  const moved = await swapVaultCopies(tx, {
    ...movement,
    moves: items.map((i) => ({
      id: i.ownedCardId,
      fromOwnerId: i.fromProposer ? s.proposerId : s.recipientId,
      toOwnerId: i.fromProposer ? s.recipientId : s.proposerId,
    })),
  });
  if (!moved) throw swapStale();

  let feeCents: number | null = null;
  let ledgerEntryId: string | null = null;
  if (s.cashCents !== 0) {
    // The capture: the hold back to the free balance and the cash's entry, under the proposer's balance lock.
    await releaseSwapHold(tx, s, actorId, 'Swap accepted');
    const cash = Math.abs(s.cashCents);
    const terms = marketSettings();
    feeCents = marketFee(cash, terms.feeBp, terms.minFeeCents);
    const money = await settleTrade(tx, {
      buyerId: s.cashCents > 0 ? s.proposerId : s.recipientId,
      sellerId: s.cashCents > 0 ? s.recipientId : s.proposerId,
      priceCents: cash,
      feeCents,
      referenceType: 'market_swap',
      referenceId: s.id,
      actorId,
      idempotencyKey: `swap-cash:${s.id}`,
      memo: `Cash in a swap (${formatMoney(cash)})`,
    });
    ledgerEntryId = money.entryId;
  }
  const now = new Date();
  await tx.update(marketSwaps).set({ state: 'accepted', heldCents: 0, feeCents, ledgerEntryId, closedAt: now, updatedAt: now }).where(eq(marketSwaps.id, s.id));
  const copyIds = items.map((i) => i.ownedCardId);
  // The copies left their owners' binders; other open swaps naming them can never settle now.
  await tx.delete(marketBinder).where(inArray(marketBinder.ownedCardId, copyIds));
  await closeSwapsNaming(tx, ctx, copyIds, actorId, s.id);
  await swapEvent(tx, s, 'accepted');
  await tellSwap(ctx, tx, s.proposerId, s, 'accepted');
  return dtoOf(tx, s.id);
}

/** Closes (stale) every other open swap naming one of these copies, each hold released and its proposer told. */
async function closeSwapsNaming(tx: Tx, ctx: MarketCtx, copyIds: string[], actorId: string | null, except?: string): Promise<void> {
  const others = await tx
    .selectDistinct({ id: marketSwaps.id, proposerId: marketSwaps.proposerId })
    .from(marketSwapItems)
    .innerJoin(marketSwaps, eq(marketSwaps.id, marketSwapItems.swapId))
    .where(and(inArray(marketSwapItems.ownedCardId, copyIds), eqLiteral(marketSwaps.state, 'open'), except ? ne(marketSwaps.id, except) : undefined));
  for (const o of others.sort((a, b) => (a.proposerId < b.proposerId ? -1 : a.proposerId > b.proposerId ? 1 : 0))) {
    await lockBalance(tx, o.proposerId);
    const s = await lockSwap(tx, o.id);
    if (s.state !== 'open') continue;
    await closeSwap(tx, s, 'stale', actorId);
    await swapEvent(tx, s, 'stale');
    await tellSwap(ctx, tx, s.proposerId, s, 'stale');
  }
}

/** After a 409 swap_stale (rolled back): closes the swap as stale in its own transaction, the hold back, the proposer told. */
export async function closeStaleSwap(db: Db, ctx: MarketCtx, swapId: string, actorId: string | null): Promise<void> {
  const pre = await preRead(db, swapId);
  await db.transaction(async (tx) => {
    await lockBalance(tx, pre.proposerId);
    const s = await lockSwap(tx, swapId);
    if (s.state !== 'open') return;
    await closeSwap(tx, s, 'stale', actorId);
    await swapEvent(tx, s, 'stale');
    await tellSwap(ctx, tx, s.proposerId, s, 'stale');
  });
}

/** The recipient declines (`decline`) or the proposer withdraws (`cancel`): any hold goes back to the proposer; the other side is told. */
export async function answerSwap(tx: Tx, ctx: MarketCtx, actorId: string, swapId: string, action: 'decline' | 'cancel'): Promise<MarketSwap> {
  const pre = await preRead(tx, swapId);
  const mine = action === 'decline' ? pre.recipientId : pre.proposerId;
  if (mine !== actorId) {
    if (pre.proposerId === actorId) throw new AppError(403, 'forbidden', 'You proposed this swap: withdraw it instead.');
    if (pre.recipientId === actorId) throw new AppError(403, 'forbidden', 'This swap was proposed to you: decline it instead.');
    throw notFound('No such swap.');
  }
  await lockBalances(tx, [pre.proposerId]);
  const s = await lockSwap(tx, swapId);
  if (!isOpen(s)) throw swapClosed(s);
  const state = action === 'decline' ? 'declined' : 'cancelled';
  await closeSwap(tx, s, state, actorId);
  await swapEvent(tx, s, state);
  await tellSwap(ctx, tx, action === 'decline' ? s.proposerId : s.recipientId, s, state);
  return dtoOf(tx, s.id);
}

/** Closes open swaps past their expiry, each in its own transaction, at most `limit`; the proposer is told. Returns how many. */
export async function expireSwapsDue(db: Db, opts: { swapId?: string; userId?: string; limit?: number; ctx?: MarketCtx } = {}): Promise<number> {
  const due = await db
    .select({ id: marketSwaps.id, proposerId: marketSwaps.proposerId })
    .from(marketSwaps)
    .where(
      and(
        eqLiteral(marketSwaps.state, 'open'),
        sql`${marketSwaps.expiresAt} <= now()`,
        opts.swapId ? eq(marketSwaps.id, opts.swapId) : undefined,
        opts.userId ? or(eq(marketSwaps.proposerId, opts.userId), eq(marketSwaps.recipientId, opts.userId)) : undefined,
      ),
    )
    .orderBy(asc(marketSwaps.expiresAt))
    .limit(opts.limit ?? 100);
  const ctx = opts.ctx ?? {};
  let n = 0;
  for (const { id, proposerId } of due) {
    n += await db.transaction(async (tx) => {
      await lockBalance(tx, proposerId);
      const s = await lockSwap(tx, id);
      if (s.state !== 'open' || s.expiresAt > new Date()) return 0;
      await closeSwap(tx, s, 'expired', null);
      await swapEvent(tx, s, 'expired');
      await tellSwap(ctx, tx, s.proposerId, s, 'expired');
      return 1;
    });
  }
  return n;
}

/** Account deletion: every open swap the person is party to closes (cancelled), holds released; their binder empties. */
export async function cancelSwapsOf(tx: Tx, userId: string): Promise<number> {
  const rows = await tx
    .select({ id: marketSwaps.id, proposerId: marketSwaps.proposerId })
    .from(marketSwaps)
    .where(and(eqLiteral(marketSwaps.state, 'open'), or(eq(marketSwaps.proposerId, userId), eq(marketSwaps.recipientId, userId))));
  await lockBalances(
    tx,
    rows.map((r) => r.proposerId),
  );
  let n = 0;
  for (const { id } of rows) {
    const s = await lockSwap(tx, id);
    if (s.state !== 'open') continue;
    await closeSwap(tx, s, 'cancelled', null);
    await swapEvent(tx, s, 'cancelled');
    n++;
  }
  await tx.delete(marketBinder).where(eq(marketBinder.userId, userId));
  return n;
}
