import { isOwnAccount, ownRecordError } from '../audit/duties.ts';
import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { STATUS_LABEL } from '../../../shared/contracts/collection.ts';
import {
  CARRIERS,
  MAX_SHIPMENT_CARDS,
  NEXT_STATUS,
  OPEN_SHIPMENT_STATUSES,
  SHIPMENT_STATUS_LABEL,
  shippingFee,
  trackingUrl,
  type AddressSnapshot,
  type Carrier,
  type createShipmentSchema,
  type CreateShipmentResult,
  type quoteInputSchema,
  type Quote,
  type Shipment,
  type ShipmentEvent,
  type ShipmentEventType,
  type ShipmentList,
  type shipmentQuerySchema,
  type ShipmentStatus,
  type ShipmentSummary,
} from '../../../shared/contracts/shipping.ts';
import { afterCommit } from '../../db/after-commit.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { user } from '../auth/tables.ts';
import { cards } from '../catalog/tables.ts';
import { cardLocations, shipmentCards, shipmentEvents, shipments, shippingAddresses, shippingOrigins } from '../../db/schema/shipping.ts';
import { ownedCards } from '../inventory/tables.ts';
import type { Deps } from '../../deps.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import { audit } from '../audit/service.ts';
import { listedError, moveCopies } from '../inventory/service.ts';
import { notify as notifyUser } from '../notifications/service.ts';
import { credit, debit, getBalance, lockBalance } from '../wallet/service.ts';
import { assertShipsTo, defaultOrigin } from './addresses.ts';
import { getShippingSettings } from './settings.ts';
import { setting } from '../settings/store.ts';
import { plural } from '../../../shared/words.ts';

/**
 * Shipments: the fee is a journal entry (wallet), the cards move through the inventory gateway,
 * the shipment row and its timeline are ours, all in one transaction. Every transition locks the
 * shipment row first (after the user's balance when money may move: balance → shipment → owned
 * cards, the order every money path of a user uses), re-reads its status and refuses with 409
 * invalid_shipment_state when the step no longer applies: two racing transitions serialize on the
 * row lock and the second one sees what the first did.
 */

export type Actor = { id: string | null; role: 'user' | 'admin' | 'system'; ip?: string | null };
type ShipmentRow = typeof shipments.$inferSelect;

export const reference = (seq: number | null) => `SH-${seq ?? 0}`;

export const invalidShipmentState = (status: ShipmentStatus, what: string) =>
  new AppError(409, 'invalid_shipment_state', `This shipment is ${SHIPMENT_STATUS_LABEL[status].toLowerCase()}: it cannot ${what}. Nothing changed; refresh to see it.`);

// ───────────────────────── cards and fee ─────────────────────────

interface Picked {
  ownedCardId: string;
  status: (typeof ownedCards.$inferSelect)['status'];
  cardId: string;
  name: string;
  valueCents: number;
  originId: string | null;
  shelfLocation: string | null;
}

/**
 * The user's cards among `ids`, all of them in the vault, else 409 card_unavailable naming each
 * card that is not (someone else's or unknown ones look the same: not in your vault). With
 * `lock`, the owned rows are locked in id order.
 */
async function vaultCards(db: DbOrTx, userId: string, ids: readonly string[], lock: boolean): Promise<Picked[]> {
  const sorted = [...ids].sort();
  const q = db
    .select({
      ownedCardId: ownedCards.id,
      status: ownedCards.status,
      cardId: cards.id,
      name: cards.name,
      valueCents: cards.valueCents,
      originId: cardLocations.originId,
      shelfLocation: cardLocations.shelfLocation,
    })
    .from(ownedCards)
    .innerJoin(cards, eq(cards.id, ownedCards.cardId))
    .leftJoin(cardLocations, eq(cardLocations.cardId, cards.id))
    .where(and(eq(ownedCards.ownerId, userId), inArray(ownedCards.id, sorted)))
    .orderBy(asc(ownedCards.id));
  const rows: Picked[] = lock ? await q.for('update', { of: ownedCards }) : await q;
  const found = new Map(rows.map((r) => [r.ownedCardId, r]));
  const problems: string[] = [];
  for (const id of sorted) {
    const r = found.get(id);
    if (!r) problems.push(`${id}: not in your vault`);
    else if (r.status !== 'in_vault') problems.push(`${id}: ${r.name} is ${STATUS_LABEL[r.status].toLowerCase()}`);
  }
  if (rows.some((r) => r.status === 'listed')) throw listedError();
  if (problems.length) {
    throw new AppError(
      409,
      'card_unavailable',
      `${problems.length === 1 ? 'A card is' : `${plural(problems.length, 'card')} are`} not in your vault (already in a shipment, sold back or not yours). Nothing was charged; refresh and pick again.`,
      { ownedCardIds: problems },
    );
  }
  return rows;
}

