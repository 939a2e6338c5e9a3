import { isOwnAccount } from '../audit/duties.ts';
import type { ActorCtx } from '../../http/types.ts';
import { and, count, desc, eq, ilike, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  STATUS_LABEL,
  type AdminOwnedCard,
  type AdminOwnedList,
  type adminOwnedQuerySchema,
  type grantCardSchema,
} from '../../../shared/contracts/collection.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { user } from '../auth/tables.ts';
import { cardClasses, cards } from '../catalog/tables.ts';
import { ownedCards } from '../inventory/tables.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { audit } from '../audit/service.ts';
import { createCopy, moveCopies } from '../inventory/service.ts';
import { getDefaultRateBp } from '../buyback/rates.ts';
import { lookRefs } from '../catalog/look-refs.ts';
import type { Actor } from '../../http/types.ts';
import { assertWithinAdminLimits, selfDealingError } from '../wallet/adjust-policy.ts';
import { ownedCardColumns, ownedCardDto, type OwnedCardRow } from '../collection/service.ts';
import { likePattern } from '../../lib/like.ts';

/**
 * Owned cards across every user, for /admin/owned: list, grant a copy from stock, revoke one back
 * to stock. Grant and revoke move stock and the owned card in one transaction, write a stock
 * adjustment and the audit log, each with the admin's reason.
 */

export interface AdminCtx extends ActorCtx {
  /** Grants are held to the admin adjustment limits (the owner is not). */
  role: Actor['role'];
  currency: string;
}

function ownerColumns(defaultRateBp: number) {
  return { ...ownedCardColumns(defaultRateBp), ownerUsername: user.username, ownerEmail: user.email };
}

function adminDto(r: OwnedCardRow & { ownerUsername: string | null; ownerEmail: string | null }): AdminOwnedCard {
  return {
    ...ownedCardDto(r),
    ownerId: r.ownerId,
    ownerUsername: r.ownerUsername,
    ownerEmail: r.ownerEmail,
    stock: r.stock,
  };
}

