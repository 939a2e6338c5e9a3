import { and, count, desc, eq, lte, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ValueLimits } from '../../../shared/contracts/settings.ts';
import type { HeldValueChange, ValueProposal, ValueProposalList, ValueProposalStatus } from '../../../shared/contracts/value-proposals.ts';
import { formatMoney } from '../../../shared/money.ts';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import { cardValueHistory, cardValueProposals, cards } from '../../db/schema/catalog.ts';
import { conflict, notFound } from '../../http/errors.ts';
import type { ActorCtx } from '../../http/types.ts';
import { ownerRequiredError, type StaffRole } from '../audit/duties.ts';
import { audit } from '../audit/service.ts';
import { user } from '../auth/tables.ts';
import { ownedCards } from '../inventory/tables.ts';
import { setting } from '../settings/store.ts';
import { afterCatalogWrite } from './cache.ts';
import { recordValues } from './value-history.ts';

/**
 * Separation of duties for card values (ADR 0024). `cards.value_cents` is the value in effect:
 * buyback, shipping's declared value and insurance, and card grants all read it. A non-owner
 * admin moves it alone only within the owner's bound (`catalog.valueLimits`): per card, over any
 * 24 hours, measured from the value the card had 24 hours before, at most `maxChangeBp` of that
 * value and at most `maxChangeCents`. Anything more is held as a pending proposal the owner
 * approves or rejects; until then the card keeps its value. A new card above `newCardMaxCents`
 * needs the owner. The owner's own edits take effect at once (and supersede a pending proposal).
 */

export type ValueActor = ActorCtx & { role: StaffRole; currency: string };

/** The value a card had 24 hours ago: the last point recorded by then, else its first point, else today's. */
export async function valueDayAgo(tx: DbOrTx, cardId: string, current: number, now = new Date()): Promise<number> {
  const dayAgo = new Date(now.getTime() - 86_400_000);
  const [before] = await tx
    .select({ v: cardValueHistory.valueCents })
    .from(cardValueHistory)
    .where(and(eq(cardValueHistory.cardId, cardId), lte(cardValueHistory.recordedAt, dayAgo)))
    .orderBy(desc(cardValueHistory.recordedAt), desc(cardValueHistory.id))
    .limit(1);
  if (before) return before.v;
  const [first] = await tx
    .select({ v: cardValueHistory.valueCents })
    .from(cardValueHistory)
    .where(eq(cardValueHistory.cardId, cardId))
    .orderBy(cardValueHistory.recordedAt, cardValueHistory.id)
    .limit(1);
  return first?.v ?? current;
}

/** How far from `base` an admin may set a value alone. */
export function allowedChange(base: number, limits: ValueLimits): number {
  return Math.min(Math.floor((base * limits.maxChangeBp) / 10_000), limits.maxChangeCents);
}

/** True when a non-owner's change of one card's value from `from` to `to` is within the bound. */
export async function withinValueBound(tx: DbOrTx, cardId: string, from: number, to: number): Promise<boolean> {
  const base = await valueDayAgo(tx, cardId, from);
  return Math.abs(to - base) <= allowedChange(base, setting('catalog.valueLimits'));
}

/** A new card's value: above the owner's bound only the owner sets it. */
export function assertNewCardValue(actor: Pick<ValueActor, 'role' | 'currency'>, valueCents: number): void {
  if (actor.role === 'owner') return;
  const cap = setting('catalog.valueLimits').newCardMaxCents;
  if (valueCents > cap) {
    const text = formatMoney(cap, actor.currency);
    throw ownerRequiredError(`Cards worth more than ${text} are added by the owner. Create it at ${text} or less and propose the value, or ask the owner.`, {
      valueCents: [`At most ${text} without the owner.`],
    });
  }
}

/** Marks the card's pending proposal superseded (an owner's direct edit, or a newer proposal). */
async function supersede(tx: DbOrTx, cardId: string, actorId: string, note: string): Promise<void> {
  await tx
    .update(cardValueProposals)
    .set({ status: 'superseded', decidedBy: actorId, decidedAt: new Date(), decisionNote: note })
    .where(and(eq(cardValueProposals.cardId, cardId), eq(cardValueProposals.status, 'pending')));
}

/** Called by the owner's direct value edit, in its transaction. */
export async function supersedeByOwner(tx: DbOrTx, cardId: string, actorId: string): Promise<void> {
  await supersede(tx, cardId, actorId, 'The owner set the value directly.');
}

/**
 * Holds a value change for the owner, in the card edit's transaction (the card row is locked by
 * its UPDATE). Audited `catalog.card.value_proposed`.
 */
export async function holdValueChange(tx: DbOrTx, actor: ValueActor, cardId: string, fromCents: number, toCents: number): Promise<HeldValueChange> {
  await supersede(tx, cardId, actor.actorId, 'A newer proposal replaced it.');
  const [row] = await tx.insert(cardValueProposals).values({ cardId, fromCents, toCents, proposedBy: actor.actorId }).returning({ id: cardValueProposals.id });
  await audit(tx, {
    actorId: actor.actorId,
    ip: actor.ip,
    action: 'catalog.card.value_proposed',
    targetType: 'card',
    targetId: cardId,
    before: { valueCents: fromCents },
    after: { proposedCents: toCents, proposalId: row!.id },
  });
  return {
    id: row!.id,
    toCents,
    message: `The value change to ${formatMoney(toCents, actor.currency)} is more than admins may make alone in a day, so it waits for the owner. The card keeps ${formatMoney(fromCents, actor.currency)} until then.`,
  };
}

