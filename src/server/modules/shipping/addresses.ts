import { and, asc, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  COUNTRIES,
  normalizePostalCode,
  OPEN_SHIPMENT_STATUSES,
  type Address,
  type addressInputSchema,
  type CardLocation,
  type cardLocationInputSchema,
  type Origin,
  type originInputSchema,
  type originUpdateSchema,
} from '../../../shared/contracts/shipping.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { cards } from '../catalog/tables.ts';
import { cardLocations, shipmentCards, shipments, shippingAddresses, shippingOrigins } from '../../db/schema/shipping.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import { audit } from '../audit/service.ts';
import { getShippingSettings } from './settings.ts';

/** Addresses a user may keep (archived ones do not count). */
export const MAX_ADDRESSES = 20;

export type AddressInput = z.output<typeof addressInputSchema>;
type AddressRow = typeof shippingAddresses.$inferSelect;

export function toAddress(r: AddressRow, shipmentCount: number): Address {
  return {
    id: r.id,
    name: r.name,
    line1: r.line1,
    line2: r.line2,
    city: r.city,
    region: r.region,
    postalCode: r.postalCode,
    country: r.country,
    phone: r.phone,
    isDefault: r.isDefault,
    archived: r.archivedAt !== null,
    shipmentCount,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

const fieldsOf = (a: Omit<AddressInput, 'isDefault'>) => ({
  name: a.name,
  line1: a.line1,
  line2: a.line2,
  city: a.city,
  region: a.region,
  postalCode: normalizePostalCode(a.postalCode),
  country: a.country,
  phone: a.phone,
});

/** 400 on the country field when the shop does not ship there. */
export async function assertShipsTo(db: DbOrTx, country: string, field = 'country'): Promise<void> {
  const { countries } = getShippingSettings();
  if (!countries.includes(country)) {
    throw badRequest(`We do not ship to ${COUNTRIES[country] ?? country} yet.`, {
      [field]: [`We do not ship to ${COUNTRIES[country] ?? country}. We ship to: ${countries.map((c) => COUNTRIES[c] ?? c).join(', ')}.`],
    });
  }
}

async function shipmentCounts(db: DbOrTx, ids: string[]): Promise<Map<string, number>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: shipments.addressId, n: count() })
    .from(shipments)
    .where(inArray(shipments.addressId, ids))
    .groupBy(shipments.addressId);
  return new Map(rows.map((r) => [r.id!, Number(r.n)]));
}

/** A user's addresses, default first; archived ones only when asked (the back office). */
export async function listAddresses(db: DbOrTx, userId: string, opts: { archived?: boolean } = {}): Promise<Address[]> {
  const rows = await db
    .select()
    .from(shippingAddresses)
    .where(and(eq(shippingAddresses.userId, userId), opts.archived ? undefined : isNull(shippingAddresses.archivedAt)))
    .orderBy(desc(shippingAddresses.isDefault), sql`${shippingAddresses.archivedAt} is not null`, asc(shippingAddresses.createdAt));
  const counts = await shipmentCounts(db, rows.map((r) => r.id));
  return rows.map((r) => toAddress(r, counts.get(r.id) ?? 0));
}

/** The user's live (not archived) address, locked; 404 otherwise (someone else's looks the same as none). */
async function ownAddress(tx: DbOrTx, userId: string, id: string): Promise<AddressRow> {
  const [row] = await tx
    .select()
    .from(shippingAddresses)
    .where(and(eq(shippingAddresses.id, id), eq(shippingAddresses.userId, userId), isNull(shippingAddresses.archivedAt)))
    .for('update');
  if (!row) throw notFound('No such address (it may have been deleted).');
  return row;
}

async function clearDefault(tx: DbOrTx, userId: string) {
  await tx
    .update(shippingAddresses)
    .set({ isDefault: false })
    .where(and(eq(shippingAddresses.userId, userId), eq(shippingAddresses.isDefault, true)));
}

