import { afterCommit } from '../../db/after-commit.ts';
import { accountsOf, ownRecordError } from '../audit/duties.ts';
import type { SystemOrActorCtx } from '../../http/types.ts';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { CreateDropInput, DropPrizeInput, UpdateDropInput } from '../../../shared/contracts/drops.ts';
import { rowsOf, type DbOrTx } from '../../db/client.ts';
import { cards } from '../catalog/tables.ts';
import { uploads } from '../uploads/tables.ts';
import { dropEntries, dropPrizes, drops } from '../../db/schema/drops.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { audit } from '../audit/service.ts';
import { releaseReserved, reserveStock } from '../inventory/service.ts';
import { plural } from '../../../shared/words.ts';
import { type DropRow, dropRow, dropSummary } from './read.ts';

/**
 * Daily drops (issue 16), split by use case: scheduling (create, update, cancel — here),
 * read.ts (what anyone may read and the back office's lists), entering.ts (a collector enters),
 * templates.ts (recurring drops' templates), lifecycle.ts (open, close, draw, templates' runs).
 */

export async function assertUpload(db: DbOrTx, key: string | null | undefined) {
  if (!key) return;
  const [u] = await db.select({ key: uploads.key }).from(uploads).where(eq(uploads.key, key));
  if (!u) throw badRequest('This image was not uploaded here.', { imageKey: ['Upload the image first.'] });
}

export async function assertCards(db: DbOrTx, prizes: readonly DropPrizeInput[]) {
  const ids = prizes.map((p) => p.cardId);
  const found = await db.select({ id: cards.id, archivedAt: cards.archivedAt }).from(cards).where(inArray(cards.id, ids));
  const missing = prizes.findIndex((p) => !found.some((f) => f.id === p.cardId && !f.archivedAt));
  if (missing >= 0) throw badRequest('A prize card is not in the catalog.', { [`prizes.${missing}.cardId`]: ['No such card (or it is archived).'] });
}

/** Takes the prizes from stock for the drop, or 409 out_of_stock naming the card short of it. */
async function reservePrizes(tx: DbOrTx, dropId: string, prizes: readonly DropPrizeInput[], actorId: string | null) {
  const ok = await reserveStock(tx, prizes, { actorId, referenceType: 'drop', referenceId: dropId });
  if (ok) return;
  const stock = await tx.select({ id: cards.id, name: cards.name, stock: cards.stock }).from(cards).where(inArray(cards.id, prizes.map((p) => p.cardId)));
  const short = prizes.map((p) => ({ p, c: stock.find((s) => s.id === p.cardId) })).find(({ p, c }) => !c || c.stock < p.quantity);
  throw conflict(
    short?.c
      ? `Not enough stock of ${short.c.name}: ${short.c.stock} left, the drop needs ${short.p.quantity}. Nothing was scheduled.`
      : 'A prize card has no stock left. Nothing was scheduled.',
    'out_of_stock',
  );
}

async function insertPrizes(tx: DbOrTx, dropId: string, prizes: readonly DropPrizeInput[]) {
  await tx.insert(dropPrizes).values(prizes.map((p, position) => ({ dropId, cardId: p.cardId, quantity: p.quantity, position })));
}

function assertClosesInFuture(closesAt: Date) {
  if (closesAt.getTime() <= Date.now()) throw badRequest('The closing time has already passed.', { closesAt: ['Choose a closing time in the future.'] });
}

/** Schedules a drop: its prizes leave stock now (409 out_of_stock if any is short), audited. */
export async function createDrop(tx: DbOrTx, ctx: SystemOrActorCtx, input: CreateDropInput, templateId: string | null = null): Promise<string> {
  const opensAt = new Date(input.opensAt);
  const closesAt = new Date(input.closesAt);
  assertClosesInFuture(closesAt);
  await assertUpload(tx, input.imageKey);
  await assertCards(tx, input.prizes);
  const [row] = await tx
    .insert(drops)
    .values({
      title: input.title,
      description: input.description,
      imageKey: input.imageKey,
      opensAt,
      closesAt,
      winnerCount: input.winnerCount,
      requireVerifiedEmail: input.requireVerifiedEmail,
      minAccountAgeDays: input.minAccountAgeDays,
      templateId,
      createdBy: ctx.actorId,
    })
    .returning();
  await insertPrizes(tx, row!.id, input.prizes);
  await reservePrizes(tx, row!.id, input.prizes, ctx.actorId);
  await audit(tx, { actorId: ctx.actorId, ip: ctx.ip, action: 'drop.create', targetType: 'drop', targetId: row!.id, after: { ...input, templateId } });
  return row!.id;
}

async function lockDrop(tx: DbOrTx, id: string): Promise<DropRow> {
  const res = await tx.execute(sql`select id from ${drops} where id = ${id}::uuid for update`);
  if (rowsOf(res).length === 0) throw notFound('There is no such drop.');
  return dropRow(tx, id);
}

function samePrizes(a: readonly DropPrizeInput[], b: readonly DropPrizeInput[]) {
  return a.length === b.length && a.every((p, i) => p.cardId === b[i]!.cardId && p.quantity === b[i]!.quantity);
}

const locked = (message: string) => conflict(message, 'drop_locked');

/**
 * Edits a drop. Scheduled: anything (prizes swapped: the old ones back to stock, the new ones
 * taken). Open: the text and image, and a later close only; the prizes, winner count, opening and
 * eligibility are what entrants entered for (409 drop_locked). Drawn, closed, cancelled: nothing.
 */
