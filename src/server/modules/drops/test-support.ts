import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { AdminDrop, CreateDropInput } from '../../../shared/contracts/drops.ts';
import type { TestContext } from '../../test/harness.ts';
import { reconcileStock } from '../inventory/service.ts';
import { reconcileMoney } from '../wallet/books.ts';
import type { MoneyTestContext } from '../wallet/test-support.ts';

export const HOUR = 3_600_000;

export function dropInput(cardId: string, over: Partial<CreateDropInput> = {}): Record<string, unknown> {
  return {
    title: 'Daily drop',
    description: 'A free card',
    opensAt: new Date(Date.now() - 1000).toISOString(),
    closesAt: new Date(Date.now() + HOUR).toISOString(),
    winnerCount: 1,
    prizes: [{ cardId, quantity: 1 }],
    ...over,
  };
}

export async function createDrop(t: MoneyTestContext, admin: string, input: Record<string, unknown>): Promise<AdminDrop> {
  const res = await t.as(admin).post('/api/admin/drops', input);
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { drop: AdminDrop }).drop;
}

/** Test set-up: moves a drop's window into the past, as if its close time had passed. */
export async function pastClose(t: TestContext, dropId: string) {
  await t.deps.dbh.query(sql`update drops set opens_at = now() - interval '2 hours', closes_at = now() - interval '1 second' where id = ${dropId}::uuid`);
}

/** Money and stock both reconcile (ADR 0010, 0011). */
export async function booksReconcile(t: TestContext) {
  const stock = await reconcileStock(t.deps.db);
  expect(stock.ok, JSON.stringify(stock.details.sample)).toBe(true);
  const money = await reconcileMoney(t.deps.db);
  expect(money.ok, JSON.stringify(money)).toBe(true);
}
