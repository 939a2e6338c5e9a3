import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idempotencyKeys } from '../db/schema/platform.ts';
import { buybacks } from '../db/schema/buyback.ts';
import { deposits } from '../db/schema/payments.ts';
import { promoRedemptions } from '../db/schema/promo.ts';
import { purchases } from '../db/schema/shop.ts';
import { shipments } from '../db/schema/shipping.ts';
import { giveCards, makeCard, makeClass } from '../modules/buyback/test-support.ts';
import { addAddress } from '../modules/shipping/test-support.ts';
import { fund, liveProduct, makeCatalog, slots } from '../modules/shop/test-support.ts';
import { getBalance } from '../modules/wallet/service.ts';
import { ledgerInvariants, moneyTestContext, type MoneyTestContext } from '../modules/wallet/test-support.ts';

/**
 * Issue 38, "a double-click buys once": on every endpoint that moves money, the Idempotency-Key is
 * the user's intent. The same key with the same request answers the first result and charges once,
 * even when both arrive at once; the same key with another request is 409 `idempotency_conflict`
 * and writes nothing (the "a buy whose key is reused with a different quantity").
 */

let t: MoneyTestContext;
let admin: string;
let productId: string;
let otherProductId: string;

beforeAll(async () => {
  t = await moneyTestContext();
  admin = await t.makeUser({ role: 'owner' });
  const cat = await makeCatalog(t, [{ name: 'Common', cards: [{ value: 50, stock: 5000 }, { value: 80, stock: 5000 }] }]);
  const odds = slots(2, [{ classId: cat.classes.Common!, weight: 100 }]);
  ({ productId } = await liveProduct(t, admin, { name: 'Intent Pack', priceCents: 200, slots: odds }));
  ({ productId: otherProductId } = await liveProduct(t, admin, { name: 'Other Pack', priceCents: 300, slots: odds }));
});
afterAll(() => t.close());

const keyHeader = (key: string) => ({ 'Idempotency-Key': key });

/** The user's wallet lines of a kind (the ledger as the history reads it). */
async function ledgerLines(userId: string, kind: string): Promise<number> {
  const rows = await t.deps.dbh.query<{ n: string }>(sql`select count(*) as n from ledger_entries where user_id = ${userId} and kind = ${kind}`);
  return Number(rows[0]?.n ?? 0);
}

async function keyRows(userId: string, key: string): Promise<number> {
  return (await t.deps.db.select().from(idempotencyKeys).where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)))).length;
}

async function expectConflict(res: Response) {
  expect(res.status).toBe(409);
  const body = (await res.json()) as { error: { code: string; message: string; fields?: Record<string, string[]> } };
  expect(body.error.code).toBe('idempotency_conflict');
  expect(body.error.fields?.['Idempotency-Key']?.[0]).toMatch(/different request/);
}

/**
 * One money endpoint as the suite drives it: `prepare` makes a user ready for one request and
 * returns the request, another request (a changed body, or the same body elsewhere) and what to
 * count: the ledger lines of `kind` and the rows the request makes.
 */
interface MoneyCase {
  name: string;
  kind: string;
  status: number;
  prepare(): Promise<{
    userId: string;
    path: string;
    body: unknown;
    other: { path: string; body: unknown };
    rows(): Promise<number>;
  }>;
}

const shopCase = (name: string, path: string, warm: boolean): MoneyCase => ({
  name,
  kind: 'pack_purchase',
  status: 201,
  async prepare() {
    const userId = await t.makeUser();
    await fund(t, userId, 50_000);
    // A user's first opening creates the seed pair on the general path; after it the one-statement
    // open answers (one-statement-open.ts), so both paths of buy-and-open are covered.
    if (warm) expect((await t.as(userId).post('/api/shop/open', { productId, quantity: 1 }, keyHeader(randomUUID()))).status).toBe(201);
    if (warm) {
      // Warm: the next opening of this user is the one statement, which stores a pointer to its purchase.
      const key = randomUUID();
      expect((await t.as(userId).post('/api/shop/open', { productId, quantity: 1 }, keyHeader(key))).status).toBe(201);
      const [row] = await t.deps.db
        .select({ body: idempotencyKeys.responseBody })
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
      expect(row?.body).toMatchObject({ openedPurchaseId: expect.any(String) });
    }
    const before = await purchaseCount(userId);
    return {
      userId,
      path,
      body: { productId, quantity: 1 },
      other: { path, body: { productId, quantity: 2 } },
      rows: async () => (await purchaseCount(userId)) - before,
    };
  },
});

async function purchaseCount(userId: string) {
  return (await t.deps.db.select().from(purchases).where(eq(purchases.userId, userId))).length;
}

