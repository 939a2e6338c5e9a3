import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { OpenResult } from '../../../shared/contracts/shop.ts';
import { idempotencyKeys } from '../../db/schema/platform.ts';
import { CLEAN, fund, liveProduct, makeCatalog, shopInvariants } from '../shop/test-support.ts';
import { ledgerInvariants, moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';

/**
 * A sale and a buy-and-open of one user take their locks in one order (balance, then cards), so
 * they queue instead of deadlocking. The crash test (scripts/crash-test.ts) once got a 500 from a
 * sale: the one-statement opening locked its cards before the balance, the sale the balance before
 * the cards, and PostgreSQL aborted the sale. Here the interleaving is forced: a third transaction
 * holds one of the two cards the opening draws, so the opening stops between its cards while the
 * sale takes the balance and waits on the other card. PostgreSQL only (PGlite runs one
 * transaction at a time).
 */
const onPostgres = inject('dbKind') === 'postgres';

let t: MoneyTestContext;
let user: string;
let productId: string;
let low: string;
let high: string;

beforeAll(async () => {
  t = await moneyTestContext({ logLevel: 'error' });
  // The owner: this pack gives back more than its price, which only the owner sets (ADR 0024).
  const admin = await t.makeUser({ role: 'owner' });
  const cat = await makeCatalog(t, [
    { name: 'First', cards: [{ value: 100, stock: 1000 }] },
    { name: 'Second', cards: [{ value: 200, stock: 1000 }] },
  ]);
  // One card per class: every pack draws exactly these two, and locks them in id order.
  [low, high] = [cat.cards.First![0]!, cat.cards.Second![0]!].sort() as [string, string];
  ({ productId } = await liveProduct(t, admin, {
    name: 'Two Cards',
    priceCents: 100,
    slots: [{ odds: [{ classId: cat.classes.First!, weight: 1 }] }, { odds: [{ classId: cat.classes.Second!, weight: 1 }] }],
  }));
  user = await t.makeUser();
  await fund(t, user, 100_000);
});
afterAll(() => t.close());

const open = (key = randomUUID()) => t.as(user).post('/api/shop/open', { productId, quantity: 1 }, { 'Idempotency-Key': key });

/** The one-statement path stores a pointer to its purchase with the key; the general path the whole answer. */
async function storedBody(key: string) {
  const [row] = await t.deps.db
    .select({ body: idempotencyKeys.responseBody })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, user), eq(idempotencyKeys.key, key)));
  return row?.body;
}

async function waitingOnLocks(n: number) {
  for (let i = 0; i < 200; i++) {
    const [row] = await t.deps.dbh.query<{ n: string }>(
      sql`select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if (Number(row!.n) >= n) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`expected ${n} backend(s) waiting on a lock`);
}

describe.skipIf(!onPostgres)('a sale racing a buy-and-open of the same user', () => {
  it('waits for the opening instead of deadlocking', async () => {
    // Warm the one-statement path's caches (product, seed, pool), and own a copy of the low card.
    await open();
    const key = randomUUID();
    const warm = await open(key);
    expect(warm.status).toBe(201);
    expect(await storedBody(key), 'the opening under test takes the one-statement path').toHaveProperty('openedPurchaseId');
    const lowCopy = ((await warm.json()) as OpenResult).openings[0]!.cards.find((c) => c.id === low)!.ownedCardId;

    let release!: () => void;
    let held!: () => void;
    const isHeld = new Promise<void>((r) => (held = r));
    const holder = t.deps.db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from cards where id = ${high} for update`);
      held();
      await new Promise<void>((r) => (release = r));
    });
    await isHeld;

    const openKey = randomUUID();
    const opening = open(openKey); // takes its first locks, then waits on the high card
    await waitingOnLocks(1);
    const sale = t.as(user).post('/api/buyback', { ownedCardIds: [lowCopy] }, { 'Idempotency-Key': randomUUID() });
    await waitingOnLocks(2);
    release();
    await holder;

    const [o, s] = await Promise.all([opening, sale]);
    expect({ open: o.status, sale: s.status }).toEqual({ open: 201, sale: 201 });
    expect(await storedBody(openKey), 'the racing opening also took the one-statement path').toHaveProperty('openedPurchaseId');
    expect(await shopInvariants(t)).toEqual(CLEAN);
    expect((await ledgerInvariants(t)).mismatched).toEqual([]);
  });
});