/**
 * Separation of duties (ADR 0024): a staff member never edits or cancels a drop that their own
 * account, or one they referred, has entered.
 */
async function assertNotOwnEntries(tx: DbOrTx, ctx: SystemOrActorCtx, dropId: string): Promise<void> {
  if (!ctx.actorId) return;
  const linked = [...(await accountsOf(tx, ctx.actorId))];
  const [mine] = await tx
    .select({ id: dropEntries.id })
    .from(dropEntries)
    .where(and(eq(dropEntries.dropId, dropId), inArray(dropEntries.userId, linked)))
    .limit(1);
  if (mine) throw ownRecordError('change this drop: an account you referred has entered it');
}

export async function updateDrop(tx: DbOrTx, ctx: SystemOrActorCtx, id: string, patch: UpdateDropInput): Promise<void> {
  const before = await lockDrop(tx, id);
  await assertNotOwnEntries(tx, ctx, id);
  const prizesBefore = (await tx.select().from(dropPrizes).where(eq(dropPrizes.dropId, id)).orderBy(asc(dropPrizes.position))).map((p) => ({
    cardId: p.cardId,
    quantity: p.quantity,
  }));
  if (before.status !== 'scheduled' && before.status !== 'open') {
    throw locked(`This drop is ${before.status}; it can no longer be edited.`);
  }
  const opensAt = patch.opensAt ? new Date(patch.opensAt) : before.opensAt;
  const closesAt = patch.closesAt ? new Date(patch.closesAt) : before.closesAt;
  const winnerCount = patch.winnerCount ?? before.winnerCount;
  const prizes = patch.prizes ?? prizesBefore;
  if (before.status === 'open') {
    const changed: string[] = [];
    if (patch.opensAt && opensAt.getTime() !== before.opensAt.getTime()) changed.push('opening time');
    if (patch.winnerCount !== undefined && patch.winnerCount !== before.winnerCount) changed.push('winner count');
    if (patch.prizes && !samePrizes(patch.prizes, prizesBefore)) changed.push('prizes');
    if (patch.requireVerifiedEmail !== undefined && patch.requireVerifiedEmail !== before.requireVerifiedEmail) changed.push('eligibility');
    if (patch.minAccountAgeDays !== undefined && patch.minAccountAgeDays !== before.minAccountAgeDays) changed.push('eligibility');
    if (changed.length) throw locked(`This drop is open: its ${[...new Set(changed)].join(', ')} can no longer change. It may only be extended.`);
    if (closesAt < before.closesAt) throw locked('This drop is open: it may be extended, not shortened.');
  }
  if (closesAt <= opensAt) throw badRequest('The drop must close after it opens.', { closesAt: ['The drop must close after it opens.'] });
  const units = prizes.reduce((n, p) => n + p.quantity, 0);
  if (winnerCount > units) throw badRequest('More winners than prizes.', { winnerCount: [`More winners than prizes: ${plural(units, 'prize card')} for ${plural(winnerCount, 'winner')}.`] });
  if (patch.closesAt) assertClosesInFuture(closesAt);
  await assertUpload(tx, patch.imageKey);
  if (patch.prizes && !samePrizes(patch.prizes, prizesBefore)) {
    await assertCards(tx, patch.prizes);
    await releaseReserved(tx, prizesBefore, { actorId: ctx.actorId, referenceType: 'drop', referenceId: id });
    await tx.delete(dropPrizes).where(eq(dropPrizes.dropId, id));
    await insertPrizes(tx, id, patch.prizes);
    await reservePrizes(tx, id, patch.prizes, ctx.actorId);
  }
  await tx
    .update(drops)
    .set({
      title: patch.title ?? before.title,
      description: patch.description ?? before.description,
      imageKey: patch.imageKey === undefined ? before.imageKey : patch.imageKey,
      opensAt,
      closesAt,
      winnerCount,
      requireVerifiedEmail: patch.requireVerifiedEmail ?? before.requireVerifiedEmail,
      minAccountAgeDays: patch.minAccountAgeDays ?? before.minAccountAgeDays,
      updatedAt: sql`now()`,
    })
    .where(eq(drops.id, id));
  await audit(tx, {
    actorId: ctx.actorId,
    ip: ctx.ip,
    action: 'drop.update',
    targetType: 'drop',
    targetId: id,
    before: { ...dropSummary(before), prizes: prizesBefore },
    after: patch,
  });
}


/** Cancels a drop before its draw: its prizes go back to stock; entries stay, undrawn. */
export async function cancelDrop(tx: DbOrTx, ctx: SystemOrActorCtx, id: string): Promise<void> {
  const before = await lockDrop(tx, id);
  await assertNotOwnEntries(tx, ctx, id);
  if (before.status !== 'scheduled' && before.status !== 'open') {
    throw locked(`This drop is ${before.status}; only a scheduled or open drop can be cancelled.`);
  }
  const prizes = await tx.select().from(dropPrizes).where(eq(dropPrizes.dropId, id));
  await releaseReserved(tx, prizes, { actorId: ctx.actorId, referenceType: 'drop', referenceId: id });
  await tx.update(drops).set({ status: 'cancelled', cancelledAt: sql`now()`, updatedAt: sql`now()` }).where(eq(drops.id, id));
  await audit(tx, { actorId: ctx.actorId, ip: ctx.ip, action: 'drop.cancel', targetType: 'drop', targetId: id, before: dropSummary(before), after: { status: 'cancelled' } });
  await afterCommit(tx, { topic: 'public', type: 'drop.cancelled', data: { dropId: id } });
}