const CASES: MoneyCase[] = [
  shopCase('buy (POST /api/shop/purchases)', '/api/shop/purchases', false),
  shopCase('buy and open, general path (POST /api/shop/open)', '/api/shop/open', false),
  shopCase('buy and open, one statement (POST /api/shop/open)', '/api/shop/open', true),
  {
    name: 'start a deposit (POST /api/wallet/deposits)',
    kind: 'deposit',
    status: 201,
    async prepare() {
      const userId = await t.makeUser();
      return {
        userId,
        path: '/api/wallet/deposits',
        body: { amountCents: 2500 },
        other: { path: '/api/wallet/deposits', body: { amountCents: 5000 } },
        rows: async () => (await t.deps.db.select().from(deposits).where(eq(deposits.userId, userId))).length,
      };
    },
  },
  {
    name: 'pay a deposit (POST /api/payments/sandbox/deposits/{id}/pay)',
    kind: 'deposit',
    status: 200,
    async prepare() {
      const userId = await t.makeUser();
      const started = async (amountCents: number) => {
        const res = await t.as(userId).post('/api/wallet/deposits', { amountCents }, keyHeader(randomUUID()));
        expect(res.status).toBe(201);
        return ((await res.json()) as { deposit: { id: string } }).deposit.id;
      };
      const [first, second] = [await started(2500), await started(5000)];
      return {
        userId,
        path: `/api/payments/sandbox/deposits/${first}/pay`,
        body: {},
        // The same key on another deposit is another request.
        other: { path: `/api/payments/sandbox/deposits/${second}/pay`, body: {} },
        rows: async () => ledgerLines(userId, 'deposit'),
      };
    },
  },
  {
    name: 'sell back (POST /api/buyback)',
    kind: 'buyback',
    status: 201,
    async prepare() {
      const userId = await t.makeUser();
      const cls = await makeClass(t);
      const card = await makeCard(t, { classId: cls.id, valueCents: 1000, stock: 10 });
      const [a, b] = await giveCards(t, userId, card.id, 2);
      return {
        userId,
        path: '/api/buyback',
        body: { ownedCardIds: [a] },
        other: { path: '/api/buyback', body: { ownedCardIds: [b] } },
        rows: async () => (await t.deps.db.select().from(buybacks).where(eq(buybacks.userId, userId))).length,
      };
    },
  },
  {
    name: 'ship (POST /api/shipping/shipments)',
    kind: 'shipping_fee',
    status: 201,
    async prepare() {
      const userId = await t.makeUser();
      await fund(t, userId, 10_000);
      const address = await addAddress(t, userId);
      const cls = await makeClass(t);
      const card = await makeCard(t, { classId: cls.id, valueCents: 1000, stock: 10 });
      const [a, b] = await giveCards(t, userId, card.id, 2);
      return {
        userId,
        path: '/api/shipping/shipments',
        body: { ownedCardIds: [a], addressId: address.id },
        other: { path: '/api/shipping/shipments', body: { ownedCardIds: [a, b], addressId: address.id } },
        rows: async () => (await t.deps.db.select().from(shipments).where(eq(shipments.userId, userId))).length,
      };
    },
  },
  {
    name: 'redeem a promo code (POST /api/wallet/promo/redeem)',
    kind: 'promo_credit',
    status: 200,
    async prepare() {
      const userId = await t.makeUser();
      const codes = [`IDEM${randomUUID().slice(0, 6)}`.toUpperCase(), `IDEM${randomUUID().slice(0, 6)}`.toUpperCase()];
      for (const code of codes) {
        const res = await t.as(admin).post('/api/admin/promo', { code, kind: 'credit', amountCents: 300 });
        expect(res.status).toBe(201);
      }
      return {
        userId,
        path: '/api/wallet/promo/redeem',
        body: { code: codes[0] },
        other: { path: '/api/wallet/promo/redeem', body: { code: codes[1] } },
        rows: async () => (await t.deps.db.select().from(promoRedemptions).where(eq(promoRedemptions.userId, userId))).length,
      };
    },
  },
];

