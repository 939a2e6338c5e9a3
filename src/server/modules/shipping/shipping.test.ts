import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Address,
  AdminShipment,
  AdminShipmentList,
  AdminUserShipping,
  BulkAdvanceResult,
  CreateShipmentResult,
  Origin,
  OriginList,
  PickItem,
  PickList,
  Quote,
  Shipment,
  ShipmentList,
  ShippingOptions,
  ShippingSettings,
} from '../../../shared/contracts/shipping.ts';
import { DEFAULT_SHIPPING_SETTINGS } from '../../../shared/contracts/shipping.ts';
import { auditLog } from '../../db/schema/audit.ts';
import { user } from '../../db/schema/auth.ts';
import { mailMessages } from '../../db/schema/mail.ts';
import { shippingAddresses } from '../../db/schema/shipping.ts';
import { ledgerEntries } from '../../db/schema/wallet.ts';
import { giveCards, statusesOf } from '../buyback/test-support.ts';
import { moveCopies, reconcileStock } from '../inventory/service.ts';
import type { BusEvent } from '../realtime/bus.ts';
import { getBalance } from '../wallet/service.ts';
import { ledgerInvariants, moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';
import { addAddress, fund, ship, shipOk, shipper, US_ADDRESS } from './test-support.ts';

let t: MoneyTestContext;
let admin: string;
/** Shipping fees are the owner's (ADR 0024). */
let owner: string;
beforeAll(async () => {
  t = await moneyTestContext();
  admin = await t.makeUser({ role: 'admin' });
  owner = await t.makeUser({ role: 'owner' });
});
afterAll(() => t.close());

const balanceOf = async (u: string) => (await getBalance(t.deps.db, u)).balanceCents;
const del = (u: string | null, path: string) => t.request(path, { method: 'DELETE', headers: u ? { 'x-test-user': u } : {} });
const fieldsOf = async (res: Response) => ((await res.json()) as { error: { code: string; fields?: Record<string, string[]> } }).error;
const advance = (id: string, body: Record<string, unknown>) => t.as(admin).post(`/api/admin/shipping/shipments/${id}/advance`, body);

describe('addresses', () => {
  it('adds, lists default first, edits, switches the default, deletes an unused one', async () => {
    const u = await t.makeUser();
    const a = await addAddress(t, u);
    expect(a).toMatchObject({ isDefault: true, archived: false, country: 'US', postalCode: '94105' });
    const b = await addAddress(t, u, { name: 'Work', country: 'gb', postalCode: 'sw1a 1aa', city: 'London', region: '' });
    expect(b).toMatchObject({ isDefault: false, country: 'GB', postalCode: 'SW1A 1AA' });
    const patched = await t.as(u).patch(`/api/shipping/addresses/${b.id}`, { ...US_ADDRESS, name: 'Home 2', line2: 'Apt 4', isDefault: true });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ name: 'Home 2', line2: 'Apt 4', isDefault: true });
    const list = (await (await t.as(u).get('/api/shipping/addresses')).json()) as { items: Address[] };
    expect(list.items.map((x) => [x.id, x.isDefault])).toEqual([
      [b.id, true],
      [a.id, false],
    ]);
    expect((await t.as(u).post(`/api/shipping/addresses/${a.id}/default`)).status).toBe(200);
    const del1 = await del(u, `/api/shipping/addresses/${a.id}`);
    expect(await del1.json()).toEqual({ id: a.id, outcome: 'deleted' });
    // The remaining one became the default.
    const after = (await (await t.as(u).get('/api/shipping/addresses')).json()) as { items: Address[] };
    expect(after.items).toHaveLength(1);
    expect(after.items[0]).toMatchObject({ id: b.id, isDefault: true });
  });

  it('refuses bad input with field messages and changes nothing', async () => {
    const u = await t.makeUser();
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ ...US_ADDRESS, name: '', line1: '  ', city: '', phone: '' }, ['name', 'line1', 'city', 'phone']],
      [{ ...US_ADDRESS, line1: 'x'.repeat(10_000) }, ['line1']],
      [{ ...US_ADDRESS, name: 'Ada 😀' }, ['name']],
      [{ ...US_ADDRESS, city: 'San\u0000Francisco' }, ['city']],
      [{ ...US_ADDRESS, postalCode: '123' }, ['postalCode']],
      [{ ...US_ADDRESS, country: 'GB', postalCode: '94105' }, ['postalCode']],
      [{ ...US_ADDRESS, country: 'ZZ' }, ['country']],
      [{ ...US_ADDRESS, phone: 'call me' }, ['phone']],
    ];
    for (const [body, fields] of cases) {
      const res = await t.as(u).post('/api/shipping/addresses', body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      const err = await fieldsOf(res);
      for (const f of fields) expect(err.fields?.[f], f).toBeTruthy();
    }
    // A real country the shop does not ship to (not in the settings): 400 naming the country.
    const se = await t.as(u).post('/api/shipping/addresses', { ...US_ADDRESS, country: 'SE', postalCode: '114 55' });
    expect(se.status).toBe(400);
    expect((await fieldsOf(se)).fields?.country?.[0]).toMatch(/do not ship to Sweden/);
    expect(await t.deps.db.select().from(shippingAddresses).where(eq(shippingAddresses.userId, u))).toHaveLength(0);
  });

  it("another user's address is 404 for every write", async () => {
    const owner = await t.makeUser();
    const other = await t.makeUser();
    const a = await addAddress(t, owner);
    expect((await t.as(other).patch(`/api/shipping/addresses/${a.id}`, US_ADDRESS)).status).toBe(404);
    expect((await t.as(other).post(`/api/shipping/addresses/${a.id}/default`)).status).toBe(404);
    expect((await del(other, `/api/shipping/addresses/${a.id}`)).status).toBe(404);
    expect((await del(other, '/api/shipping/addresses/not-an-id')).status).toBe(404);
    const [row] = await t.deps.db.select().from(shippingAddresses).where(eq(shippingAddresses.id, a.id));
    expect(row?.name).toBe(US_ADDRESS.name);
  });
});