async function ownLiveAddress(db: DbOrTx, userId: string, id: string) {
  const [row] = await db
    .select()
    .from(shippingAddresses)
    .where(and(eq(shippingAddresses.id, id), eq(shippingAddresses.userId, userId), sql`${shippingAddresses.archivedAt} is null`));
  if (!row) throw badRequest('Pick one of your addresses.', { addressId: ['No such address (it may have been deleted).'] }, 'validation_failed');
  return row;
}

export async function quote(db: DbOrTx, userId: string, input: z.output<typeof quoteInputSchema>): Promise<Quote> {
  const [settings, picked, balance] = await Promise.all([getShippingSettings(), vaultCards(db, userId, input.ownedCardIds, false), getBalance(db, userId)]);
  if (input.addressId) {
    const address = await ownLiveAddress(db, userId, input.addressId);
    await assertShipsTo(db, address.country, 'addressId');
  }
  const declaredValueCents = picked.reduce((s, p) => s + p.valueCents, 0);
  const fee = shippingFee(settings, picked.length, declaredValueCents, input.insured);
  return {
    cardCount: picked.length,
    declaredValueCents,
    insured: input.insured,
    perCardFeeCents: settings.perCardFeeCents,
    ...fee,
    balanceCents: balance.balanceCents,
    shortfallCents: Math.max(0, fee.feeCents - balance.balanceCents),
  };
}

async function addEvent(tx: DbOrTx, shipmentId: string, type: ShipmentEventType, actor: Actor, note: string | null = null) {
  // clock_timestamp, not the column's now(): the events of one transaction (cancelled, then
  // refunded) must keep the order they happened in, and now() gives them all the same instant.
  await tx.insert(shipmentEvents).values({ shipmentId, type, actorId: actor.id, actorRole: actor.role, note, createdAt: sql`clock_timestamp()` });
}

/** What the user is told of a shipment's change (notifyShipment). */
export interface Notice {
  userId: string;
  shipmentId: string;
  status: ShipmentStatus;
  reference: string;
  note: string | null;
  tracking: string | null;
}

const noticeOf = (row: ShipmentRow, note: string | null = null): Notice => ({
  userId: row.userId,
  shipmentId: row.id,
  status: row.status,
  reference: reference(row.seq),
  note,
  tracking: trackingUrl(row.carrier as Carrier | null, row.trackingNumber),
});

/**
 * Confirming a shipment, in the caller's transaction: lock the balance, lock and check the cards,
 * move them in_vault → in_shipment, charge the fee, write the shipment. Any refusal rolls all of it back.
 */