describe.each(CASES)('$name', (c) => {
  it('the same key twice: the first answer again, one charge', async () => {
    const p = await c.prepare();
    const lines = await ledgerLines(p.userId, c.kind);
    const key = randomUUID();
    const first = await t.as(p.userId).post(p.path, p.body, keyHeader(key));
    expect(first.status, await first.clone().text()).toBe(c.status);
    const balance = (await getBalance(t.deps.db, p.userId)).balanceCents;
    const second = await t.as(p.userId).post(p.path, p.body, keyHeader(key));
    expect(second.status).toBe(c.status);
    expect(second.headers.get('Idempotent-Replayed')).toBe('true');
    const [a, b] = [(await first.json()) as Record<string, unknown>, (await second.json()) as Record<string, unknown>];
    // The replay is the stored answer (the open's card looks are re-read, so compare the charge).
    expect(b).toMatchObject(p.path === '/api/shop/open' ? { purchase: a.purchase, balanceCents: a.balanceCents } : a);
    expect(await p.rows()).toBe(1);
    // Starting a deposit moves no money yet: its row is the one thing written.
    expect(await ledgerLines(p.userId, c.kind)).toBe(lines + (c.name.startsWith('start') ? 0 : 1));
    expect((await getBalance(t.deps.db, p.userId)).balanceCents).toBe(balance);
  });

  it('the same key with another request: 409 idempotency_conflict, nothing written', async () => {
    const p = await c.prepare();
    const key = randomUUID();
    expect((await t.as(p.userId).post(p.path, p.body, keyHeader(key))).status).toBe(c.status);
    const balance = (await getBalance(t.deps.db, p.userId)).balanceCents;
    const lines = await ledgerLines(p.userId, c.kind);
    await expectConflict(await t.as(p.userId).post(p.other.path, p.other.body, keyHeader(key)));
    expect(await p.rows()).toBe(1);
    expect(await ledgerLines(p.userId, c.kind)).toBe(lines);
    expect((await getBalance(t.deps.db, p.userId)).balanceCents).toBe(balance);
    expect(await keyRows(p.userId, key)).toBe(1);
    // The first request's answer is still the key's: a retry of it replays.
    const retry = await t.as(p.userId).post(p.path, p.body, keyHeader(key));
    expect(retry.status).toBe(c.status);
    expect(retry.headers.get('Idempotent-Replayed')).toBe('true');
  });

  it('the same key twice at once: one charge, both answered alike', async () => {
    const p = await c.prepare();
    const lines = await ledgerLines(p.userId, c.kind);
    const key = randomUUID();
    const answers = await Promise.all([1, 2, 3].map(() => t.as(p.userId).post(p.path, p.body, keyHeader(key))));
    expect(answers.map((r) => r.status)).toEqual([c.status, c.status, c.status]);
    expect(answers.filter((r) => r.headers.get('Idempotent-Replayed') !== 'true')).toHaveLength(1);
    expect(await p.rows()).toBe(1);
    expect(await ledgerLines(p.userId, c.kind)).toBe(lines + (c.name.startsWith('start') ? 0 : 1));
    const bodies = (await Promise.all(answers.map((r) => r.json()))) as Array<{ purchase?: unknown; balanceCents?: number }>;
    for (const b of bodies.slice(1)) expect(b.purchase ?? b.balanceCents).toEqual(bodies[0]!.purchase ?? bodies[0]!.balanceCents);
    const inv = await ledgerInvariants(t);
    expect(inv.mismatched).toEqual([]);
  });
});

describe('a key is one intent across endpoints', () => {
  it('a buy’s key reused for buy-and-open, or for another product, is refused and writes nothing', async () => {
    const userId = await t.makeUser();
    await fund(t, userId, 10_000);
    const key = randomUUID();
    expect((await t.as(userId).post('/api/shop/purchases', { productId, quantity: 1 }, keyHeader(key))).status).toBe(201);
    await expectConflict(await t.as(userId).post('/api/shop/open', { productId, quantity: 1 }, keyHeader(key)));
    await expectConflict(await t.as(userId).post('/api/shop/purchases', { productId: otherProductId, quantity: 1 }, keyHeader(key)));
    expect(await purchaseCount(userId)).toBe(1);
    expect(await ledgerLines(userId, 'pack_purchase')).toBe(1);
    expect((await getBalance(t.deps.db, userId)).balanceCents).toBe(10_000 - 200);
  });

  it('another user’s key is theirs: the same value charges each user once', async () => {
    const [u1, u2] = [await t.makeUser(), await t.makeUser()];
    await fund(t, u1, 1000);
    await fund(t, u2, 1000);
    const key = randomUUID();
    for (const u of [u1, u2]) {
      const res = await t.as(u).post('/api/shop/purchases', { productId, quantity: 1 }, keyHeader(key));
      expect(res.status).toBe(201);
      expect(res.headers.get('Idempotent-Replayed')).toBeNull();
    }
  });

  it('a refused request stays refused under its key; the next intent (a new key) can succeed', async () => {
    const userId = await t.makeUser();
    await fund(t, userId, 100);
    const key = randomUUID();
    const poor = await t.as(userId).post('/api/shop/purchases', { productId, quantity: 1 }, keyHeader(key));
    expect(poor.status).toBe(409);
    expect((await poor.json()).error.code).toBe('insufficient_funds');
    await fund(t, userId, 1000);
    const replay = await t.as(userId).post('/api/shop/purchases', { productId, quantity: 1 }, keyHeader(key));
    expect(replay.status).toBe(409);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await purchaseCount(userId)).toBe(0);
    expect((await t.as(userId).post('/api/shop/purchases', { productId, quantity: 1 }, keyHeader(randomUUID()))).status).toBe(201);
  });
});