describe('settings and quote', () => {
  it('options show the fees and countries; an admin changes them (audited); bad settings are 400', async () => {
    const u = await t.makeUser();
    const opts = (await (await t.as(u).get('/api/shipping/options')).json()) as ShippingOptions;
    expect(opts).toMatchObject({ baseFeeCents: 500, perCardFeeCents: 50, maxCards: 500 });
    expect(opts.countryOptions.find((c) => c.code === 'JP')?.name).toBe('Japan');

    const bad = await t.as(owner).put('/api/admin/shipping/settings', { ...DEFAULT_SHIPPING_SETTINGS, baseFeeCents: -1, countries: ['US', 'US'] });
    expect(bad.status).toBe(400);
    expect(Object.keys((await fieldsOf(bad)).fields ?? {})).toEqual(expect.arrayContaining(['baseFeeCents', 'countries']));
    expect((await t.as(u).put('/api/admin/shipping/settings', DEFAULT_SHIPPING_SETTINGS)).status).toBe(403);

    const next: ShippingSettings = { ...DEFAULT_SHIPPING_SETTINGS, countries: [...DEFAULT_SHIPPING_SETTINGS.countries, 'SE'] };
    const put = await t.as(owner).put('/api/admin/shipping/settings', next);
    expect(put.status).toBe(200);
    expect(((await (await t.as(admin).get('/api/admin/shipping/settings')).json()) as ShippingSettings).countries).toContain('SE');
    expect((await t.as(u).post('/api/shipping/addresses', { ...US_ADDRESS, country: 'SE', postalCode: '114 55' })).status).toBe(201);
    const audited = await t.deps.db.select().from(auditLog).where(eq(auditLog.action, 'shipping.settings.update'));
    expect(audited.length).toBeGreaterThan(0);
    await t.as(owner).put('/api/admin/shipping/settings', DEFAULT_SHIPPING_SETTINGS);
  });

  it('quotes base + per card + insurance on the declared value, and the shortfall', async () => {
    const { userId, owned } = await shipper(t, { count: 3, valueCents: 10_000, funds: 500 });
    const plain = (await (await t.as(userId).post('/api/shipping/quote', { ownedCardIds: owned })).json()) as Quote;
    expect(plain).toMatchObject({ cardCount: 3, declaredValueCents: 30_000, baseFeeCents: 500, cardsFeeCents: 150, insuranceCents: 0, feeCents: 650, balanceCents: 500, shortfallCents: 150 });
    const insured = (await (await t.as(userId).post('/api/shipping/quote', { ownedCardIds: owned, insured: true })).json()) as Quote;
    expect(insured).toMatchObject({ insuranceCents: 450, feeCents: 1100 }); // 1.5% of $300
  });
});

