import { asc, eq, inArray } from 'drizzle-orm';
import { shipmentCards, shipmentEvents, shipments, shippingAddresses } from '../../db/schema/shipping.ts';
import type { PersonalDataSection } from '../../lib/personal-data-section.ts';

const ERASED = { name: '(erased)', line1: '(erased)', line2: '', city: '(erased)', region: '', postalCode: '', country: '', phone: '' };

/**
 * Addresses are deleted with the account. Shipments are money and stock records, kept, but the
 * address copied into each one is erased. Shipment cards and events hang off their shipment; the
 * actor ids in events and pick check-offs are admins' (declared by the audit section's rule: kept).
 */
export const shippingPersonalData: PersonalDataSection = {
  name: 'shipping',
  tables: [
    { table: shippingAddresses, keyedBy: ['user_id'], onDelete: 'delete', why: 'addresses to ship to' },
    { table: shipments, keyedBy: ['user_id'], onDelete: 'keep', why: 'fees paid and cards shipped (accounting); the address copy is erased' },
    { table: shipmentEvents, keyedBy: ['actor_id'], onDelete: 'keep', why: 'timeline of a kept shipment (who moved it)' },
    { table: shipmentCards, keyedBy: ['picked_by'], onDelete: 'keep', why: 'cards of a kept shipment; picked_by is the admin who pulled it' },
  ],
  async export(db, { id }) {
    const [addresses, rows] = await Promise.all([
      db.select().from(shippingAddresses).where(eq(shippingAddresses.userId, id)).orderBy(asc(shippingAddresses.createdAt)),
      db.select().from(shipments).where(eq(shipments.userId, id)).orderBy(asc(shipments.createdAt), asc(shipments.id)),
    ]);
    const ids = rows.map((r) => r.id);
    const [cardRows, events] = ids.length
      ? await Promise.all([
          db.select().from(shipmentCards).where(inArray(shipmentCards.shipmentId, ids)).orderBy(asc(shipmentCards.id)),
          db.select().from(shipmentEvents).where(inArray(shipmentEvents.shipmentId, ids)).orderBy(asc(shipmentEvents.createdAt), asc(shipmentEvents.seq)),
        ])
      : [[], []];
    return {
      addresses: addresses.map((a) => ({
        id: a.id,
        name: a.name,
        line1: a.line1,
        line2: a.line2,
        city: a.city,
        region: a.region,
        postalCode: a.postalCode,
        country: a.country,
        phone: a.phone,
        isDefault: a.isDefault,
        archivedAt: a.archivedAt?.toISOString() ?? null,
        createdAt: a.createdAt.toISOString(),
      })),
      shipments: rows.map((s) => ({
        id: s.id,
        reference: `SH-${s.seq}`,
        status: s.status,
        address: s.address,
        cardCount: s.cardCount,
        declaredValueCents: s.declaredValueCents,
        insured: s.insured,
        feeCents: s.feeCents,
        refundedCents: s.refundedCents,
        carrier: s.carrier,
        trackingNumber: s.trackingNumber,
        createdAt: s.createdAt.toISOString(),
        cards: cardRows.filter((c) => c.shipmentId === s.id).map((c) => ({ ownedCardId: c.ownedCardId, cardId: c.cardId, valueCents: c.valueCents })),
        events: events
          .filter((e) => e.shipmentId === s.id)
          .map((e) => ({ type: e.type, byYou: e.actorId === id, note: e.note, at: e.createdAt.toISOString() })),
      })),
    };
  },
  async erase(tx, { id }) {
    await tx.update(shipments).set({ address: ERASED, addressId: null }).where(eq(shipments.userId, id));
    await tx.delete(shippingAddresses).where(eq(shippingAddresses.userId, id));
    // The user's own timeline lines stay (kept shipment) but no longer name them.
    await tx.update(shipmentEvents).set({ actorId: null }).where(eq(shipmentEvents.actorId, id));
  },
};
