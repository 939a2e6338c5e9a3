import type { SystemOrActorCtx } from '../../http/types.ts';
import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { cmp } from '../../../shared/fairness.ts';
import type { z } from 'zod';
import type {
  AdminDrop,
  CreateDropInput,
  CreateDropTemplateInput,
  DropDetail,
  DropEntry,
  DropPrizeInput,
  DropProofDto,
  DropStatus,
  DropTemplate,
  PublicDrop,
  UpdateDropInput,
  UpdateDropTemplateInput,
  adminDropListQuerySchema,
  dropListQuerySchema,
} from '../../../shared/contracts/drops.ts';
import type { LookRefs, PublicCard } from '../../../shared/contracts/catalog.ts';
import { rowsOf, type Db, type DbOrTx } from '../../db/client.ts';
import { user } from '../auth/tables.ts';
import { cardClasses, cards } from '../catalog/tables.ts';
import { uploads } from '../uploads/tables.ts';
import { dropEntries, dropPrizes, dropTemplates, dropWinners, drops } from '../../db/schema/drops.ts';
import type { Deps } from '../../deps.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import { audit } from '../audit/service.ts';
import { isBanActive } from '../auth/auth.ts';
import { lookRefs } from '../catalog/look-refs.ts';
import { releaseReserved, reserveStock } from '../inventory/service.ts';
import { activeSelfExclusion } from '../responsible-play/service.ts';

/**
 * Daily drops (issue 16): admin scheduling, entering, and what anyone may read. The lifecycle
 * (open, close, draw, recurring templates) is in lifecycle.ts.
 */

type DropRow = typeof drops.$inferSelect;

const DAY_MS = 86_400_000;


/** What a prize card looks like to the web: the catalog's public card (its look resolved). */
const publicCardColumns = {
  id: cards.id,
  name: cards.name,
  setName: cards.setName,
  number: cards.number,
  valueCents: cards.valueCents,
  imageKey: cards.imageKey,
  classId: cards.classId,
  architectId: cards.architectId,
  textureId: sql<string | null>`coalesce(${cards.textureId}, ${cardClasses.defaultTextureId})`,
};

async function publicCards(db: DbOrTx, ids: string[]): Promise<Map<string, PublicCard>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select(publicCardColumns)
    .from(cards)
    .innerJoin(cardClasses, eq(cardClasses.id, cards.classId))
    .where(inArray(cards.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, r as PublicCard]));
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Drops as the public (and admin) DTOs, with their prizes, entry counts and winners, in one batch. */
async function dropDtos(db: DbOrTx, rows: DropRow[]): Promise<{ items: Array<PublicDrop & { row: DropRow }>; refs: LookRefs }> {
  if (rows.length === 0) return { items: [], refs: { classes: [], architects: [], textures: [] } };
  const ids = rows.map((r) => r.id);
  const [prizes, counts, winners] = await Promise.all([
    db.select().from(dropPrizes).where(inArray(dropPrizes.dropId, ids)).orderBy(asc(dropPrizes.position)),
    db
      .select({ dropId: dropEntries.dropId, n: count() })
      .from(dropEntries)
      .where(inArray(dropEntries.dropId, ids))
      .groupBy(dropEntries.dropId),
    db
      .select({ dropId: dropWinners.dropId, place: dropWinners.place, cardId: dropWinners.cardId, entryId: dropEntries.publicId, username: user.username })
      .from(dropWinners)
      .innerJoin(dropEntries, eq(dropEntries.id, dropWinners.entryId))
      .innerJoin(user, eq(user.id, dropWinners.userId))
      .where(inArray(dropWinners.dropId, ids))
      .orderBy(asc(dropWinners.place)),
  ]);
  const cardMap = await publicCards(db, [...prizes.map((p) => p.cardId), ...winners.map((w) => w.cardId)]);
  const countMap = new Map(counts.map((c) => [c.dropId, Number(c.n)]));
  const items = rows.map((r) => {
    const closed = r.status === 'closed';
    return {
      row: r,
      id: r.id,
      title: r.title,
      description: r.description,
      imageKey: r.imageKey,
      status: r.status,
      opensAt: r.opensAt.toISOString(),
      closesAt: r.closesAt.toISOString(),
      winnerCount: r.winnerCount,
      requireVerifiedEmail: r.requireVerifiedEmail,
      minAccountAgeDays: r.minAccountAgeDays,
      entryCount: r.entryCount ?? countMap.get(r.id) ?? 0,
      commitment: r.commitment,
      // The seed is the secret of the draw: out only once the draw is done.
      seed: closed ? r.seed : null,
      entryListHash: closed ? r.entryListHash : null,
      drawnAt: iso(r.drawnAt),
      prizes: prizes.filter((p) => p.dropId === r.id).map((p) => ({ card: cardMap.get(p.cardId)!, quantity: p.quantity })),
      winners: winners
        .filter((w) => w.dropId === r.id)
        .map((w) => ({ place: w.place, entryId: w.entryId, username: w.username, card: cardMap.get(w.cardId)! })),
    };
  });
  const refs = await lookRefs(db, [...cardMap.values()]);
  return { items, refs };
}