describe('requesting a shipment', () => {
  it('charges the fee and moves the cards in one go; audited, pushed live and mailed; a replay charges once', async () => {
    const { userId, owned, address } = await shipper(t, { count: 2 });
    const events: BusEvent[] = [];
    const off = t.deps.bus.subscribe((e) => events.push(e));
    const key = randomUUID();
    const res = await ship(t, userId, { ownedCardIds: owned, addressId: address.id, expectedFeeCents: 600 }, key);
    expect(res.status).toBe(201);
    const body = (await res.json()) as CreateShipmentResult;
    expect(body.balanceCents).toBe(10_000 - 600);
    expect(body.shipment).toMatchObject({ status: 'requested', cardCount: 2, feeCents: 600, canCancel: true, declaredValueCents: 2000 });
    expect(body.shipment.reference).toMatch(/^SH-\d+$/);
    expect(body.shipment.address).toMatchObject({ name: US_ADDRESS.name, postalCode: '94105' });
    expect(body.shipment.cards).toHaveLength(2);
    expect(body.shipment.origin?.id).toBeTruthy();
    expect(body.shipment.events.map((e) => e.type)).toEqual(['requested']);
    expect(Object.values(await statusesOf(t, owned))).toEqual(['in_shipment', 'in_shipment']);

    const replay = await ship(t, userId, { ownedCardIds: owned, addressId: address.id, expectedFeeCents: 600 }, key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await balanceOf(userId)).toBe(9_400);
    const fees = await t.deps.db.select().from(ledgerEntries).where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.kind, 'shipping_fee')));
    expect(fees).toHaveLength(1);
    expect(fees[0]!.amountCents).toBe(-600);

    for (let i = 0; i < 40 && !events.some((e) => e.type === 'shipment.updated'); i++) await new Promise((r) => setTimeout(r, 50));
    off();
    expect(events.find((e) => e.type === 'shipment.updated')).toMatchObject({ topic: `user:${userId}`, data: { shipmentId: body.shipment.id, status: 'requested' } });
    const mails = await t.deps.db.select().from(mailMessages).where(and(eq(mailMessages.to, `${userId}@example.test`), eq(mailMessages.kind, 'shipment-status')));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain(body.shipment.reference);
    expect(await t.deps.db.select().from(auditLog).where(and(eq(auditLog.action, 'shipment.request'), eq(auditLog.targetId, body.shipment.id)))).toHaveLength(1);

    // The address it used can no longer be deleted: it is archived.
    const d = await del(userId, `/api/shipping/addresses/${address.id}`);
    expect(await d.json()).toEqual({ id: address.id, outcome: 'archived' });
    const detail = (await (await t.as(userId).get(`/api/shipping/shipments/${body.shipment.id}`)).json()) as Shipment;
    expect(detail.addressId).toBe(address.id);
  });

  it('refuses an empty list, 10,000 cards, duplicates, no key, a bad address with 400, changing nothing', async () => {
    const { userId, owned, address } = await shipper(t, { count: 1 });
    const dup = owned[0]!;
    const many = Array.from({ length: 10_000 }, () => randomUUID());
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ownedCardIds: [], addressId: address.id }, 'ownedCardIds'],
      [{ ownedCardIds: many, addressId: address.id }, 'ownedCardIds'],
      [{ ownedCardIds: [dup, dup], addressId: address.id }, 'ownedCardIds'],
      [{ ownedCardIds: ['nope'], addressId: address.id }, 'ownedCardIds.0'],
      [{ ownedCardIds: [dup] }, 'addressId'],
      [{ ownedCardIds: [dup], addressId: randomUUID() }, 'addressId'],
    ];
    for (const [body, field] of cases) {
      const res = await ship(t, userId, body);
      expect(res.status, field).toBe(400);
      expect((await fieldsOf(res)).fields?.[field], field).toBeTruthy();
    }
    const noKey = await t.as(userId).post('/api/shipping/shipments', { ownedCardIds: [dup], addressId: address.id });
    expect(noKey.status).toBe(400);
    expect(await balanceOf(userId)).toBe(10_000);
    expect(await statusesOf(t, owned)).toEqual({ [dup]: 'in_vault' });
  });

  it('409 card_unavailable for a card in a shipment, sold back or someone else\'s; nothing charged', async () => {
    const { userId, owned, address, card } = await shipper(t, { count: 3 });
    await shipOk(t, userId, { ownedCardIds: [owned[0]], addressId: address.id });
    await t.deps.db.transaction((tx) => moveCopies(tx, 'sellBack', { ids: [owned[1]!], actorId: userId }));
    const stranger = await t.makeUser();
    const [theirs] = await giveCards(t, stranger, card.id, 1);
    const before = await balanceOf(userId);
    for (const ids of [[owned[0], owned[2]], [owned[1], owned[2]], [theirs, owned[2]], [randomUUID()]]) {
      const res = await ship(t, userId, { ownedCardIds: ids, addressId: address.id });
      expect(res.status).toBe(409);
      const err = await fieldsOf(res);
      expect(err.code).toBe('card_unavailable');
      expect(err.fields?.ownedCardIds?.length).toBe(1);
    }
    expect(await balanceOf(userId)).toBe(before);
    expect((await statusesOf(t, [owned[2]!]))[owned[2]!]).toBe('in_vault');
    expect((await statusesOf(t, [theirs!]))[theirs!]).toBe('in_vault');
  });

  it('409 insufficient_funds when the balance is short (a deposit is offered), 409 quote_changed, 403 unverified', async () => {
    const { userId, owned, address } = await shipper(t, { count: 2, funds: 100 });
    const res = await ship(t, userId, { ownedCardIds: owned, addressId: address.id });
    expect(res.status).toBe(409);
    expect((await fieldsOf(res)).code).toBe('insufficient_funds');
    expect(Object.values(await statusesOf(t, owned))).toEqual(['in_vault', 'in_vault']);
    expect(await balanceOf(userId)).toBe(100);
    await fund(t, userId, 1000);
    const changed = await ship(t, userId, { ownedCardIds: owned, addressId: address.id, expectedFeeCents: 1 });
    expect((await fieldsOf(changed)).code).toBe('quote_changed');
    const unverified = await t.makeUser({ verified: false });
    expect((await ship(t, unverified, { ownedCardIds: owned, addressId: address.id })).status).toBe(403);
  });

  it('400 when the address country is no longer shipped to', async () => {
    const { userId, owned, address } = await shipper(t, { count: 1 });
    await t.as(owner).put('/api/admin/shipping/settings', { ...DEFAULT_SHIPPING_SETTINGS, countries: ['GB'] });
    try {
      const res = await ship(t, userId, { ownedCardIds: owned, addressId: address.id });
      expect(res.status).toBe(400);
      expect((await fieldsOf(res)).fields?.addressId?.[0]).toMatch(/United States/);
    } finally {
      await t.as(owner).put('/api/admin/shipping/settings', DEFAULT_SHIPPING_SETTINGS);
    }
    expect(await balanceOf(userId)).toBe(10_000);
  });
});