/** Serializes one user's address writes (default flag, the cap). */
async function lockUserAddresses(tx: Tx, userId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('shipping_addresses'), hashtext(${userId}))`);
}

export async function createAddress(tx: Tx, userId: string, input: AddressInput): Promise<Address> {
  await lockUserAddresses(tx, userId);
  await assertShipsTo(tx, input.country);
  const [{ n }] = (await tx
    .select({ n: count() })
    .from(shippingAddresses)
    .where(and(eq(shippingAddresses.userId, userId), isNull(shippingAddresses.archivedAt)))) as [{ n: number }];
  if (Number(n) >= MAX_ADDRESSES) {
    throw new AppError(409, 'too_many_addresses', `You can keep at most ${MAX_ADDRESSES} addresses. Delete one you no longer use first.`);
  }
  const isDefault = input.isDefault || Number(n) === 0;
  if (isDefault) await clearDefault(tx, userId);
  const [row] = await tx.insert(shippingAddresses).values({ userId, ...fieldsOf(input), isDefault }).returning();
  return toAddress(row!, 0);
}

export async function updateAddress(tx: Tx, userId: string, id: string, input: AddressInput): Promise<Address> {
  await lockUserAddresses(tx, userId);
  const current = await ownAddress(tx, userId, id);
  await assertShipsTo(tx, input.country);
  // Shipments keep their own snapshot, so editing in place never rewrites history.
  const isDefault = current.isDefault || input.isDefault;
  if (isDefault && !current.isDefault) await clearDefault(tx, userId);
  const [row] = await tx
    .update(shippingAddresses)
    .set({ ...fieldsOf(input), isDefault, updatedAt: new Date() })
    .where(eq(shippingAddresses.id, id))
    .returning();
  return toAddress(row!, (await shipmentCounts(tx, [id])).get(id) ?? 0);
}

export async function setDefaultAddress(tx: Tx, userId: string, id: string): Promise<Address> {
  await lockUserAddresses(tx, userId);
  await ownAddress(tx, userId, id);
  await clearDefault(tx, userId);
  const [row] = await tx.update(shippingAddresses).set({ isDefault: true, updatedAt: new Date() }).where(eq(shippingAddresses.id, id)).returning();
  return toAddress(row!, (await shipmentCounts(tx, [id])).get(id) ?? 0);
}

/** Deletes an unused address; one a shipment used is archived instead, so history stays true. */
export async function deleteAddress(tx: Tx, userId: string, id: string): Promise<{ id: string; outcome: 'deleted' | 'archived' }> {
  await lockUserAddresses(tx, userId);
  const current = await ownAddress(tx, userId, id);
  const used = (await shipmentCounts(tx, [id])).get(id) ?? 0;
  if (used > 0) {
    await tx.update(shippingAddresses).set({ archivedAt: new Date(), isDefault: false, updatedAt: new Date() }).where(eq(shippingAddresses.id, id));
  } else {
    await tx.delete(shippingAddresses).where(eq(shippingAddresses.id, id));
  }
  if (current.isDefault) {
    // The most recent remaining address becomes the default, so there always is one.
    const [next] = await tx
      .select({ id: shippingAddresses.id })
      .from(shippingAddresses)
      .where(and(eq(shippingAddresses.userId, userId), isNull(shippingAddresses.archivedAt)))
      .orderBy(desc(shippingAddresses.createdAt))
      .limit(1);
    if (next) await tx.update(shippingAddresses).set({ isDefault: true }).where(eq(shippingAddresses.id, next.id));
  }
  return { id, outcome: used > 0 ? 'archived' : 'deleted' };
}

// ───────────────────────── origins ─────────────────────────

type OriginRow = typeof shippingOrigins.$inferSelect;

export async function defaultOrigin(db: DbOrTx): Promise<OriginRow> {
  const [row] = await db.select().from(shippingOrigins).where(eq(shippingOrigins.isDefault, true));
  if (!row) throw new Error('no default shipping origin (migration 0011 creates one)');
  return row;
}

export async function listOrigins(db: DbOrTx): Promise<Origin[]> {
  const [rows, located, unlocated, open] = await Promise.all([
    db.select().from(shippingOrigins).orderBy(desc(shippingOrigins.isDefault), asc(shippingOrigins.name)),
    db.select({ id: cardLocations.originId, n: count() }).from(cardLocations).groupBy(cardLocations.originId),
    db
      .select({ n: count() })
      .from(cards)
      .where(sql`not exists (select 1 from ${cardLocations} l where l.card_id = ${cards.id})`),
    db
      .select({ id: shipmentCards.originId, n: count() })
      .from(shipmentCards)
      .innerJoin(shipments, eq(shipments.id, shipmentCards.shipmentId))
      .where(inArray(shipments.status, [...OPEN_SHIPMENT_STATUSES]))
      .groupBy(shipmentCards.originId),
  ]);
  const byOrigin = new Map(located.map((r) => [r.id, Number(r.n)]));
  const openBy = new Map(open.map((r) => [r.id, Number(r.n)]));
  return rows.map((r) => toOrigin(r, (byOrigin.get(r.id) ?? 0) + (r.isDefault ? Number(unlocated[0]?.n ?? 0) : 0), openBy.get(r.id) ?? 0));
}

function toOrigin(r: OriginRow, cardCount: number, openCardCount: number): Origin {
  return {
    id: r.id,
    name: r.name,
    line1: r.line1,
    line2: r.line2,
    city: r.city,
    region: r.region,
    postalCode: r.postalCode,
    country: r.country,
    phone: r.phone,
    isDefault: r.isDefault,
    archived: r.archivedAt !== null,
    cardCount,
    openCardCount,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export async function getOrigin(db: DbOrTx, id: string): Promise<Origin> {
  const found = (await listOrigins(db)).find((o) => o.id === id);
  if (!found) throw notFound('No such origin.');
  return found;
}

async function lockOrigins(tx: Tx) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('shipping_origins'), 0)`);
}

