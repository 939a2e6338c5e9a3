import { randomUUID } from 'node:crypto';
import type { AddressInput } from '../../../shared/contracts/shipping.ts';
import type { Address, CreateShipmentResult } from '../../../shared/contracts/shipping.ts';
import { giveCards, makeCard, makeClass } from '../buyback/test-support.ts';
import { credit } from '../wallet/service.ts';
import type { MoneyTestContext } from '../wallet/test-support.ts';

export const US_ADDRESS: AddressInput = {
  name: 'Ada Lovelace',
  line1: '1 Market Street',
  city: 'San Francisco',
  region: 'CA',
  postalCode: '94105',
  country: 'US',
  phone: '+1 415 555 0101',
};

export const fund = (t: MoneyTestContext, userId: string, cents: number) =>
  t.deps.db.transaction((tx) => credit(tx, { userId, amountCents: cents, kind: 'deposit', referenceType: 'deposit', referenceId: randomUUID() }));

export async function addAddress(t: MoneyTestContext, userId: string, input: Partial<AddressInput> = {}): Promise<Address> {
  const res = await t.as(userId).post('/api/shipping/addresses', { ...US_ADDRESS, ...input });
  if (res.status !== 201) throw new Error(`addAddress: ${res.status} ${await res.text()}`);
  return (await res.json()) as Address;
}

/** A user with money, an address and `count` vault cards worth `valueCents` each. */
export async function shipper(t: MoneyTestContext, opts: { count?: number; valueCents?: number; funds?: number } = {}) {
  const userId = await t.makeUser();
  if ((opts.funds ?? 10_000) > 0) await fund(t, userId, opts.funds ?? 10_000);
  const address = await addAddress(t, userId);
  const cls = await makeClass(t);
  const card = await makeCard(t, { classId: cls.id, valueCents: opts.valueCents ?? 1000, stock: 50 });
  const owned = await giveCards(t, userId, card.id, opts.count ?? 2);
  return { userId, address, card, owned };
}

export async function ship(t: MoneyTestContext, userId: string, body: Record<string, unknown>, key = randomUUID()) {
  return t.as(userId).post('/api/shipping/shipments', body, { 'Idempotency-Key': key });
}

export async function shipOk(t: MoneyTestContext, userId: string, body: Record<string, unknown>): Promise<CreateShipmentResult> {
  const res = await ship(t, userId, body);
  if (res.status !== 201) throw new Error(`ship: ${res.status} ${await res.text()}`);
  return (await res.json()) as CreateShipmentResult;
}