describe("a shipment's life", () => {
  it('the user lists and reads their own; another user gets 404', async () => {
    const { userId, owned, address } = await shipper(t, { count: 1 });
    const { shipment } = await shipOk(t, userId, { ownedCardIds: owned, addressId: address.id });
    const list = (await (await t.as(userId).get('/api/shipping/shipments')).json()) as ShipmentList;
    expect(list.items.map((s) => s.id)).toEqual([shipment.id]);
    expect((await t.as(userId).get('/api/shipping/shipments?status=bogus')).status).toBe(400);
    const other = await t.makeUser();
    expect((await t.as(other).get(`/api/shipping/shipments/${shipment.id}`)).status).toBe(404);
    expect((await t.as(other).post(`/api/shipping/shipments/${shipment.id}/cancel`)).status).toBe(404);
    expect(((await (await t.as(other).get('/api/shipping/shipments')).json()) as ShipmentList).items).toEqual([]);
  });

  it('a user cancel while requested refunds the fee and returns the cards; a second cancel is 409', async () => {
    const { userId, owned, address } = await shipper(t, { count: 2 });
    const { shipment } = await shipOk(t, userId, { ownedCardIds: owned, addressId: address.id });
    expect(await balanceOf(userId)).toBe(9_400);
    const res = await t.as(userId).post(`/api/shipping/shipments/${shipment.id}/cancel`);
    expect(res.status).toBe(200);
    const s = (await res.json()) as Shipment;
    expect(s).toMatchObject({ status: 'cancelled', refundedCents: 600, canCancel: false });
    expect(s.events.map((e) => e.type)).toEqual(['requested', 'cancelled', 'refunded']);
    expect(await balanceOf(userId)).toBe(10_000);
    expect(Object.values(await statusesOf(t, owned))).toEqual(['in_vault', 'in_vault']);
    const again = await t.as(userId).post(`/api/shipping/shipments/${shipment.id}/cancel`);
    expect(again.status).toBe(409);
    expect((await fieldsOf(again)).code).toBe('invalid_shipment_state');
    expect(await balanceOf(userId)).toBe(10_000);
    // The cards can ship again.
    await shipOk(t, userId, { ownedCardIds: owned, addressId: address.id });
  });

  it('an admin advances requested → packing → shipped (tracking) → delivered; the user cannot cancel once packing; steps cannot be skipped', async () => {
    const { userId, owned, address } = await shipper(t, { count: 2 });
    const { shipment } = await shipOk(t, userId, { ownedCardIds: owned, addressId: address.id });
    expect((await advance(shipment.id, { to: 'shipped', carrier: 'ups', trackingNumber: '1Z999AA10123456784' })).status).toBe(409);
    expect((await advance(shipment.id, { to: 'packing' })).status).toBe(200);
    const userCancel = await t.as(userId).post(`/api/shipping/shipments/${shipment.id}/cancel`);
    expect(userCancel.status).toBe(409);
    const noTracking = await advance(shipment.id, { to: 'shipped' });
    expect(noTracking.status).toBe(400);
    expect(Object.keys((await fieldsOf(noTracking)).fields ?? {})).toEqual(expect.arrayContaining(['carrier', 'trackingNumber']));
    const shipped = await advance(shipment.id, { to: 'shipped', carrier: 'usps', trackingNumber: '9400 1000 0000 0000 0000 00' });
    expect(shipped.status).toBe(200);
    const s1 = (await shipped.json()) as AdminShipment;
    expect(s1).toMatchObject({ status: 'shipped', carrier: 'usps', nextStatus: 'delivered', canResolve: true, canCancel: false });
    expect(s1.trackingUrl).toMatch(/^https:\/\/tools\.usps\.com\//);
    expect(Object.values(await statusesOf(t, owned))).toEqual(['shipped', 'shipped']);
    const cancelShipped = await t.as(admin).post(`/api/admin/shipping/shipments/${shipment.id}/cancel`, { reason: 'changed my mind' });
    expect(cancelShipped.status).toBe(409);
    const delivered = (await (await advance(shipment.id, { to: 'delivered', note: 'Signed by A.L.' })).json()) as AdminShipment;
    expect(delivered).toMatchObject({ status: 'delivered', nextStatus: null });
    expect(delivered.events.map((e) => e.type)).toEqual(['requested', 'packing', 'shipped', 'delivered']);
    expect(delivered.events[1]!.actor).toMatchObject({ id: admin, role: 'admin' });
    // The customer's timeline names the shop, never the staff member (issue 39).
    const mine = await t.as(userId).get(`/api/shipping/shipments/${shipment.id}`);
    const customerView = JSON.stringify(await mine.json());
    expect(customerView).not.toContain(admin);
    const [staff] = await t.deps.db.select({ username: user.username }).from(user).where(eq(user.id, admin));
    expect(customerView).not.toContain(`"${staff!.username}"`);
    const mineEvents = (JSON.parse(customerView) as Shipment).events;
    expect(mineEvents.find((e) => e.type === 'packing')!.actor).toEqual({ id: null, username: 'Packvault', role: 'admin' });
    expect(Object.values(await statusesOf(t, owned))).toEqual(['delivered', 'delivered']);
    expect((await advance(shipment.id, { to: 'delivered' })).status).toBe(409);
    const audits = await t.deps.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.targetId, shipment.id));
    expect(audits.map((a) => a.action)).toEqual(expect.arrayContaining(['shipment.packing', 'shipment.shipped', 'shipment.delivered']));
    expect(await balanceOf(userId)).toBe(9_400);
  });

  it('an admin cancels a packing shipment with a reason: same effects as the user\'s; advancing it then is 409', async () => {
    const { userId, owned, address } = await shipper(t, { count: 1 });
    const { shipment } = await shipOk(t, userId, { ownedCardIds: owned, addressId: address.id });
    await advance(shipment.id, { to: 'packing' });
    expect((await t.as(admin).post(`/api/admin/shipping/shipments/${shipment.id}/cancel`, { reason: '' })).status).toBe(400);
    const res = await t.as(admin).post(`/api/admin/shipping/shipments/${shipment.id}/cancel`, { reason: 'Card damaged on the shelf' });
    expect(res.status).toBe(200);
    const s = (await res.json()) as AdminShipment;
    expect(s).toMatchObject({ status: 'cancelled', refundedCents: 550 });
    expect(s.events.find((e) => e.type === 'cancelled')?.note).toBe('Card damaged on the shelf');
    expect(await balanceOf(userId)).toBe(10_000);
    expect(Object.values(await statusesOf(t, owned))).toEqual(['in_vault']);
    const adv = await advance(shipment.id, { to: 'packing' });
    expect(adv.status).toBe(409);
    expect((await fieldsOf(adv)).code).toBe('invalid_shipment_state');
  });

  it('lost with a refund writes the cards off and refunds fee + declared value when insured; returned puts them back', async () => {
    const a = await shipper(t, { count: 2, valueCents: 2000 });
    const { shipment: s1 } = await shipOk(t, a.userId, { ownedCardIds: a.owned, addressId: a.address.id, insured: true });
    // fee 500 + 2×50 + max(100, 1.5% of 4000 = 60) = 700
    expect(s1.feeCents).toBe(700);
    expect((await t.as(admin).post(`/api/admin/shipping/shipments/${s1.id}/resolve`, { outcome: 'lost', resolution: 'refund', reason: 'Carrier says lost' })).status).toBe(409);
    await advance(s1.id, { to: 'packing' });
    await advance(s1.id, { to: 'shipped', carrier: 'dhl', trackingNumber: 'JD014600003828' });
    const lost = await t.as(admin).post(`/api/admin/shipping/shipments/${s1.id}/resolve`, { outcome: 'lost', resolution: 'refund', reason: 'Carrier says lost' });
    expect(lost.status).toBe(200);
    expect(await lost.json()).toMatchObject({ status: 'lost', refundedCents: 4700 });
    expect(await balanceOf(a.userId)).toBe(10_000 - 700 + 4700);
    expect(Object.values(await statusesOf(t, a.owned))).toEqual(['lost', 'lost']);

    const b = await shipper(t, { count: 1 });
    const { shipment: s2 } = await shipOk(t, b.userId, { ownedCardIds: b.owned, addressId: b.address.id });
    await advance(s2.id, { to: 'packing' });
    await advance(s2.id, { to: 'shipped', carrier: 'royal_mail', trackingNumber: 'AB123456789GB' });
    const back = await t.as(admin).post(`/api/admin/shipping/shipments/${s2.id}/resolve`, { outcome: 'returned', resolution: 'restore_cards', reason: 'Address unknown' });
    expect(await back.json()).toMatchObject({ status: 'returned', refundedCents: 0 });
    expect(Object.values(await statusesOf(t, b.owned))).toEqual(['in_vault']);
    expect(await balanceOf(b.userId)).toBe(10_000 - 550);
    const twice = await t.as(admin).post(`/api/admin/shipping/shipments/${s2.id}/resolve`, { outcome: 'lost', resolution: 'refund', reason: 'again' });
    expect(twice.status).toBe(409);
  });

  it('bulk advance moves each shipment it can and reports the others', async () => {
    const { userId, owned, address } = await shipper(t, { count: 3 });
    const x = (await shipOk(t, userId, { ownedCardIds: [owned[0]], addressId: address.id })).shipment;
    const y = (await shipOk(t, userId, { ownedCardIds: [owned[1]], addressId: address.id })).shipment;
    const z = (await shipOk(t, userId, { ownedCardIds: [owned[2]], addressId: address.id })).shipment;
    await t.as(userId).post(`/api/shipping/shipments/${z.id}/cancel`);
    const res = await t.as(admin).post('/api/admin/shipping/shipments/bulk-advance', { ids: [x.id, y.id, z.id, randomUUID()], to: 'packing' });
    expect(res.status).toBe(200);
    const r = (await res.json()) as BulkAdvanceResult;
    expect(r).toMatchObject({ advanced: 2, failed: 2 });
    expect(r.results.map((i) => i.error?.code ?? i.status)).toEqual(['packing', 'packing', 'invalid_shipment_state', 'not_found']);
    expect((await t.as(admin).post('/api/admin/shipping/shipments/bulk-advance', { ids: [x.id], to: 'shipped' })).status).toBe(400);
    expect((await t.as(admin).post('/api/admin/shipping/shipments/bulk-advance', { ids: [x.id, x.id], to: 'packing' })).status).toBe(400);
  });
});

