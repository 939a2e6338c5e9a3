import { asc, eq } from 'drizzle-orm';
import type { CardValueHistory, ValueSource } from '../../../shared/contracts/catalog.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { cardValueHistory, cards } from '../../db/schema/catalog.ts';
import { notFound } from '../../http/errors.ts';

/**
 * A card's market value over time (issue 19). Every writer of `cards.value_cents` calls
 * recordValues in its own transaction, so the history and the value never disagree.
 */

/** Appends one point per card; the caller passes only cards whose value was set or changed. */
export async function recordValues(
  tx: DbOrTx,
  rows: Array<{ cardId: string; valueCents: number; at?: Date }>,
  source: ValueSource,
): Promise<void> {
  if (!rows.length) return;
  await tx.insert(cardValueHistory).values(rows.map((r) => ({ cardId: r.cardId, valueCents: r.valueCents, source, ...(r.at ? { recordedAt: r.at } : {}) })));
}

/** Records a card's value as its first point when it has none yet (separation of duties, ADR 0024). */
export async function recordFirstValue(tx: DbOrTx, cardId: string, valueCents: number, at: Date): Promise<void> {
  const [any] = await tx.select({ id: cardValueHistory.id }).from(cardValueHistory).where(eq(cardValueHistory.cardId, cardId)).limit(1);
  if (!any) await recordValues(tx, [{ cardId, valueCents, at }], 'admin_edit');
}

/**
 * The public history of an active card, oldest first. A card with no recorded point yet (made
 * before the history existed and not changed since) shows its value now as its only point.
 */
export async function getValueHistory(db: Db, cardId: string): Promise<CardValueHistory> {
  const [card] = await db.select({ valueCents: cards.valueCents, active: cards.active, updatedAt: cards.updatedAt }).from(cards).where(eq(cards.id, cardId));
  if (!card?.active) throw notFound('This card is not in the catalog.');
  const rows = await db
    .select({ at: cardValueHistory.recordedAt, valueCents: cardValueHistory.valueCents })
    .from(cardValueHistory)
    .where(eq(cardValueHistory.cardId, cardId))
    .orderBy(asc(cardValueHistory.recordedAt), asc(cardValueHistory.id));
  const points = rows.map((r) => ({ at: r.at.toISOString(), valueCents: r.valueCents }));
  if (!points.length) points.push({ at: card.updatedAt.toISOString(), valueCents: card.valueCents });
  return { cardId, points };
}
