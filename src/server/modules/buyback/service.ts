import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, exists, gte, ilike, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import {
  buybackAmount,
  STATUS_LABEL,
  type AdminBuybackList,
  type adminBuybackQuerySchema,
  type buybackInputSchema,
  type BuybackLine,
  type BuybackQuote,
  type BuybackResult,
} from '../../../shared/contracts/collection.ts';
import { dayEnd } from '../../../shared/contracts/dates.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { notify } from '../notifications/service.ts';
import { user } from '../auth/tables.ts';
import { buybackLines, buybacks } from '../../db/schema/buyback.ts';
import { cardClasses, cards } from '../catalog/tables.ts';
import { ownedCards } from '../inventory/tables.ts';
import { AppError } from '../../http/errors.ts';
import { likePattern } from '../../lib/like.ts';
import { listedError, moveCopies } from '../inventory/service.ts';
import { isStaffOrStaffLinked } from '../audit/duties.ts';
import { credit, getBalance, lockBalance } from '../wallet/service.ts';
import { getDefaultRateBp } from './rates.ts';
import { plural } from '../../../shared/words.ts';

/**
 * Selling vault cards back. A sale runs in the caller's transaction (withIdempotency +
 * db.transaction in routes.ts): it locks the user's balance, then the owned cards (in id
 * order), flips them in_vault → sold_back with a conditional UPDATE, returns the copies to stock,
 * records the buyback with its lines and credits the ledger once. Two sales racing for one card:
 * the second waits on the row lock, then sees 'sold_back' and is refused with a 409.
 */

export type BuybackInput = z.output<typeof buybackInputSchema>;

interface Candidate {
  ownedCardId: string;
  status: (typeof ownedCards.$inferSelect)['status'];
  cardId: string;
  name: string;
  classId: string;
  className: string;
  valueCents: number;
  /** The value the copy came with (opening, grant, drop). */
  acquiredValueCents: number;
  classRateBp: number | null;
}

const candidateColumns = {
  ownedCardId: ownedCards.id,
  status: ownedCards.status,
  cardId: cards.id,
  name: cards.name,
  classId: cards.classId,
  className: cardClasses.name,
  valueCents: cards.valueCents,
  acquiredValueCents: ownedCards.valueCents,
  classRateBp: cardClasses.buybackRateBp,
};

const notInVault = (rows: Candidate[]) => {
  if (rows.some((r) => r.status === 'listed')) return listedError();
  const first = rows[0]!;
  const what =
    rows.length === 1
      ? `${first.name} is not in your vault (${STATUS_LABEL[first.status].toLowerCase()})`
      : `${rows.length} of these cards are not in your vault any more`;
  return new AppError(
    409,
    'not_in_vault',
    `${what}: only cards in the vault can be sold back. Nothing was sold; refresh and pick again.`,
    { ownedCardIds: rows.map((r) => `${r.ownedCardId}: ${STATUS_LABEL[r.status]}`) },
  );
};

const nothingToSell = (belowCents?: number) =>
  new AppError(
    409,
    'nothing_to_sell',
    belowCents !== undefined
      ? 'No card in your vault is worth less than that amount. Nothing was sold.'
      : 'None of these cards can be sold. Nothing was sold.',
  );

/**
 * The cards a request means, checked: explicit ids must all be yours (else 404) and, unless
 * filtered by `belowCents`, all in the vault (else 409). With `lock`, the owned rows are locked
 * FOR UPDATE in id order, so overlapping sales queue instead of deadlocking.
 */
async function selectCandidates(db: DbOrTx, userId: string, input: BuybackInput, lock: boolean): Promise<Candidate[]> {
  const ids = input.ownedCardIds ? [...input.ownedCardIds].sort() : undefined;
  const base = db
    .select(candidateColumns)
    .from(ownedCards)
    .innerJoin(cards, eq(cards.id, ownedCards.cardId))
    .innerJoin(cardClasses, eq(cardClasses.id, cards.classId));
  const where = ids
    ? and(eq(ownedCards.ownerId, userId), inArray(ownedCards.id, ids))
    : and(eq(ownedCards.ownerId, userId), eq(ownedCards.status, 'in_vault'), lt(cards.valueCents, input.belowCents!));
  const query = base.where(where).orderBy(asc(ownedCards.id));
  const rows: Candidate[] = lock ? await query.for('update', { of: ownedCards }) : await query;

  if (ids) {
    if (rows.length !== ids.length) {
      const found = new Set(rows.map((r) => r.ownedCardId));
      const missing = ids.filter((id) => !found.has(id));
      throw new AppError(404, 'not_found', missing.length === 1 ? 'This card is not in your collection.' : `${missing.length} of these cards are not in your collection.`, {
        ownedCardIds: missing.map((id) => `${id}: not found`),
      });
    }
    if (input.belowCents !== undefined) {
      // "Sell all below $X" of a given set (e.g. a reveal): a filter, so sold or shipped ones drop out.
      const picked = rows.filter((r) => r.status === 'in_vault' && r.valueCents < input.belowCents!);
      if (!picked.length) throw nothingToSell(input.belowCents);
      return picked;
    }
    const blocked = rows.filter((r) => r.status !== 'in_vault');
    if (blocked.length) throw notInVault(blocked);
  }
  if (!rows.length) throw nothingToSell(input.belowCents);
  return rows;
}