describe('back office', () => {
  it('the queue is oldest first with counts per status, filtered by status, origin, age and user', async () => {
    const { userId, owned, address } = await shipper(t, { count: 2 });
    const s1 = (await shipOk(t, userId, { ownedCardIds: [owned[0]], addressId: address.id })).shipment;
    const s2 = (await shipOk(t, userId, { ownedCardIds: [owned[1]], addressId: address.id })).shipment;
    await advance(s2.id, { to: 'packing' });
    const q = (await (await t.as(admin).get(`/api/admin/shipping/shipments?userId=${userId}`)).json()) as AdminShipmentList;
    expect(q.items.map((i) => i.id)).toEqual([s1.id, s2.id]);
    expect(q.counts).toMatchObject({ requested: 1, packing: 1, shipped: 0, cancelled: 0 });
    expect(q.items[0]).toMatchObject({ user: { id: userId }, ageDays: 0, pickedCount: 0 });
    const packing = (await (await t.as(admin).get(`/api/admin/shipping/shipments?userId=${userId}&status=packing`)).json()) as AdminShipmentList;
    expect(packing.items.map((i) => i.id)).toEqual([s2.id]);
    const old = (await (await t.as(admin).get(`/api/admin/shipping/shipments?userId=${userId}&minAgeDays=3`)).json()) as AdminShipmentList;
    expect(old.total).toBe(0);
    const byOrigin = (await (await t.as(admin).get(`/api/admin/shipping/shipments?userId=${userId}&originId=${s1.origin!.id}`)).json()) as AdminShipmentList;
    expect(byOrigin.total).toBe(2);
    const byRef = (await (await t.as(admin).get(`/api/admin/shipping/shipments?status=all&q=${s1.reference}`)).json()) as AdminShipmentList;
    expect(byRef.items.map((i) => i.id)).toContain(s1.id);
    expect((await t.as(admin).get('/api/admin/shipping/shipments?minAgeDays=5&maxAgeDays=2')).status).toBe(400);
    expect((await t.as(admin).get('/api/admin/shipping/shipments?status=nope')).status).toBe(400);
    const detail = (await (await t.as(admin).get(`/api/admin/shipping/shipments/${s1.id}`)).json()) as AdminShipment;
    expect(detail).toMatchObject({ id: s1.id, user: { id: userId }, nextStatus: 'packing', canCancel: true });
    expect(detail.cards[0]).toMatchObject({ setName: 'Base Set', shelfLocation: '' });
    expect((await t.as(admin).get(`/api/admin/shipping/shipments/${randomUUID()}`)).status).toBe(404);
  });

  it('origins: add, edit, make default, refuse archiving the default; card locations feed the pick list', async () => {
    const list0 = (await (await t.as(admin).get('/api/admin/shipping/origins')).json()) as OriginList;
    const main = list0.items.find((o) => o.isDefault)!;
    expect(main).toBeTruthy();
    const created = await t.as(admin).post('/api/admin/shipping/origins', { ...US_ADDRESS, name: 'London annex', country: 'GB', postalCode: 'EC1A 1BB', city: 'London' });
    expect(created.status).toBe(201);
    const annex = (await created.json()) as Origin;
    expect(annex).toMatchObject({ isDefault: false, archived: false, cardCount: 0 });
    expect((await t.as(admin).post('/api/admin/shipping/origins', { ...US_ADDRESS, postalCode: 'nope' })).status).toBe(400);
    expect((await t.as(admin).patch(`/api/admin/shipping/origins/${main.id}`, { ...US_ADDRESS, archived: true })).status).toBe(409);
    const edited = await t.as(admin).patch(`/api/admin/shipping/origins/${annex.id}`, { ...US_ADDRESS, name: 'London annex (2)', country: 'GB', postalCode: 'EC1A 1BB', city: 'London' });
    expect(await edited.json()).toMatchObject({ name: 'London annex (2)' });
    expect((await t.as(admin).get(`/api/admin/shipping/origins/${annex.id}`)).status).toBe(200);
    expect((await t.as(admin).get(`/api/admin/shipping/origins/${randomUUID()}`)).status).toBe(404);

    // A card shelved at the annex: its shipment lists it under the annex and shelf.
    const { userId, address, card, owned } = await shipper(t, { count: 1 });
    const loc = await t.as(admin).put(`/api/admin/shipping/cards/${card.id}/location`, { originId: annex.id, shelfLocation: 'B-12' });
    expect(loc.status).toBe(200);
    expect((await t.as(admin).put(`/api/admin/shipping/cards/${card.id}/location`, { originId: randomUUID(), shelfLocation: 'B-12' })).status).toBe(400);
    expect((await t.as(admin).put(`/api/admin/shipping/cards/${randomUUID()}/location`, { originId: annex.id })).status).toBe(404);
    const { shipment } = await shipOk(t, userId, { ownedCardIds: owned, addressId: address.id });
    expect(shipment.origin?.id).toBe(annex.id);
    const pick = (await (await t.as(admin).get(`/api/admin/shipping/pick-list?originId=${annex.id}`)).json()) as PickList;
    expect(pick.groups).toHaveLength(1);
    expect(pick.groups[0]).toMatchObject({ origin: { id: annex.id }, shelfLocation: 'B-12' });
    const item = pick.groups[0]!.items[0]!;
    expect(item).toMatchObject({ shipmentId: shipment.id, picked: false, setName: 'Base Set' });
    const picked = await t.as(admin).post(`/api/admin/shipping/pick-list/${item.shipmentCardId}`, { picked: true });
    expect(((await picked.json()) as PickItem).picked).toBe(true);
    const after = (await (await t.as(admin).get(`/api/admin/shipping/pick-list?originId=${annex.id}`)).json()) as PickList;
    expect(after).toMatchObject({ total: 1, picked: 1 });
    expect((await t.as(admin).post(`/api/admin/shipping/pick-list/${item.shipmentCardId}`, {})).status).toBe(400);
    expect((await t.as(admin).post(`/api/admin/shipping/pick-list/${randomUUID()}`, { picked: true })).status).toBe(404);

    // Making the annex the default keeps every other card where it was.
    const def = await t.as(admin).post(`/api/admin/shipping/origins/${annex.id}/default`);
    expect(await def.json()).toMatchObject({ id: annex.id, isDefault: true });
    const list1 = (await (await t.as(admin).get('/api/admin/shipping/origins')).json()) as OriginList;
    expect(list1.items.filter((o) => o.isDefault).map((o) => o.id)).toEqual([annex.id]);
    expect(list1.items.find((o) => o.id === main.id)!.cardCount).toBeGreaterThan(0);
    await t.as(admin).post(`/api/admin/shipping/origins/${main.id}/default`);
    // Shipping it clears it off the pick list; checking it off then is 409.
    await advance(shipment.id, { to: 'packing' });
    await advance(shipment.id, { to: 'shipped', carrier: 'other', trackingNumber: 'ABC123' });
    expect((await t.as(admin).post(`/api/admin/shipping/pick-list/${item.shipmentCardId}`, { picked: false })).status).toBe(409);
  });

  it("a user's addresses (archived too) and shipments", async () => {
    const { userId, owned, address } = await shipper(t, { count: 1 });
    await shipOk(t, userId, { ownedCardIds: owned, addressId: address.id });
    await del(userId, `/api/shipping/addresses/${address.id}`);
    const r = (await (await t.as(admin).get(`/api/admin/shipping/users/${userId}`)).json()) as AdminUserShipping;
    expect(r.addresses).toMatchObject([{ id: address.id, archived: true, shipmentCount: 1 }]);
    expect(r.shipments).toHaveLength(1);
    expect((await t.as(admin).get('/api/admin/shipping/users/nobody-here')).status).toBe(404);
  });
});