const proposer = alias(user, 'proposer');
const decider = alias(user, 'decider');

async function proposals(db: DbOrTx, where: ReturnType<typeof eq>, limit = 200): Promise<ValueProposal[]> {
  const rows = await db
    .select({
      p: cardValueProposals,
      cardName: cards.name,
      setName: cards.setName,
      number: cards.number,
      currentCents: cards.valueCents,
      proposedByName: proposer.username,
      decidedByName: decider.username,
      copies: sql<number>`(select count(*)::int from ${ownedCards} o where o.card_id = ${cards.id} and o.status = 'in_vault')`,
    })
    .from(cardValueProposals)
    .innerJoin(cards, eq(cards.id, cardValueProposals.cardId))
    .leftJoin(proposer, eq(proposer.id, cardValueProposals.proposedBy))
    .leftJoin(decider, eq(decider.id, cardValueProposals.decidedBy))
    .where(where)
    .orderBy(desc(cardValueProposals.createdAt))
    .limit(limit);
  return rows.map((r) => ({
    id: r.p.id,
    cardId: r.p.cardId,
    cardName: r.cardName,
    setName: r.setName,
    number: r.number,
    fromCents: r.p.fromCents,
    currentCents: r.currentCents,
    toCents: r.p.toCents,
    copiesInVaults: Number(r.copies),
    proposedBy: r.p.proposedBy,
    proposedByName: r.proposedByName,
    status: r.p.status,
    decidedBy: r.p.decidedBy,
    decidedByName: r.decidedByName,
    decidedAt: r.p.decidedAt?.toISOString() ?? null,
    decisionNote: r.p.decisionNote,
    createdAt: r.p.createdAt.toISOString(),
  }));
}

export async function listValueProposals(db: Db, status: ValueProposalStatus, callerIsOwner: boolean): Promise<ValueProposalList> {
  const [items, [pending]] = await Promise.all([
    proposals(db, eq(cardValueProposals.status, status)),
    db.select({ n: count() }).from(cardValueProposals).where(eq(cardValueProposals.status, 'pending')),
  ]);
  return { items, pendingCount: Number(pending?.n ?? 0), callerIsOwner };
}

async function lockPending(tx: Tx, id: string) {
  const [row] = await tx.select().from(cardValueProposals).where(eq(cardValueProposals.id, id)).for('update');
  if (!row) throw notFound('No value proposal with this id.');
  if (row.status !== 'pending') throw conflict(`This proposal is already ${row.status}.`, 'conflict');
  return row;
}

/** The owner approves: the card takes the proposed value (history and audit in the same transaction). */
export async function approveValueProposal(db: Db, actor: ActorCtx, id: string): Promise<ValueProposal> {
  await afterCatalogWrite(db, () =>
    db.transaction(async (tx) => {
      const p = await lockPending(tx, id);
      const [card] = await tx.select({ valueCents: cards.valueCents }).from(cards).where(eq(cards.id, p.cardId)).for('update');
      if (!card) throw notFound('The card of this proposal is gone.');
      await tx.update(cards).set({ valueCents: p.toCents, updatedAt: new Date() }).where(eq(cards.id, p.cardId));
      if (card.valueCents !== p.toCents) await recordValues(tx, [{ cardId: p.cardId, valueCents: p.toCents }], 'admin_edit');
      await tx
        .update(cardValueProposals)
        .set({ status: 'approved', decidedBy: actor.actorId, decidedAt: new Date() })
        .where(eq(cardValueProposals.id, id));
      await audit(tx, {
        actorId: actor.actorId,
        ip: actor.ip,
        action: 'catalog.value_proposal.approve',
        targetType: 'card',
        targetId: p.cardId,
        before: { valueCents: card.valueCents },
        after: { valueCents: p.toCents, proposalId: id, proposedBy: p.proposedBy },
      });
    }),
  );
  return (await proposals(db, eq(cardValueProposals.id, id), 1))[0]!;
}

/** The owner rejects: the card keeps its value. */
export async function rejectValueProposal(db: Db, actor: ActorCtx, id: string, note: string): Promise<ValueProposal> {
  await db.transaction(async (tx) => {
    const p = await lockPending(tx, id);
    await tx
      .update(cardValueProposals)
      .set({ status: 'rejected', decidedBy: actor.actorId, decidedAt: new Date(), decisionNote: note })
      .where(eq(cardValueProposals.id, id));
    await audit(tx, {
      actorId: actor.actorId,
      ip: actor.ip,
      action: 'catalog.value_proposal.reject',
      targetType: 'card',
      targetId: p.cardId,
      before: { proposedCents: p.toCents, proposalId: id },
      after: { note },
    });
  });
  return (await proposals(db, eq(cardValueProposals.id, id), 1))[0]!;
}