export async function listOwned(db: DbOrTx, q: z.output<typeof adminOwnedQuerySchema>): Promise<AdminOwnedList> {
  const defaultRateBp = getDefaultRateBp();
  const where = and(
    q.status === 'all' ? undefined : eq(ownedCards.status, q.status),
    q.classId ? eq(cards.classId, q.classId) : undefined,
    q.cardId ? eq(ownedCards.cardId, q.cardId) : undefined,
    q.card ? ilike(cards.name, likePattern(q.card)) : undefined,
    q.ownerId ? eq(ownedCards.ownerId, q.ownerId) : undefined,
    q.owner ? or(ilike(user.username, likePattern(q.owner)), ilike(user.email, likePattern(q.owner))) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select(ownerColumns(defaultRateBp))
      .from(ownedCards)
      .innerJoin(cards, eq(cards.id, ownedCards.cardId))
      .innerJoin(cardClasses, eq(cardClasses.id, cards.classId))
      .leftJoin(user, eq(user.id, ownedCards.ownerId))
      .where(where)
      .orderBy(desc(ownedCards.acquiredAt), desc(ownedCards.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db
      .select({ n: count() })
      .from(ownedCards)
      .innerJoin(cards, eq(cards.id, ownedCards.cardId))
      .leftJoin(user, eq(user.id, ownedCards.ownerId))
      .where(where),
  ]);
  const items = rows.map(adminDto);
  return {
    items,
    total: Number(total?.n ?? 0),
    page: q.page,
    pageSize: q.pageSize,
    refs: await lookRefs(db, items.map((i) => i.card)),
  };
}

async function getAdminOwned(db: DbOrTx, id: string): Promise<AdminOwnedCard> {
  const [row] = await db
    .select(ownerColumns(getDefaultRateBp()))
    .from(ownedCards)
    .innerJoin(cards, eq(cards.id, ownedCards.cardId))
    .innerJoin(cardClasses, eq(cardClasses.id, cards.classId))
    .leftJoin(user, eq(user.id, ownedCards.ownerId))
    .where(eq(ownedCards.id, id));
  if (!row) throw notFound('No owned card with this id.');
  return adminDto(row);
}

/** A user by id, username or email (case-insensitive). */
async function findUser(db: DbOrTx, who: string) {
  const needle = who.trim();
  const [u] = await db
    .select({ id: user.id, username: user.username, email: user.email })
    .from(user)
    .where(or(eq(user.id, needle), sql`lower(${user.username}) = lower(${needle})`, sql`lower(${user.email}) = lower(${needle})`))
    .limit(1);
  if (!u) {
    throw new AppError(404, 'user_not_found', 'No user with this id, username or email.', { user: ['No user found. Check the spelling.'] });
  }
  return u;
}

export async function grantCard(tx: Tx, ctx: AdminCtx, input: z.output<typeof grantCardSchema>) {
  const target = await findUser(tx, input.user);
  // Granting to oneself and selling the card back would be a self-credit by another name.
  // An account they referred counts as theirs too (ADR 0024).
  if (await isOwnAccount(tx, ctx.actorId, target.id)) throw selfDealingError('grant a card to');
  // The inventory's conditional take: never below zero, even when two grants race for the last copy.
  const granted = await createCopy(tx, 'grant', {
    cardId: input.cardId,
    ownerId: target.id,
    actorId: ctx.actorId,
    note: `Granted to ${target.username}: ${input.reason}`,
  });
  if (!granted) {
    const [exists] = await tx.select({ id: cards.id, name: cards.name }).from(cards).where(eq(cards.id, input.cardId));
    if (!exists) throw new AppError(404, 'not_found', 'No card with this id.', { cardId: ['Pick a card from the catalog.'] });
    throw new AppError(409, 'out_of_stock', `${exists.name} is out of stock: add stock on the card's page before granting it.`, {
      cardId: ['Out of stock.'],
    });
  }
  const { card } = granted;
  const owned = { id: granted.ownedCardId };
  // Thrown after the take on purpose: the transaction rolls it back.
  await assertWithinAdminLimits(tx, { userId: ctx.actorId, role: ctx.role }, card.valueCents, ctx.currency, 'grant');
  await audit(tx, {
    actorId: ctx.actorId,
    action: 'owned.grant',
    targetType: 'owned_card',
    targetId: owned.id,
    before: { stock: card.stock + 1 },
    after: { cardId: card.id, cardName: card.name, ownerId: target.id, stock: card.stock, valueCents: card.valueCents, reason: input.reason },
    ip: ctx.ip,
  });
  return { ownedCard: await getAdminOwned(tx, owned.id), stock: card.stock };
}

export async function revokeCard(tx: Tx, ctx: AdminCtx, ownedCardId: string, reason: string) {
  // The owner never changes, so reading it first only names them in the stock history.
  const [pre] = await tx.select({ ownerId: ownedCards.ownerId }).from(ownedCards).where(eq(ownedCards.id, ownedCardId));
  if (!pre) throw notFound('No owned card with this id.');
  const [row] = await moveCopies(tx, 'revoke', {
    ids: [ownedCardId],
    actorId: ctx.actorId,
    referenceType: 'owned_card',
    referenceId: ownedCardId,
    note: `Revoked from ${pre.ownerId}: ${reason}`,
    refused: (found) =>
      new AppError(
        409,
        'not_in_vault',
        `This card is ${STATUS_LABEL[found[0]?.status ?? 'revoked'].toLowerCase()}: only cards in a vault can be revoked.`,
      ),
  });
  if (!row) throw new Error('revoke moved nothing');
  // Thrown after the move on purpose: the transaction rolls it back, and the check sees the
  // owner of the very row that was locked.
  if (await isOwnAccount(tx, ctx.actorId, row.ownerId)) throw selfDealingError('revoke a card from');
  const [card] = await tx.select({ stock: cards.stock, name: cards.name }).from(cards).where(eq(cards.id, row.cardId));
  await audit(tx, {
    actorId: ctx.actorId,
    action: 'owned.revoke',
    targetType: 'owned_card',
    targetId: row.id,
    before: { status: 'in_vault', ownerId: row.ownerId, stock: card!.stock - 1 },
    after: { status: 'revoked', cardId: row.cardId, cardName: card!.name, stock: card!.stock, reason },
    ip: ctx.ip,
  });
  return { ownedCard: await getAdminOwned(tx, row.id), stock: card!.stock };
}