describe('authorization', () => {
  const USER_ROUTES: Array<[string, string]> = [
    ['GET', '/api/shipping/options'],
    ['GET', '/api/shipping/addresses'],
    ['POST', '/api/shipping/addresses'],
    ['PATCH', `/api/shipping/addresses/${randomUUID()}`],
    ['POST', `/api/shipping/addresses/${randomUUID()}/default`],
    ['DELETE', `/api/shipping/addresses/${randomUUID()}`],
    ['POST', '/api/shipping/quote'],
    ['POST', '/api/shipping/shipments'],
    ['GET', '/api/shipping/shipments'],
    ['GET', `/api/shipping/shipments/${randomUUID()}`],
    ['POST', `/api/shipping/shipments/${randomUUID()}/cancel`],
  ];
  const ADMIN_ROUTES: Array<[string, string]> = [
    ['GET', '/api/admin/shipping/shipments'],
    ['GET', `/api/admin/shipping/shipments/${randomUUID()}`],
    ['POST', `/api/admin/shipping/shipments/${randomUUID()}/advance`],
    ['POST', '/api/admin/shipping/shipments/bulk-advance'],
    ['POST', `/api/admin/shipping/shipments/${randomUUID()}/cancel`],
    ['POST', `/api/admin/shipping/shipments/${randomUUID()}/resolve`],
    ['GET', '/api/admin/shipping/pick-list'],
    ['POST', `/api/admin/shipping/pick-list/${randomUUID()}`],
    ['GET', '/api/admin/shipping/origins'],
    ['POST', '/api/admin/shipping/origins'],
    ['GET', `/api/admin/shipping/origins/${randomUUID()}`],
    ['PATCH', `/api/admin/shipping/origins/${randomUUID()}`],
    ['POST', `/api/admin/shipping/origins/${randomUUID()}/default`],
    ['PUT', `/api/admin/shipping/cards/${randomUUID()}/location`],
    ['GET', '/api/admin/shipping/users/someone'],
    ['GET', '/api/admin/shipping/settings'],
    ['PUT', '/api/admin/shipping/settings'],
  ];
  const call = (method: string, path: string, userId: string | null) =>
    t.request(path, { method, headers: userId ? { 'x-test-user': userId } : {}, ...(method === 'GET' || method === 'DELETE' ? {} : { json: {} }) });

  it('every route is registered and answers 401 to an anonymous request', async () => {
    const registered = new Set(t.app.routes.filter((r) => r.path.includes('shipping')).map((r) => `${r.method} ${r.path}`));
    expect(registered.size).toBe(USER_ROUTES.length + ADMIN_ROUTES.length);
    for (const [method, path] of [...USER_ROUTES, ...ADMIN_ROUTES]) expect((await call(method, path, null)).status, `${method} ${path}`).toBe(401);
  });

  it('admin routes: 403 admin_role_required to a user, mfa_required to an admin without a second factor', async () => {
    const u = await t.makeUser();
    const noMfa = await t.makeUser({ role: 'admin', mfa: false });
    for (const [method, path] of ADMIN_ROUTES) {
      const r1 = await call(method, path, u);
      expect([r1.status, (await fieldsOf(r1)).code], `${method} ${path}`).toEqual([403, 'admin_role_required']);
      const r2 = await call(method, path, noMfa);
      expect([r2.status, (await fieldsOf(r2)).code], `${method} ${path}`).toEqual([403, 'mfa_required']);
    }
  });
});

describe('the books', () => {
  it('money and stock reconcile after everything above', async () => {
    expect((await reconcileStock(t.deps.db)).ok).toBe(true);
    const inv = await ledgerInvariants(t);
    expect(inv).toMatchObject({ mismatched: [], negativeBalances: 0, negativeAfter: 0, orphanLedgers: 0 });
  });
});