const strip = <T extends { row: DropRow }>({ row: _row, ...rest }: T): Omit<T, 'row'> => rest;

function adminDto(d: PublicDrop & { row: DropRow }): AdminDrop {
  const r = d.row;
  return {
    ...strip(d),
    templateId: r.templateId,
    createdBy: r.createdBy,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    cancelledAt: iso(r.cancelledAt),
  };
}

// ───────────────────────── public ─────────────────────────

export async function listDrops(db: Db, q: z.output<typeof dropListQuerySchema>) {
  const where =
    q.when === 'past' ? eq(drops.status, 'closed') : inArray(drops.status, ['scheduled', 'open', 'drawing'] as DropStatus[]);
  const order = q.when === 'past' ? [desc(drops.drawnAt), desc(drops.closesAt)] : [asc(drops.closesAt), asc(drops.id)];
  const [rows, [{ total } = { total: 0 }]] = await Promise.all([
    db
      .select()
      .from(drops)
      .where(where)
      .orderBy(...order)
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ total: count() }).from(drops).where(where),
  ]);
  const { items, refs } = await dropDtos(db, rows);
  return { items: items.map(strip), total: Number(total), page: q.page, pageSize: q.pageSize, refs };
}

async function dropRow(db: DbOrTx, id: string): Promise<DropRow> {
  const [row] = await db.select().from(drops).where(eq(drops.id, id));
  if (!row) throw notFound('There is no such drop.');
  return row;
}

/** A public drop page: cancelled drops are found too (their page says so). */
export async function getDropDetail(db: Db, id: string, userId: string | null): Promise<DropDetail> {
  const row = await dropRow(db, id);
  const { items, refs } = await dropDtos(db, [row]);
  let myEntry: DropEntry | null = null;
  let myWin: DropDetail['myWin'] = null;
  if (userId) {
    myEntry = await findEntry(db, id, userId);
    const [w] = await db
      .select({ place: dropWinners.place, ownedCardId: dropWinners.ownedCardId })
      .from(dropWinners)
      .where(and(eq(dropWinners.dropId, id), eq(dropWinners.userId, userId)));
    myWin = w ?? null;
  }
  return { drop: strip(items[0]!), refs, myEntry, myWin };
}

async function findEntry(db: DbOrTx, dropId: string, userId: string): Promise<DropEntry | null> {
  const [e] = await db
    .select({ publicId: dropEntries.publicId, createdAt: dropEntries.createdAt })
    .from(dropEntries)
    .where(and(eq(dropEntries.dropId, dropId), eq(dropEntries.userId, userId)));
  return e ? { dropId, entryId: e.publicId, createdAt: e.createdAt.toISOString() } : null;
}

export async function myEntry(db: Db, dropId: string, userId: string): Promise<DropEntry> {
  await dropRow(db, dropId);
  const e = await findEntry(db, dropId, userId);
  if (!e) throw notFound('You have not entered this drop.');
  return e;
}

export async function entryCount(db: DbOrTx, dropId: string): Promise<number> {
  const [r] = await db.select({ n: count() }).from(dropEntries).where(eq(dropEntries.dropId, dropId));
  return Number(r?.n ?? 0);
}

/** A public id for the entry list: 16 characters of base64url, random (ENTRY_ID_PATTERN). */
export const newEntryId = () => randomBytes(12).toString('base64url');

function notOpen(row: DropRow, now: Date): AppError | null {
  if (row.status === 'scheduled' || (row.status === 'open' && row.opensAt > now)) {
    return conflict(`This drop opens at ${row.opensAt.toISOString()}; enter it then.`, 'drop_not_open');
  }
  if (row.status === 'cancelled') return conflict('This drop was cancelled.', 'drop_cancelled');
  if (row.status !== 'open' || row.closesAt <= now) return conflict('This drop has closed; entries are no longer taken.', 'drop_closed');
  return null;
}