export async function createShipment(
  tx: Tx,
  userId: string,
  input: z.output<typeof createShipmentSchema>,
  opts: { idempotencyKey?: string | null; ip?: string | null } = {},
): Promise<{ result: CreateShipmentResult; notice: Notice }> {
  if (input.ownedCardIds.length > MAX_SHIPMENT_CARDS) throw badRequest('Too many cards.', { ownedCardIds: [`Ship at most ${MAX_SHIPMENT_CARDS} cards at once.`] });
  await lockBalance(tx, userId);
  const address = await ownLiveAddress(tx, userId, input.addressId);
  await assertShipsTo(tx, address.country, 'addressId');
  const picked = await vaultCards(tx, userId, input.ownedCardIds, true);
  const settings = getShippingSettings();
  const declaredValueCents = picked.reduce((s, p) => s + p.valueCents, 0);
  const fee = shippingFee(settings, picked.length, declaredValueCents, input.insured);
  if (input.expectedFeeCents !== undefined && input.expectedFeeCents !== fee.feeCents) {
    throw new AppError(409, 'quote_changed', 'The fee changed since the quote (settings or card values moved). Nothing was charged; check the new fee and confirm again.');
  }

  const shipmentId = randomUUID();
  await moveCopies(tx, 'ship', {
    ids: picked.map((p) => p.ownedCardId),
    ownerId: userId,
    actorId: userId,
    referenceType: 'shipment',
    referenceId: shipmentId,
    refused: () => new AppError(409, 'card_unavailable', 'Some of these cards left your vault meanwhile. Nothing was charged; refresh and pick again.'),
  });

  let feeEntryId: string | null = null;
  if (fee.feeCents > 0) {
    const moved = await debit(tx, {
      userId,
      amountCents: fee.feeCents,
      kind: 'shipping_fee',
      referenceType: 'shipment',
      referenceId: shipmentId,
      actorId: userId,
      idempotencyKey: opts.idempotencyKey ? `shipping:${opts.idempotencyKey}` : null,
      memo: `Shipping fee, ${plural(picked.length, 'card')}`,
    });
    feeEntryId = moved.entryId;
  }

  const def = await defaultOrigin(tx);
  const originOf = (p: Picked) => p.originId ?? def.id;
  const tally = new Map<string, number>();
  for (const p of picked) tally.set(originOf(p), (tally.get(originOf(p)) ?? 0) + 1);
  const originId = [...tally].sort((a, b) => b[1] - a[1])[0]![0];
  const snapshot: AddressSnapshot = {
    name: address.name,
    line1: address.line1,
    line2: address.line2,
    city: address.city,
    region: address.region,
    postalCode: address.postalCode,
    country: address.country,
    phone: address.phone,
  };
  const [row] = await tx
    .insert(shipments)
    .values({
      id: shipmentId,
      userId,
      addressId: address.id,
      address: snapshot,
      originId,
      cardCount: picked.length,
      declaredValueCents,
      insured: input.insured,
      baseFeeCents: fee.baseFeeCents,
      cardsFeeCents: fee.cardsFeeCents,
      insuranceCents: fee.insuranceCents,
      feeCents: fee.feeCents,
      feeEntryId,
    })
    .returning();
  await tx.insert(shipmentCards).values(
    picked.map((p) => ({
      shipmentId,
      ownedCardId: p.ownedCardId,
      cardId: p.cardId,
      valueCents: p.valueCents,
      originId: originOf(p),
      shelfLocation: p.shelfLocation ?? '',
    })),
  );
  await addEvent(tx, shipmentId, 'requested', { id: userId, role: 'user' });
  await audit(tx, {
    actorId: userId,
    action: 'shipment.request',
    targetType: 'shipment',
    targetId: shipmentId,
    after: { cardCount: picked.length, feeCents: fee.feeCents, insured: input.insured, declaredValueCents },
    ip: opts.ip ?? null,
  });
  const shipment = await loadShipment(tx, shipmentId, { viewer: 'user' });
  const balance = await getBalance(tx, userId);
  return { result: { shipment, balanceCents: balance.balanceCents }, notice: noticeOf(row!) };
}

/** Locks the shipment (404 if missing, or not this user's when userId is given). */
async function lockShipment(tx: Tx, id: string, userId?: string): Promise<ShipmentRow> {
  const [row] = await tx
    .select()
    .from(shipments)
    .where(and(eq(shipments.id, id), userId ? eq(shipments.userId, userId) : undefined))
    .for('update');
  if (!row) throw notFound('No such shipment.');
  return row;
}

/** Separation of duties (ADR 0024): staff never act in the back office on their own shipments, or those of accounts they referred. */
async function assertNotOwnShipment(tx: Tx, actor: Actor, row: ShipmentRow): Promise<void> {
  if (actor.role === 'admin' && actor.id && row.userId && (await isOwnAccount(tx, actor.id, row.userId))) throw ownRecordError('act on this shipment');
}

async function ownerOf(db: DbOrTx, id: string): Promise<string | null> {
  const [row] = await db.select({ userId: shipments.userId }).from(shipments).where(eq(shipments.id, id));
  return row?.userId ?? null;
}

async function cardIdsOf(tx: DbOrTx, shipmentId: string): Promise<string[]> {
  const rows = await tx.select({ id: shipmentCards.ownedCardId }).from(shipmentCards).where(eq(shipmentCards.shipmentId, shipmentId));
  return rows.map((r) => r.id);
}