/**
 * Separation of duties (ADR 0024): a staff seller, or an account a staff member referred, is
 * paid on the lower of the card's value today and the value the copy came with, so no value change
 * made in the back office after the copy was theirs can pay them. Collectors are paid today's value.
 */
function priceLines(rows: Candidate[], defaultRateBp: number, staffSeller = false): BuybackLine[] {
  return rows.map((raw) => {
    const r = staffSeller ? { ...raw, valueCents: Math.min(raw.valueCents, raw.acquiredValueCents) } : raw;
    const rateBp = r.classRateBp ?? defaultRateBp;
    return {
      ownedCardId: r.ownedCardId,
      cardId: r.cardId,
      name: r.name,
      classId: r.classId,
      className: r.className,
      marketValueCents: r.valueCents,
      rateBp,
      amountCents: buybackAmount(r.valueCents, rateBp),
    };
  });
}

const sum = (lines: BuybackLine[], k: 'marketValueCents' | 'amountCents') => lines.reduce((s, l) => s + l[k], 0);

export async function quote(db: DbOrTx, userId: string, input: BuybackInput): Promise<BuybackQuote> {
  const [defaultRateBp, rows, staffSeller] = await Promise.all([getDefaultRateBp(), selectCandidates(db, userId, input, false), isStaffOrStaffLinked(db, userId)]);
  const lines = priceLines(rows, defaultRateBp, staffSeller);
  return {
    lines,
    cardCount: lines.length,
    marketValueCents: sum(lines, 'marketValueCents'),
    totalCents: sum(lines, 'amountCents'),
    defaultRateBp,
  };
}

export async function sell(
  tx: Tx,
  userId: string,
  input: BuybackInput,
  /** With deps, the seller is notified (buyback_paid) in the same transaction. */
  opts: { idempotencyKey?: string | null; deps?: Deps } = {},
): Promise<BuybackResult> {
  // Same first lock as purchases and openings of this user: balance → owned cards → cards.
  await lockBalance(tx, userId);
  const rows = await selectCandidates(tx, userId, input, true);
  const lines = priceLines(rows, getDefaultRateBp(), await isStaffOrStaffLinked(tx, userId));
  const totalCents = sum(lines, 'amountCents');
  const marketValueCents = sum(lines, 'marketValueCents');
  if (input.expectedTotalCents !== undefined && input.expectedTotalCents !== totalCents) {
    throw new AppError(
      409,
      'quote_changed',
      `Prices changed since the quote: these cards now sell for a different amount. Nothing was sold; check the new quote and confirm again.`,
    );
  }

  const ids = lines.map((l) => l.ownedCardId);
  const buybackId = randomUUID();
  // in_vault → sold_back and the copies back to stock, through the inventory (all or nothing).
  await moveCopies(tx, 'sellBack', {
    ids,
    ownerId: userId,
    actorId: userId,
    referenceType: 'buyback',
    referenceId: buybackId,
    note: `Buyback ${buybackId}`,
    // Cannot happen under the row locks above; never pay for a card that did not move.
    refused: () => new AppError(409, 'not_in_vault', 'Some of these cards left your vault meanwhile. Nothing was sold; refresh and try again.'),
  });

  let ledgerEntryId: string | null = null;
  let balanceCents: number;
  if (totalCents > 0) {
    const moved = await credit(tx, {
      userId,
      amountCents: totalCents,
      kind: 'buyback',
      referenceType: 'buyback',
      referenceId: buybackId,
      actorId: userId,
      idempotencyKey: opts.idempotencyKey ? `buyback:${opts.idempotencyKey}` : null,
      memo: lines.length === 1 ? `Sold back ${lines[0]!.name}` : `Sold back ${plural(lines.length, 'card')}`,
    });
    ledgerEntryId = moved.entryId;
    balanceCents = moved.balanceCents;
  } else {
    balanceCents = (await getBalance(tx, userId)).balanceCents;
  }

  const [bb] = await tx
    .insert(buybacks)
    .values({ id: buybackId, userId, cardCount: lines.length, marketValueCents, totalCents, ledgerEntryId })
    .returning();
  await tx.insert(buybackLines).values(
    lines.map((l) => ({
      buybackId,
      ownedCardId: l.ownedCardId,
      cardId: l.cardId,
      classId: l.classId,
      marketValueCents: l.marketValueCents,
      rateBp: l.rateBp,
      amountCents: l.amountCents,
    })),
  );
  if (opts.deps && totalCents > 0) {
    await notify(opts.deps, tx, userId, 'buyback_paid', { saleId: buybackId, amountCents: totalCents, cardCount: lines.length }, { dedupeKey: `buyback:${buybackId}` });
  }
  return {
    buyback: {
      id: bb!.id,
      cardCount: bb!.cardCount,
      marketValueCents,
      totalCents,
      ledgerEntryId,
      createdAt: bb!.createdAt.toISOString(),
    },
    lines,
    balanceCents,
  };
}

