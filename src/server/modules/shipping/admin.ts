import { and, asc, count, eq, gte, ilike, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import {
  NEXT_STATUS,
  OPEN_SHIPMENT_STATUSES,
  SHIPMENT_STATUSES,
  type AdminShipment,
  type AdminShipmentList,
  type adminShipmentQuerySchema,
  type AdminUserShipping,
  type PickItem,
  type PickList,
  type ShipmentStatus,
} from '../../../shared/contracts/shipping.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { user } from '../auth/tables.ts';
import { cards } from '../catalog/tables.ts';
import { shipmentCards, shipments, shippingOrigins } from '../../db/schema/shipping.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { likePattern } from '../../lib/like.ts';
import { listAddresses } from './addresses.ts';
import { loadShipment, reference, suggestedRefund, toSummary } from './service.ts';

/** The back office's reads: the queue with counts, one shipment, the pick list, a user's shipping. */

export async function adminShipment(db: DbOrTx, id: string): Promise<AdminShipment> {
  const s = await loadShipment(db, id, { viewer: 'admin' });
  const [row] = await db
    .select({ userId: shipments.userId, username: user.username, email: user.email, feeCents: shipments.feeCents, declaredValueCents: shipments.declaredValueCents, insured: shipments.insured })
    .from(shipments)
    .leftJoin(user, eq(user.id, shipments.userId))
    .where(eq(shipments.id, id));
  return {
    ...s,
    user: { id: row!.userId, username: row!.username ?? null, email: row!.email ?? null },
    suggestedRefundCents: suggestedRefund(row!, 'lost'),
    nextStatus: NEXT_STATUS[s.status] ?? null,
    canResolve: s.status === 'shipped',
  };
}

type Q = z.output<typeof adminShipmentQuerySchema>;

/** Every filter but the status (the counts per status use these). */
function baseWhere(q: Q): SQL[] {
  const conds: SQL[] = [];
  if (q.originId) conds.push(eq(shipments.originId, q.originId));
  if (q.userId) conds.push(eq(shipments.userId, q.userId));
  if (q.minAgeDays !== undefined) conds.push(lte(shipments.createdAt, sql`now() - make_interval(days => ${q.minAgeDays}::int)`));
  if (q.maxAgeDays !== undefined) conds.push(gte(shipments.createdAt, sql`now() - make_interval(days => ${q.maxAgeDays + 1}::int)`));
  if (q.q) {
    const ref = /^SH-?(\d{1,12})$/i.exec(q.q.trim());
    const text = or(ilike(user.username, likePattern(q.q)), ilike(user.email, likePattern(q.q)));
    conds.push(ref ? or(eq(shipments.seq, Number(ref[1])), text)! : text!);
  }
  return conds;
}

export async function listQueue(db: DbOrTx, q: Q): Promise<AdminShipmentList> {
  const base = baseWhere(q);
  const statusCond =
    q.status === 'all' ? undefined : q.status === 'open' ? inArray(shipments.status, [...OPEN_SHIPMENT_STATUSES]) : eq(shipments.status, q.status);
  const where = and(...base, statusCond);
  const [rows, [total], perStatus] = await Promise.all([
    db
      .select({
        s: shipments,
        username: user.username,
        email: user.email,
        originName: shippingOrigins.name,
        ageDays: sql<number>`floor(extract(epoch from now() - ${shipments.createdAt}) / 86400)::int`,
        picked: sql<number>`(select count(*) from ${shipmentCards} sc where sc.shipment_id = ${shipments.id} and sc.picked_at is not null)::int`,
      })
      .from(shipments)
      .leftJoin(user, eq(user.id, shipments.userId))
      .leftJoin(shippingOrigins, eq(shippingOrigins.id, shipments.originId))
      .where(where)
      .orderBy(asc(shipments.createdAt), asc(shipments.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ n: count() }).from(shipments).leftJoin(user, eq(user.id, shipments.userId)).where(where),
    db
      .select({ status: shipments.status, n: count() })
      .from(shipments)
      .leftJoin(user, eq(user.id, shipments.userId))
      .where(and(...base))
      .groupBy(shipments.status),
  ]);
  const counts = Object.fromEntries(SHIPMENT_STATUSES.map((s) => [s, 0])) as Record<ShipmentStatus, number>;
  for (const r of perStatus) counts[r.status] = Number(r.n);
  return {
    items: rows.map((r) => ({
      ...toSummary(r.s),
      user: { id: r.s.userId, username: r.username ?? null, email: r.email ?? null },
      origin: r.s.originId ? { id: r.s.originId, name: r.originName ?? '' } : null,
      ageDays: Number(r.ageDays),
      pickedCount: Number(r.picked),
    })),
    total: Number(total?.n ?? 0),
    page: q.page,
    pageSize: q.pageSize,
    counts,
  };
}

export async function pickList(db: DbOrTx, originId?: string): Promise<PickList> {
  const rows = await db
    .select({
      shipmentCardId: shipmentCards.id,
      shipmentId: shipments.id,
      seq: shipments.seq,
      shipmentStatus: shipments.status,
      ownedCardId: shipmentCards.ownedCardId,
      cardId: shipmentCards.cardId,
      name: cards.name,
      setName: cards.setName,
      number: cards.number,
      pickedAt: shipmentCards.pickedAt,
      requestedAt: shipments.createdAt,
      originId: shipmentCards.originId,
      originName: shippingOrigins.name,
      shelfLocation: shipmentCards.shelfLocation,
    })
    .from(shipmentCards)
    .innerJoin(shipments, eq(shipments.id, shipmentCards.shipmentId))
    .innerJoin(cards, eq(cards.id, shipmentCards.cardId))
    .leftJoin(shippingOrigins, eq(shippingOrigins.id, shipmentCards.originId))
    .where(and(inArray(shipments.status, [...OPEN_SHIPMENT_STATUSES]), originId ? eq(shipmentCards.originId, originId) : undefined))
    .orderBy(asc(shippingOrigins.name), asc(shipmentCards.shelfLocation), asc(cards.setName), asc(cards.number), asc(shipments.createdAt))
    .limit(5000);
  const groups = new Map<string, PickList['groups'][number]>();
  let picked = 0;
  for (const r of rows) {
    const key = `${r.originId ?? ''}\u0000${r.shelfLocation}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { origin: r.originId ? { id: r.originId, name: r.originName ?? '' } : null, shelfLocation: r.shelfLocation, items: [] }));
    const item: PickItem = {
      shipmentCardId: r.shipmentCardId,
      shipmentId: r.shipmentId,
      shipmentReference: reference(r.seq),
      shipmentStatus: r.shipmentStatus,
      ownedCardId: r.ownedCardId,
      cardId: r.cardId,
      name: r.name,
      setName: r.setName,
      number: r.number,
      picked: r.pickedAt !== null,
      pickedAt: r.pickedAt?.toISOString() ?? null,
      requestedAt: r.requestedAt.toISOString(),
    };
    if (item.picked) picked++;
    g.items.push(item);
  }
  return { groups: [...groups.values()], total: rows.length, picked };
}

/** Checks a card of an open shipment off the pick list (or back on). */
export async function setPicked(tx: Tx, shipmentCardId: string, actorId: string, picked: boolean): Promise<PickItem> {
  const [row] = await tx
    .select({ sc: shipmentCards, status: shipments.status })
    .from(shipmentCards)
    .innerJoin(shipments, eq(shipments.id, shipmentCards.shipmentId))
    .where(eq(shipmentCards.id, shipmentCardId))
    .for('update', { of: shipmentCards });
  if (!row) throw notFound('No such card on the pick list.');
  if (!(OPEN_SHIPMENT_STATUSES as readonly string[]).includes(row.status)) {
    throw new AppError(409, 'invalid_shipment_state', 'This shipment is no longer open: its cards are off the pick list.');
  }
  await tx
    .update(shipmentCards)
    .set(picked ? { pickedAt: row.sc.pickedAt ?? new Date(), pickedBy: row.sc.pickedBy ?? actorId } : { pickedAt: null, pickedBy: null })
    .where(eq(shipmentCards.id, shipmentCardId));
  const list = await pickList(tx);
  const item = list.groups.flatMap((g) => g.items).find((i) => i.shipmentCardId === shipmentCardId);
  return item!;
}

export async function userShipping(db: DbOrTx, userId: string): Promise<AdminUserShipping> {
  const [u] = await db.select({ id: user.id }).from(user).where(eq(user.id, userId));
  if (!u) throw notFound('No such user.');
  const [addresses, rows] = await Promise.all([
    listAddresses(db, userId, { archived: true }),
    db.select().from(shipments).where(eq(shipments.userId, userId)).orderBy(sql`${shipments.createdAt} desc`).limit(200),
  ]);
  return { addresses, shipments: rows.map(toSummary) };
}