async function refund(tx: Tx, row: ShipmentRow, amountCents: number, actor: Actor, memo: string): Promise<string | null> {
  if (amountCents <= 0) return null;
  const moved = await credit(tx, {
    userId: row.userId,
    amountCents,
    kind: 'shipping_refund',
    referenceType: 'shipment',
    referenceId: row.id,
    actorId: actor.id,
    // One refund per shipment, whatever retries happen.
    idempotencyKey: `shipping-refund:${row.id}`,
    memo,
  });
  return moved.entryId;
}

/**
 * Cancel: by the user while requested; by an admin (with a reason) while requested or packing.
 * The fee is refunded and the cards go back to the vault.
 */
export async function cancelShipment(tx: Tx, id: string, actor: Actor, opts: { userId?: string; reason?: string } = {}): Promise<Notice> {
  const owner = opts.userId ?? (await ownerOf(tx, id));
  if (!owner) throw notFound('No such shipment.');
  await lockBalance(tx, owner);
  const row = await lockShipment(tx, id, opts.userId);
  await assertNotOwnShipment(tx, actor, row);
  const allowed: readonly ShipmentStatus[] = actor.role === 'admin' ? OPEN_SHIPMENT_STATUSES : ['requested'];
  if (!allowed.includes(row.status)) {
    throw invalidShipmentState(row.status, actor.role === 'admin' ? 'be cancelled once shipped' : 'be cancelled any more (only a requested shipment can be)');
  }
  await moveCopies(tx, 'cancelShipment', { ids: await cardIdsOf(tx, id), actorId: actor.id, referenceType: 'shipment', referenceId: id });
  const refundEntryId = await refund(tx, row, row.feeCents, actor, `Shipping refund, ${reference(row.seq)} cancelled`);
  const [updated] = await tx
    .update(shipments)
    .set({ status: 'cancelled', refundedCents: row.feeCents, refundEntryId, updatedAt: new Date() })
    .where(eq(shipments.id, id))
    .returning();
  await addEvent(tx, id, 'cancelled', actor, opts.reason ?? null);
  if (refundEntryId) await addEvent(tx, id, 'refunded', { id: null, role: 'system' }, `${row.feeCents} cents`);
  await audit(tx, {
    actorId: actor.id,
    action: 'shipment.cancel',
    targetType: 'shipment',
    targetId: id,
    before: { status: row.status },
    after: { status: 'cancelled', refundedCents: row.feeCents, reason: opts.reason ?? null },
    ip: actor.ip ?? null,
  });
  return noticeOf(updated!, opts.reason ?? null);
}

/** One step forward (admin): requested → packing → shipped (carrier, tracking) → delivered. */
export async function advanceShipment(
  tx: Tx,
  id: string,
  actor: Actor,
  input: { to: 'packing' | 'shipped' | 'delivered'; carrier?: Carrier; trackingNumber?: string; note?: string },
): Promise<Notice> {
  const row = await lockShipment(tx, id);
  await assertNotOwnShipment(tx, actor, row);
  if (NEXT_STATUS[row.status] !== input.to) throw invalidShipmentState(row.status, `move to ${SHIPMENT_STATUS_LABEL[input.to].toLowerCase()}`);
  const set: Partial<typeof shipments.$inferInsert> = { status: input.to, updatedAt: new Date() };
  if (input.to === 'shipped') {
    if (!input.carrier || !input.trackingNumber || !(CARRIERS as readonly string[]).includes(input.carrier)) {
      throw badRequest('Shipping needs the carrier and tracking number.', { trackingNumber: ['Enter the tracking number.'] });
    }
    await moveCopies(tx, 'dispatch', { ids: await cardIdsOf(tx, id), actorId: actor.id, referenceType: 'shipment', referenceId: id });
    set.carrier = input.carrier;
    set.trackingNumber = input.trackingNumber.toUpperCase();
  } else if (input.to === 'delivered') {
    await moveCopies(tx, 'deliver', { ids: await cardIdsOf(tx, id), actorId: actor.id, referenceType: 'shipment', referenceId: id });
  }
  const [updated] = await tx.update(shipments).set(set).where(eq(shipments.id, id)).returning();
  await addEvent(tx, id, input.to, actor, input.note ?? null);
  await audit(tx, {
    actorId: actor.id,
    action: `shipment.${input.to}`,
    targetType: 'shipment',
    targetId: id,
    before: { status: row.status },
    after: { status: input.to, carrier: set.carrier ?? null, trackingNumber: set.trackingNumber ?? null, note: input.note ?? null },
    ip: actor.ip ?? null,
  });
  return noticeOf(updated!, input.note ?? null);
}