// ───────────────────────── admin ─────────────────────────

function dayStart(day: string) {
  return new Date(`${day}T00:00:00Z`);
}

function adminWhere(q: z.output<typeof adminBuybackQuerySchema>): SQL | undefined {
  const conds: Array<SQL | undefined> = [];
  if (q.userId) conds.push(eq(buybacks.userId, q.userId));
  if (q.user) conds.push(or(ilike(user.username, likePattern(q.user)), ilike(user.email, likePattern(q.user))));
  if (q.from) conds.push(gte(buybacks.createdAt, dayStart(q.from)));
  if (q.to) conds.push(lt(buybacks.createdAt, dayEnd(q.to)));
  if (q.minCents !== undefined) conds.push(gte(buybacks.totalCents, q.minCents));
  if (q.classId) {
    conds.push(
      exists(
        sql`(select 1 from ${buybackLines} where ${buybackLines.buybackId} = ${buybacks.id} and ${buybackLines.classId} = ${q.classId})`,
      ),
    );
  }
  return and(...conds);
}

export async function listBuybacks(db: DbOrTx, q: z.output<typeof adminBuybackQuerySchema>): Promise<AdminBuybackList> {
  const where = adminWhere(q);
  const day = sql<string>`to_char(${buybacks.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const [rows, [summary], daily] = await Promise.all([
    db
      .select({ b: buybacks, username: user.username, email: user.email })
      .from(buybacks)
      .leftJoin(user, eq(user.id, buybacks.userId))
      .where(where)
      .orderBy(desc(buybacks.createdAt), desc(buybacks.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db
      .select({
        n: count(),
        cards: sql<string | null>`sum(${buybacks.cardCount})`,
        market: sql<string | null>`sum(${buybacks.marketValueCents})`,
        total: sql<string | null>`sum(${buybacks.totalCents})`,
      })
      .from(buybacks)
      .leftJoin(user, eq(user.id, buybacks.userId))
      .where(where),
    db
      .select({
        day,
        n: count(),
        cards: sql<string>`sum(${buybacks.cardCount})`,
        total: sql<string>`sum(${buybacks.totalCents})`,
      })
      .from(buybacks)
      .leftJoin(user, eq(user.id, buybacks.userId))
      .where(where)
      .groupBy(day)
      .orderBy(desc(day))
      .limit(31),
  ]);
  const ids = rows.map((r) => r.b.id);
  const lineRows = ids.length
    ? await db
        .select({
          buybackId: buybackLines.buybackId,
          ownedCardId: buybackLines.ownedCardId,
          cardId: buybackLines.cardId,
          name: cards.name,
          classId: buybackLines.classId,
          className: cardClasses.name,
          marketValueCents: buybackLines.marketValueCents,
          rateBp: buybackLines.rateBp,
          amountCents: buybackLines.amountCents,
        })
        .from(buybackLines)
        .innerJoin(cards, eq(cards.id, buybackLines.cardId))
        .innerJoin(cardClasses, eq(cardClasses.id, buybackLines.classId))
        .where(inArray(buybackLines.buybackId, ids))
        .orderBy(desc(buybackLines.amountCents), asc(buybackLines.id))
    : [];
  const byBuyback = new Map<string, BuybackLine[]>();
  for (const { buybackId, ...l } of lineRows) {
    let list = byBuyback.get(buybackId);
    if (!list) byBuyback.set(buybackId, (list = []));
    list.push(l);
  }
  return {
    items: rows.map(({ b, username, email }) => ({
      id: b.id,
      userId: b.userId,
      username: username ?? null,
      email: email ?? null,
      cardCount: b.cardCount,
      marketValueCents: b.marketValueCents,
      totalCents: b.totalCents,
      rateBp: saleRateBp(byBuyback.get(b.id) ?? []),
      ledgerEntryId: b.ledgerEntryId,
      createdAt: b.createdAt.toISOString(),
      lines: byBuyback.get(b.id) ?? [],
    })),
    total: Number(summary?.n ?? 0),
    page: q.page,
    pageSize: q.pageSize,
    summary: {
      count: Number(summary?.n ?? 0),
      cardCount: Number(summary?.cards ?? 0),
      marketValueCents: Number(summary?.market ?? 0),
      totalCents: Number(summary?.total ?? 0),
    },
    daily: daily.map((d) => ({ day: d.day, count: Number(d.n), cardCount: Number(d.cards), totalCents: Number(d.total) })),
  };
}

/**
 * The configured rate of a sale, from the rate stored on each line when it was sold. Deriving it
 * from paid ÷ value shows 84.99% for 85% because each line is rounded down to the cent; null when
 * the lines were sold at different rates (the lines then show each rate).
 */
export function saleRateBp(lines: ReadonlyArray<{ rateBp: number }>): number | null {
  const rates = new Set(lines.map((l) => l.rateBp));
  return rates.size === 1 ? [...rates][0]! : null;
}
