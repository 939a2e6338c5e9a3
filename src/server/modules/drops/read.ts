import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import { cmp } from '../../../shared/fairness.ts';
import type { z } from 'zod';
import type {
  AdminDrop,
  DropDetail,
  DropEntry,
  DropProofDto,
  DropStatus,
  PublicDrop,
  adminDropListQuerySchema,
  dropListQuerySchema,
} from '../../../shared/contracts/drops.ts';
import type { LookRefs, PublicCard } from '../../../shared/contracts/catalog.ts';
import { type Db, type DbOrTx } from '../../db/client.ts';
import { user } from '../auth/tables.ts';
import { cardClasses, cards } from '../catalog/tables.ts';
import { effectiveTexture } from '../catalog/cards.ts';
import { dropEntries, dropPrizes, dropWinners, drops } from '../../db/schema/drops.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { lookRefs } from '../catalog/look-refs.ts';

/** Daily drops: what anyone may read (lists, a drop's page, its proof) and the back office's lists. */

export type DropRow = typeof drops.$inferSelect;


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
  textureId: effectiveTexture,
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

/** A drop's terms as the public sees them (and as the audit log records them). */
export function dropSummary(r: DropRow) {
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
      ...dropSummary(r),
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

export async function dropRow(db: DbOrTx, id: string): Promise<DropRow> {
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

export async function findEntry(db: DbOrTx, dropId: string, userId: string): Promise<DropEntry | null> {
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