/**
 * One free entry per user per drop. A retry (or twenty at once) finds the entry already made and
 * answers it again: the (drop, user) unique index decides, never a read before the write.
 * The insert holds a share lock on the drop row, so the close (which takes it for update) waits
 * for entries in flight and the entry list it freezes has them all.
 */
export async function enterDrop(deps: Deps, dropId: string, userId: string): Promise<{ entry: DropEntry; created: boolean; entryCount: number }> {
  const { db } = deps;
  const row = await dropRow(db, dropId);
  const existing = await findEntry(db, dropId, userId);
  if (existing) return { entry: existing, created: false, entryCount: await entryCount(db, dropId) };
  const now = new Date();
  const refusal = notOpen(row, now);
  if (refusal) throw refusal;
  await assertEligible(db, row, userId, now);

  const publicId = newEntryId();
  const res = await db.execute(sql`
    with d as (
      select id from ${drops} where id = ${dropId}::uuid and status = 'open' and opens_at <= now() and closes_at > now() for share
    )
    insert into ${dropEntries} ("drop_id", "user_id", "public_id")
    select d.id, ${userId}::text, ${publicId}::text from d
    on conflict ("drop_id", "user_id") do nothing
    returning "public_id", "created_at"`);
  const [inserted] = rowsOf<{ public_id: string; created_at: string | Date }>(res);
  if (!inserted) {
    const again = await findEntry(db, dropId, userId);
    if (again) return { entry: again, created: false, entryCount: await entryCount(db, dropId) };
    throw notOpen(await dropRow(db, dropId), new Date()) ?? conflict('This drop has closed; entries are no longer taken.', 'drop_closed');
  }
  const n = await entryCount(db, dropId);
  await deps.bus.publish('public', 'drop.entries', { dropId, entryCount: n }).catch((err: unknown) => deps.log.warn('drop entry count not published', { err }));
  return { entry: { dropId, entryId: inserted.public_id, createdAt: new Date(inserted.created_at).toISOString() }, created: true, entryCount: n };
}