type Ctx = { actorId: string; ip: string | null };

export async function createOrigin(tx: Tx, ctx: Ctx, input: z.output<typeof originInputSchema>): Promise<Origin> {
  await lockOrigins(tx);
  if (input.isDefault) await tx.update(shippingOrigins).set({ isDefault: false }).where(eq(shippingOrigins.isDefault, true));
  const [row] = await tx.insert(shippingOrigins).values({ ...fieldsOf(input), isDefault: input.isDefault }).returning();
  await audit(tx, { actorId: ctx.actorId, action: 'shipping.origin.create', targetType: 'shipping_origin', targetId: row!.id, after: row, ip: ctx.ip });
  return getOrigin(tx, row!.id);
}

export async function updateOrigin(tx: Tx, ctx: Ctx, id: string, input: z.output<typeof originUpdateSchema>): Promise<Origin> {
  await lockOrigins(tx);
  const [before] = await tx.select().from(shippingOrigins).where(eq(shippingOrigins.id, id)).for('update');
  if (!before) throw notFound('No such origin.');
  if (input.archived && before.isDefault) {
    throw new AppError(409, 'default_origin', 'The default origin cannot be archived. Make another origin the default first.');
  }
  const archivedAt = input.archived ? (before.archivedAt ?? new Date()) : null;
  const [row] = await tx.update(shippingOrigins).set({ ...fieldsOf(input), archivedAt, updatedAt: new Date() }).where(eq(shippingOrigins.id, id)).returning();
  await audit(tx, { actorId: ctx.actorId, action: 'shipping.origin.update', targetType: 'shipping_origin', targetId: id, before, after: row, ip: ctx.ip });
  return getOrigin(tx, id);
}

export async function setDefaultOrigin(tx: Tx, ctx: Ctx, id: string): Promise<Origin> {
  await lockOrigins(tx);
  const [row] = await tx.select().from(shippingOrigins).where(eq(shippingOrigins.id, id)).for('update');
  if (!row) throw notFound('No such origin.');
  if (row.archivedAt) throw new AppError(409, 'origin_archived', 'An archived origin cannot be the default. Restore it first.');
  const previous = await defaultOrigin(tx);
  if (previous.id !== id) {
    // Cards without a location lived at the old default: they stay there, explicitly.
    await tx.execute(sql`
      insert into ${cardLocations} ("card_id", "origin_id")
      select c.id, ${previous.id}::uuid from ${cards} c
      where not exists (select 1 from ${cardLocations} l where l.card_id = c.id)`);
    await tx.update(shippingOrigins).set({ isDefault: false }).where(eq(shippingOrigins.id, previous.id));
    await tx.update(shippingOrigins).set({ isDefault: true, updatedAt: new Date() }).where(eq(shippingOrigins.id, id));
  }
  await audit(tx, { actorId: ctx.actorId, action: 'shipping.origin.default', targetType: 'shipping_origin', targetId: id, before: { defaultId: previous.id }, after: { defaultId: id }, ip: ctx.ip });
  return getOrigin(tx, id);
}

export async function setCardLocation(tx: Tx, ctx: Ctx, cardId: string, input: z.output<typeof cardLocationInputSchema>): Promise<CardLocation> {
  const [card] = await tx.select({ id: cards.id }).from(cards).where(eq(cards.id, cardId));
  if (!card) throw notFound('No such card.');
  const [origin] = await tx.select().from(shippingOrigins).where(eq(shippingOrigins.id, input.originId));
  if (!origin) throw badRequest('No such origin.', { originId: ['No such origin.'] });
  if (origin.archivedAt) throw badRequest('This origin is archived.', { originId: ['This origin is archived; pick another.'] });
  const [before] = await tx.select().from(cardLocations).where(eq(cardLocations.cardId, cardId));
  await tx
    .insert(cardLocations)
    .values({ cardId, originId: input.originId, shelfLocation: input.shelfLocation })
    .onConflictDoUpdate({ target: cardLocations.cardId, set: { originId: input.originId, shelfLocation: input.shelfLocation, updatedAt: new Date() } });
  await audit(tx, {
    actorId: ctx.actorId,
    action: 'shipping.card_location.update',
    targetType: 'card',
    targetId: cardId,
    before: before ? { originId: before.originId, shelfLocation: before.shelfLocation } : null,
    after: input,
    ip: ctx.ip,
  });
  return { cardId, originId: input.originId, shelfLocation: input.shelfLocation };
}
