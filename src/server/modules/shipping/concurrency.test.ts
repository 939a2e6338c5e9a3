import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { CreateShipmentResult } from '../../../shared/contracts/shipping.ts';
import { shipments } from '../../db/schema/shipping.ts';
import { ledgerEntries } from '../../db/schema/wallet.ts';
import { statusesOf } from '../buyback/test-support.ts';
import { reconcileStock } from '../inventory/service.ts';
import { getBalance } from '../wallet/service.ts';
import { ledgerInvariants, moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';
import { ship, shipOk, shipper } from './test-support.ts';

// Real parallelism needs PostgreSQL (PGlite runs one statement at a time).
const onPostgres = inject('dbKind') === 'postgres';

describe.runIf(onPostgres)('shipping races on PostgreSQL', () => {
  let t: MoneyTestContext;
  let admin: string;
  beforeAll(async () => {
    t = await moneyTestContext();
    admin = await t.makeUser({ role: 'admin' });
  });
  afterAll(() => t?.close());

  it('many shipments for the same cards at once: exactly one wins, only it is charged', async () => {
    for (let round = 0; round < 5; round++) {
      const { userId, owned, address } = await shipper(t, { count: 3 });
      // Overlapping selections: every request contains owned[0].
      const bodies = [
        { ownedCardIds: owned, addressId: address.id },
        { ownedCardIds: [owned[0]], addressId: address.id },
        { ownedCardIds: [owned[0], owned[1]], addressId: address.id },
        { ownedCardIds: [owned[2], owned[0]], addressId: address.id },
        { ownedCardIds: owned, addressId: address.id },
        { ownedCardIds: [owned[0]], addressId: address.id },
      ];
      const res = await Promise.all(bodies.map((b) => ship(t, userId, b)));
      const won = res.filter((r) => r.status === 201);
      expect(won).toHaveLength(1);
      for (const r of res.filter((x) => x.status !== 201)) {
        expect(r.status).toBe(409);
        expect(((await r.json()) as { error: { code: string } }).error.code).toBe('card_unavailable');
      }
      const body = (await won[0]!.json()) as CreateShipmentResult;
      const fees = await t.deps.db.select().from(ledgerEntries).where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.kind, 'shipping_fee')));
      expect(fees).toHaveLength(1);
      expect((await getBalance(t.deps.db, userId)).balanceCents).toBe(10_000 - body.shipment.feeCents);
      const st = await statusesOf(t, owned);
      for (const c of body.shipment.cards) expect(st[c.ownedCardId]).toBe('in_shipment');
      expect(Object.values(st).filter((s) => s === 'in_shipment')).toHaveLength(body.shipment.cardCount);
    }
  });

  it('cancel racing mark-packed: exactly one wins, and the money matches the outcome', async () => {
    const outcomes = { cancelled: 0, packing: 0 };
    for (let round = 0; round < 10; round++) {
      const { userId, owned, address } = await shipper(t, { count: 2 });
      const { shipment } = await shipOk(t, userId, { ownedCardIds: owned, addressId: address.id });
      const [cancel, pack] = await Promise.all([
        t.as(userId).post(`/api/shipping/shipments/${shipment.id}/cancel`),
        t.as(admin).post(`/api/admin/shipping/shipments/${shipment.id}/advance`, { to: 'packing' }),
      ]);
      expect([cancel.status, pack.status].sort()).toEqual([200, 409]);
      const [row] = await t.deps.db.select().from(shipments).where(eq(shipments.id, shipment.id));
      const balance = (await getBalance(t.deps.db, userId)).balanceCents;
      const st = Object.values(await statusesOf(t, owned));
      if (cancel.status === 200) {
        outcomes.cancelled++;
        expect(row!.status).toBe('cancelled');
        expect(balance).toBe(10_000);
        expect(st).toEqual(['in_vault', 'in_vault']);
      } else {
        outcomes.packing++;
        expect(row!.status).toBe('packing');
        expect(balance).toBe(10_000 - shipment.feeCents);
        expect(st).toEqual(['in_shipment', 'in_shipment']);
      }
    }
    expect(outcomes.cancelled + outcomes.packing).toBe(10);
  });

  it('a user cancel racing an admin cancel and a double request with one key: one refund, one charge', async () => {
    const { userId, owned, address } = await shipper(t, { count: 2 });
    const { shipment } = await shipOk(t, userId, { ownedCardIds: [owned[0]], addressId: address.id });
    const res = await Promise.all([
      t.as(userId).post(`/api/shipping/shipments/${shipment.id}/cancel`),
      t.as(admin).post(`/api/admin/shipping/shipments/${shipment.id}/cancel`, { reason: 'Out of packaging' }),
      t.as(userId).post(`/api/shipping/shipments/${shipment.id}/cancel`),
    ]);
    expect(res.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const refunds = await t.deps.db.select().from(ledgerEntries).where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.kind, 'shipping_refund')));
    expect(refunds).toHaveLength(1);

    const key = randomUUID();
    const same = await Promise.all([0, 1, 2].map(() => ship(t, userId, { ownedCardIds: [owned[1]], addressId: address.id }, key)));
    expect(same.filter((r) => r.status === 201)).toHaveLength(3);
    const fees = await t.deps.db.select().from(ledgerEntries).where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.kind, 'shipping_fee')));
    expect(fees).toHaveLength(2);
  });

  it('the books reconcile after the races', async () => {
    expect((await reconcileStock(t.deps.db)).ok).toBe(true);
    expect(await ledgerInvariants(t)).toMatchObject({ mismatched: [], negativeBalances: 0, negativeAfter: 0, orphanLedgers: 0 });
  });
});