/** Lost or returned to sender (a shipped shipment): put the cards back, or refund (see resolveShipmentSchema). */
export async function resolveShipment(
  tx: Tx,
  id: string,
  actor: Actor,
  input: { outcome: 'lost' | 'returned'; resolution: 'restore_cards' | 'refund'; reason: string },
): Promise<Notice> {
  const owner = await ownerOf(tx, id);
  if (!owner) throw notFound('No such shipment.');
  await lockBalance(tx, owner);
  const row = await lockShipment(tx, id);
  await assertNotOwnShipment(tx, actor, row);
  if (row.status !== 'shipped') throw invalidShipmentState(row.status, `be marked ${input.outcome} (only a shipped one can be)`);
  const ids = await cardIdsOf(tx, id);
  const ctx = { actorId: actor.id, referenceType: 'shipment', referenceId: id, note: input.reason };
  const writeOff = input.outcome === 'lost' && input.resolution === 'refund';
  await moveCopies(tx, writeOff ? 'loseShipment' : 'returnShipment', { ids, ...ctx });
  let refundCents = 0;
  if (input.resolution === 'refund') refundCents = suggestedRefund(row, input.outcome);
  const refundEntryId = await refund(tx, row, refundCents, actor, `Shipping refund, ${reference(row.seq)} ${input.outcome === 'lost' ? 'lost' : 'returned'}`);
  const [updated] = await tx
    .update(shipments)
    .set({ status: input.outcome, refundedCents: refundCents, refundEntryId, updatedAt: new Date() })
    .where(eq(shipments.id, id))
    .returning();
  await addEvent(tx, id, input.outcome, actor, input.reason);
  if (!writeOff) await addEvent(tx, id, 'cards_restored', { id: null, role: 'system' }, `${plural(ids.length, 'card')} back in the vault`);
  if (refundEntryId) await addEvent(tx, id, 'refunded', { id: null, role: 'system' }, `${refundCents} cents`);
  await audit(tx, {
    actorId: actor.id,
    action: `shipment.${input.outcome}`,
    targetType: 'shipment',
    targetId: id,
    before: { status: row.status },
    after: { status: input.outcome, resolution: input.resolution, refundedCents: refundCents, reason: input.reason },
    ip: actor.ip ?? null,
  });
  return noticeOf(updated!, input.reason);
}

/** Lost: the fee, plus the declared value when insured. Returned: the fee (the cards come back). */
export function suggestedRefund(row: Pick<ShipmentRow, 'feeCents' | 'declaredValueCents' | 'insured'>, outcome: 'lost' | 'returned'): number {
  return row.feeCents + (outcome === 'lost' && row.insured ? row.declaredValueCents : 0);
}

// ───────────────────────── notify ─────────────────────────

/**
 * In the transition's transaction: the user's notification (inbox and/or mail, per their
 * shipment_status preference) through the notifications module, and once it commits their open
 * pages hear 'shipment.updated'. Returns the notice.
 */
export async function notifyShipment(deps: Deps, tx: DbOrTx, n: Notice): Promise<Notice> {
  await afterCommit(tx, { topic: `user:${n.userId}`, type: 'shipment.updated', data: { shipmentId: n.shipmentId, status: n.status } });
  await notifyUser(
    deps,
    tx,
    n.userId,
    'shipment_status',
    { shipmentId: n.shipmentId, reference: n.reference, status: n.status, statusLabel: SHIPMENT_STATUS_LABEL[n.status], tracking: n.tracking, reason: n.note },
    { dedupeKey: `shipment:${n.shipmentId}:${n.status}` },
  );
  return n;
}

// ───────────────────────── reads ─────────────────────────