async function assertEligible(db: DbOrTx, row: DropRow, userId: string, now: Date) {
  const [u] = await db
    .select({ emailVerified: user.emailVerified, createdAt: user.createdAt, banned: user.banned, banExpires: user.banExpires, deletedAt: user.deletedAt, role: user.role })
    .from(user)
    .where(eq(user.id, userId));
  if (!u || u.deletedAt) throw forbidden('This account cannot enter drops.', 'not_eligible');
  // Staff can read the seeds before they are revealed; they never enter.
  if (u.role === 'admin' || u.role === 'owner') throw forbidden('Staff accounts cannot enter drops.', 'staff_not_eligible');
  if (isBanActive({ banned: u.banned, banExpires: u.banExpires }, now.getTime())) {
    throw forbidden('A suspended account cannot enter drops.', 'account_banned');
  }
  if (row.requireVerifiedEmail && !u.emailVerified) {
    throw forbidden('Confirm your email address to enter this drop.', 'email_not_verified');
  }
  if (row.minAccountAgeDays > 0 && now.getTime() - u.createdAt.getTime() < row.minAccountAgeDays * DAY_MS) {
    const from = new Date(u.createdAt.getTime() + row.minAccountAgeDays * DAY_MS);
    throw forbidden(
      `This drop is for accounts at least ${row.minAccountAgeDays} day${row.minAccountAgeDays === 1 ? '' : 's'} old; yours can enter drops from ${from.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
      'account_too_new',
    );
  }
  const ex = await activeSelfExclusion(db, userId, now);
  if (ex) {
    throw forbidden(`You have excluded yourself until ${ex.endsAt.toISOString().slice(0, 16).replace('T', ' ')} UTC, so entering drops is blocked until then.`, 'self_excluded');
  }
}

/** The published proof of a closed drop: enough to recompute the winners with verifyDrop. */
export async function getProof(db: Db, dropId: string): Promise<DropProofDto> {
  const row = await dropRow(db, dropId);
  if (row.status !== 'closed' || !row.seed || !row.commitment || !row.entryListHash || !row.drawnAt) {
    throw conflict('The proof is published when the drop has been drawn.', 'drop_not_drawn');
  }
  const [entries, winners] = await Promise.all([
    frozenEntryIds(db, dropId),
    db
      .select({ place: dropWinners.place, entryId: dropEntries.publicId, username: user.username })
      .from(dropWinners)
      .innerJoin(dropEntries, eq(dropEntries.id, dropWinners.entryId))
      .innerJoin(user, eq(user.id, dropWinners.userId))
      .where(eq(dropWinners.dropId, dropId))
      .orderBy(asc(dropWinners.place)),
  ]);
  return {
    dropId,
    seed: row.seed,
    commitment: row.commitment,
    entryIds: entries,
    entryListHash: row.entryListHash,
    winnerCount: row.winnerCount,
    winners,
    drawnAt: row.drawnAt.toISOString(),
  };
}

/**
 * The entry list as frozen at the draw (the entries marked in_draw then), sorted as the draw sorts
 * it. Entries of accounts suspended or closed by the draw were left out of it (lifecycle.ts).
 */
export async function frozenEntryIds(db: DbOrTx, dropId: string): Promise<string[]> {
  const rows = await db
    .select({ publicId: dropEntries.publicId })
    .from(dropEntries)
    .where(and(eq(dropEntries.dropId, dropId), eq(dropEntries.inDraw, true)));
  return rows.map((r) => r.publicId).sort(cmp);
}

// ───────────────────────── admin ─────────────────────────

export async function dropCounts(db: DbOrTx) {
  const rows = await db.select({ status: drops.status, n: count() }).from(drops).groupBy(drops.status);
  const by = new Map(rows.map((r) => [r.status, Number(r.n)]));
  return {
    upcoming: by.get('scheduled') ?? 0,
    open: by.get('open') ?? 0,
    drawing: by.get('drawing') ?? 0,
    closed: by.get('closed') ?? 0,
    cancelled: by.get('cancelled') ?? 0,
  };
}

export async function listAdminDrops(db: Db, q: z.output<typeof adminDropListQuerySchema>) {
  const where = q.status ? eq(drops.status, q.status) : undefined;
  const [rows, [{ total } = { total: 0 }], counts] = await Promise.all([
    db
      .select()
      .from(drops)
      .where(where)
      .orderBy(desc(drops.opensAt), desc(drops.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ total: count() }).from(drops).where(where),
    dropCounts(db),
  ]);
  const { items, refs } = await dropDtos(db, rows);
  return { items: items.map(adminDto), total: Number(total), page: q.page, pageSize: q.pageSize, counts, refs };
}

export async function getAdminDrop(db: DbOrTx, id: string) {
  const row = await dropRow(db, id);
  const { items, refs } = await dropDtos(db, [row]);
  return { drop: adminDto(items[0]!), refs };
}

/** Who entered a drop, oldest first, with the place each won. */
export async function listAdminEntries(db: Db, dropId: string, page: number, pageSize: number) {
  await dropRow(db, dropId);
  const [rows, [{ total } = { total: 0 }]] = await Promise.all([
    db
      .select({
        entryId: dropEntries.publicId,
        userId: dropEntries.userId,
        username: user.username,
        createdAt: dropEntries.createdAt,
        inDraw: dropEntries.inDraw,
        place: dropWinners.place,
      })
      .from(dropEntries)
      .innerJoin(user, eq(user.id, dropEntries.userId))
      .leftJoin(dropWinners, eq(dropWinners.entryId, dropEntries.id))
      .where(eq(dropEntries.dropId, dropId))
      .orderBy(asc(dropEntries.createdAt), asc(dropEntries.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(dropEntries).where(eq(dropEntries.dropId, dropId)),
  ]);
  return { items: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })), total: Number(total), page, pageSize };
}

async function assertUpload(db: DbOrTx, key: string | null | undefined) {
  if (!key) return;
  const [u] = await db.select({ key: uploads.key }).from(uploads).where(eq(uploads.key, key));
  if (!u) throw badRequest('This image was not uploaded here.', { imageKey: ['Upload the image first.'] });
}

async function assertCards(db: DbOrTx, prizes: readonly DropPrizeInput[]) {
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
export async function updateDrop(tx: DbOrTx, ctx: SystemOrActorCtx, id: string, patch: UpdateDropInput): Promise<void> {
  const before = await lockDrop(tx, id);
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
  if (winnerCount > units) throw badRequest('More winners than prizes.', { winnerCount: [`More winners than prizes: ${units} prize cards for ${winnerCount} winners.`] });
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
    before: { ...summary(before), prizes: prizesBefore },
    after: patch,
  });
}

function summary(r: DropRow) {
  return {
    title: r.title,
    description: r.description,
    imageKey: r.imageKey,
    status: r.status,
    opensAt: r.opensAt.toISOString(),
    closesAt: r.closesAt.toISOString(),
    winnerCount: r.winnerCount,
    requireVerifiedEmail: r.requireVerifiedEmail,
    minAccountAgeDays: r.minAccountAgeDays,
  };
}

/** Cancels a drop before its draw: its prizes go back to stock; entries stay, undrawn. */
export async function cancelDrop(tx: DbOrTx, ctx: SystemOrActorCtx, id: string): Promise<void> {
  const before = await lockDrop(tx, id);
  if (before.status !== 'scheduled' && before.status !== 'open') {
    throw locked(`This drop is ${before.status}; only a scheduled or open drop can be cancelled.`);
  }
  const prizes = await tx.select().from(dropPrizes).where(eq(dropPrizes.dropId, id));
  await releaseReserved(tx, prizes, { actorId: ctx.actorId, referenceType: 'drop', referenceId: id });
  await tx.update(drops).set({ status: 'cancelled', cancelledAt: sql`now()`, updatedAt: sql`now()` }).where(eq(drops.id, id));
  await audit(tx, { actorId: ctx.actorId, ip: ctx.ip, action: 'drop.cancel', targetType: 'drop', targetId: id, before: summary(before), after: { status: 'cancelled' } });
}

// ───────────────────────── templates ─────────────────────────

function templateDto(r: typeof dropTemplates.$inferSelect): DropTemplate {
  return {
    id: r.id,
    title: r.title,
    description: r.description,
    imageKey: r.imageKey,
    openTime: r.openTime,
    durationMinutes: r.durationMinutes,
    winnerCount: r.winnerCount,
    requireVerifiedEmail: r.requireVerifiedEmail,
    minAccountAgeDays: r.minAccountAgeDays,
    prizes: r.prizes,
    active: r.active,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export async function listTemplates(db: Db): Promise<DropTemplate[]> {
  return (await db.select().from(dropTemplates).orderBy(asc(dropTemplates.openTime), asc(dropTemplates.createdAt))).map(templateDto);
}

async function templateRow(db: DbOrTx, id: string) {
  const [r] = await db.select().from(dropTemplates).where(eq(dropTemplates.id, id));
  if (!r) throw notFound('There is no such recurring drop.');
  return r;
}

export async function getTemplate(db: Db, id: string) {
  return templateDto(await templateRow(db, id));
}

export async function createTemplate(tx: DbOrTx, ctx: SystemOrActorCtx, input: CreateDropTemplateInput): Promise<DropTemplate> {
  await assertUpload(tx, input.imageKey);
  await assertCards(tx, input.prizes);
  const [row] = await tx.insert(dropTemplates).values({ ...input, createdBy: ctx.actorId }).returning();
  await audit(tx, { actorId: ctx.actorId, ip: ctx.ip, action: 'drop.template.create', targetType: 'drop_template', targetId: row!.id, after: input });
  return templateDto(row!);
}

export async function updateTemplate(tx: DbOrTx, ctx: SystemOrActorCtx, id: string, patch: UpdateDropTemplateInput): Promise<DropTemplate> {
  const before = await templateRow(tx, id);
  const prizes = patch.prizes ?? before.prizes;
  const winnerCount = patch.winnerCount ?? before.winnerCount;
  const units = prizes.reduce((n, p) => n + p.quantity, 0);
  if (winnerCount > units) throw badRequest('More winners than prizes.', { winnerCount: [`More winners than prizes: ${units} prize cards for ${winnerCount} winners.`] });
  await assertUpload(tx, patch.imageKey);
  if (patch.prizes) await assertCards(tx, patch.prizes);
  const [row] = await tx
    .update(dropTemplates)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(dropTemplates.id, id))
    .returning();
  await audit(tx, { actorId: ctx.actorId, ip: ctx.ip, action: 'drop.template.update', targetType: 'drop_template', targetId: id, before: templateDto(before), after: patch });
  return templateDto(row!);
}

/** Deletes a recurring drop; the drops already scheduled from it stay (their template id is cleared). */
export async function deleteTemplate(tx: DbOrTx, ctx: SystemOrActorCtx, id: string): Promise<void> {
  const before = await templateRow(tx, id);
  await tx.delete(dropTemplates).where(eq(dropTemplates.id, id));
  await audit(tx, { actorId: ctx.actorId, ip: ctx.ip, action: 'drop.template.delete', targetType: 'drop_template', targetId: id, before: templateDto(before), after: null });
}