export function toSummary(r: ShipmentRow): ShipmentSummary {
  const carrier = r.carrier as Carrier | null;
  const a = r.address;
  return {
    id: r.id,
    reference: reference(r.seq),
    status: r.status,
    cardCount: r.cardCount,
    declaredValueCents: r.declaredValueCents,
    insured: r.insured,
    feeCents: r.feeCents,
    refundedCents: r.refundedCents,
    carrier,
    trackingNumber: r.trackingNumber,
    trackingUrl: trackingUrl(carrier, r.trackingNumber),
    shipTo: `${a.name}, ${a.city}, ${a.country}`,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** The full shipment; 404 when missing or (with userId) someone else's. */
export async function loadShipment(db: DbOrTx, id: string, opts: { viewer: 'user' | 'admin'; userId?: string }): Promise<Shipment> {
  const [row] = await db
    .select()
    .from(shipments)
    .where(and(eq(shipments.id, id), opts.userId ? eq(shipments.userId, opts.userId) : undefined));
  if (!row) throw notFound('No such shipment.');
  const [cardRows, events, origin] = await Promise.all([
    db
      .select({
        id: shipmentCards.id,
        ownedCardId: shipmentCards.ownedCardId,
        cardId: shipmentCards.cardId,
        name: cards.name,
        setName: cards.setName,
        number: cards.number,
        valueCents: shipmentCards.valueCents,
        originId: shipmentCards.originId,
        originName: shippingOrigins.name,
        shelfLocation: shipmentCards.shelfLocation,
        pickedAt: shipmentCards.pickedAt,
      })
      .from(shipmentCards)
      .innerJoin(cards, eq(cards.id, shipmentCards.cardId))
      .leftJoin(shippingOrigins, eq(shippingOrigins.id, shipmentCards.originId))
      .where(eq(shipmentCards.shipmentId, id))
      .orderBy(asc(shipmentCards.shelfLocation), asc(cards.setName), asc(cards.number), asc(shipmentCards.id)),
    db
      .select({ e: shipmentEvents, username: user.username })
      .from(shipmentEvents)
      .leftJoin(user, eq(user.id, shipmentEvents.actorId))
      .where(eq(shipmentEvents.shipmentId, id))
      .orderBy(asc(shipmentEvents.createdAt), asc(shipmentEvents.seq)),
    row.originId ? db.select({ id: shippingOrigins.id, name: shippingOrigins.name }).from(shippingOrigins).where(eq(shippingOrigins.id, row.originId)) : Promise.resolve([]),
  ]);
  return {
    ...toSummary(row),
    baseFeeCents: row.baseFeeCents,
    cardsFeeCents: row.cardsFeeCents,
    insuranceCents: row.insuranceCents,
    address: row.address,
    addressId: row.addressId,
    origin: origin[0] ?? null,
    cards: cardRows.map(({ pickedAt, ...c }) => ({ ...c, originName: c.originName ?? null, picked: pickedAt !== null })),
    events: events.map(({ e, username }): ShipmentEvent => ({
      id: e.id,
      type: e.type as ShipmentEventType,
      // The customer sees the shop act, never which staff member (issue 39): no id, no username.
      actor:
        opts.viewer === 'user' && e.actorRole === 'admin'
          ? { id: null, username: setting('site.identity').siteName, role: 'admin' }
          : { id: e.actorId, username: username ?? null, role: e.actorRole as ShipmentEvent['actor']['role'] },
      at: e.createdAt.toISOString(),
      note: e.note,
    })),
    feeEntryId: row.feeEntryId,
    refundEntryId: row.refundEntryId,
    canCancel: opts.viewer === 'admin' ? (OPEN_SHIPMENT_STATUSES as readonly string[]).includes(row.status) : row.status === 'requested',
  };
}

export async function listOwnShipments(db: DbOrTx, userId: string, q: z.output<typeof shipmentQuerySchema>): Promise<ShipmentList> {
  const where = and(eq(shipments.userId, userId), q.status === 'all' ? undefined : eq(shipments.status, q.status));
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(shipments)
      .where(where)
      .orderBy(desc(shipments.createdAt), desc(shipments.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ n: count() }).from(shipments).where(where),
  ]);
  return { items: rows.map(toSummary), total: Number(total?.n ?? 0), page: q.page, pageSize: q.pageSize };
}
