import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OpenResult, PackSlot, PullEvent, Seeds } from '../../../shared/contracts/shop.ts';
import { verifyOpening } from '../../../shared/fairness.ts';
import { cards } from '../../db/schema/catalog.ts';
import { openings, packs, products } from '../../db/schema/shop.ts';
import { userSeeds } from '../../db/schema/fairness.ts';
import { idempotencyKeys } from '../../db/schema/platform.ts';
import { user } from '../auth/tables.ts';
import { nodeFair } from '../fairness/crypto.ts';
import type { BusEvent } from '../realtime/bus.ts';
import { getBalance } from '../wallet/service.ts';
import { idem, ledgerInvariants, moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';
import { CLEAN, fund, liveProduct, makeCatalog, shopInvariants, slots } from './test-support.ts';

/**
 * Buy-and-open in one statement (one-statement-open.ts): what it guesses from its per-process
 * caches is re-checked by the statement, and any wrong guess ends in the general path's answer.
 * `viaOneStatement` tells the paths apart by what they store with the Idempotency-Key.
 */

let t: MoneyTestContext;
let admin: string;
let cat: Awaited<ReturnType<typeof makeCatalog>>;
let productId: string;
let setSlots: (slots: PackSlot[]) => Promise<Response>;
const events: BusEvent[] = [];
const usualOdds = () =>
  slots(2, [
    { classId: cat.classes.Common!, weight: 70 },
    { classId: cat.classes.Rare!, weight: 30 },
  ]);

beforeAll(async () => {
  t = await moneyTestContext();
  // The owner: this pack gives back more than its price, which only the owner sets (ADR 0024).
  admin = await t.makeUser({ role: 'owner' });
  cat = await makeCatalog(t, [
    { name: 'Common', cards: [{ value: 50, stock: 1000 }, { value: 80, stock: 1000 }, { value: 120, stock: 1000 }] },
    { name: 'Rare', cards: [{ value: 2000, stock: 1000 }, { value: 3000, stock: 1000 }] },
  ]);
  t.deps.bus.subscribe((e) => events.push(e));
  ({ productId, setSlots } = await liveProduct(t, admin, { name: 'Fast Pack', priceCents: 300, slots: usualOdds() }));
});
afterAll(() => t.close());

const open = (u: string, json: unknown, key = idem()) => t.as(u).post('/api/shop/open', json, key);

/** Which path answered: the one statement stores a pointer to its purchase, the general path the whole answer. */
async function viaOneStatement(userId: string, key: string): Promise<boolean> {
  const [row] = await t.deps.db
    .select({ body: idempotencyKeys.responseBody })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
  return typeof (row?.body as { openedPurchaseId?: unknown } | undefined)?.openedPurchaseId === 'string';
}

async function openOk(u: string, quantity = 1) {
  const key = randomUUID();
  const res = await open(u, { productId, quantity }, { 'Idempotency-Key': key });
  expect(res.status).toBe(201);
  return { key, body: (await res.json()) as OpenResult, fast: await viaOneStatement(u, key) };
}

/**
 * A funded user whose last opening took one statement. The first opening of a user takes the
 * general path (it creates the seed pair), and so does one after a change an earlier test made
 * (a product read before it): within three openings the caches must be warm.
 */
async function warmUser(cents = 100_000) {
  const u = await t.makeUser();
  await fund(t, u, cents);
  let fast = false;
  for (let i = 0; i < 3 && !fast; i++) fast = (await openOk(u)).fast;
  expect(fast).toBe(true);
  return u;
}

describe('buy-and-open in one statement', () => {
  it('takes one statement once the caches are warm, and settles money, stock, cards and nonces', async () => {
    const u = await warmUser(10_000);
    const spent = 10_000 - (await getBalance(t.deps.db, u)).balanceCents;
    const stockBefore = new Map((await t.deps.db.select({ id: cards.id, stock: cards.stock }).from(cards)).map((c) => [c.id, c.stock]));
    const { key, body, fast } = await openOk(u, 3);
    expect(fast).toBe(true);
    expect(body.purchase).toMatchObject({ quantity: 3, unitPriceCents: 300, totalCents: 900 });
    expect(body.balanceCents).toBe(10_000 - spent - 900);
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(body.balanceCents);
    const first = body.openings[0]!.fairness.nonce;
    expect(body.openings.map((o) => o.fairness.nonce)).toEqual([first, first + 1, first + 2]);
    // Stock went down by exactly the drawn copies; each opening's total is its cards' values.
    const drawn = new Map<string, number>();
    for (const o of body.openings) {
      expect(o.totalValueCents).toBe(o.cards.reduce((a, c) => a + c.valueCents, 0));
      for (const c of o.cards) drawn.set(c.id, (drawn.get(c.id) ?? 0) + 1);
    }
    for (const [id, n] of drawn) {
      const [row] = await t.deps.db.select({ stock: cards.stock }).from(cards).where(eq(cards.id, id));
      expect(row!.stock).toBe(stockBefore.get(id)! - n);
    }
    // The stored opening verifies against its seed once revealed.
    const [stored] = await t.deps.db.select().from(openings).where(eq(openings.id, body.openings[0]!.id));
    expect(stored!.totalValueCents).toBe(body.openings[0]!.totalValueCents);
    const rotate = await t.as(u).post('/api/fairness/seeds/rotate', {});
    expect(rotate.status).toBe(200);
    const { revealed } = (await rotate.json()) as { revealed: { serverSeed: string } };
    const pool = (await (await t.as(u).get(`/api/fairness/pools/${stored!.poolHash}`)).json()) as { classes: Array<{ classId: string; cardIds: string[] }> };
    const verified = await verifyOpening(nodeFair, {
      serverSeed: revealed.serverSeed,
      serverSeedHash: stored!.serverSeedHash,
      clientSeed: stored!.clientSeed,
      nonce: stored!.nonce,
      slots: stored!.slots,
      pools: Object.fromEntries(pool.classes.map((c) => [c.classId, c.cardIds])),
      draws: stored!.draws,
      oddsHash: stored!.oddsHash,
      poolHash: stored!.poolHash,
    });
    expect(verified.ok).toBe(true);
    // A retry with the same key replays the same answer, read back from the purchase.
    const replay = await open(u, { productId, quantity: 3 }, { 'Idempotency-Key': key });
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    const again = (await replay.json()) as OpenResult;
    // The seed was revealed since: the replay shows it, the first answer could not.
    for (const o of again.openings) o.fairness.serverSeed = null;
    expect(again).toEqual(body);
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(body.balanceCents);
    // The same key with another body is a conflict, and changes nothing.
    const other = await open(u, { productId, quantity: 2 }, { 'Idempotency-Key': key });
    expect(other.status).toBe(409);
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(body.balanceCents);
  });

  it('never trusts a cached seed: a new client seed or a rotation is used at once', async () => {
    const u = await warmUser();
    expect((await openOk(u)).fast).toBe(true);
    expect((await t.as(u).put('/api/fairness/seeds/client', { clientSeed: 'my-new-client-seed' })).status).toBe(200);
    const afterClient = await openOk(u);
    expect(afterClient.body.openings[0]!.fairness.clientSeed).toBe('my-new-client-seed');
    const rotated = (await (await t.as(u).post('/api/fairness/seeds/rotate', {})).json()) as { active: Seeds['active'] };
    const afterRotate = await openOk(u);
    expect(afterRotate.body.openings[0]!.fairness.serverSeedHash).toBe(rotated.active.serverSeedHash);
    expect(afterRotate.body.openings[0]!.fairness.nonce).toBe(0);
    // Another process moving the nonce (simulated by hand) is caught by the statement too.
    await t.deps.db.update(userSeeds).set({ nextNonce: sql`${userSeeds.nextNonce} + 5` }).where(and(eq(userSeeds.userId, u), eq(userSeeds.active, true)));
    const moved = await openOk(u);
    expect(moved.body.openings[0]!.fairness.nonce).toBe(6);
    expect((await openOk(u)).fast).toBe(true);
  });

  it('never trusts a cached product: price, status and odds changes apply to the next opening', async () => {
    const u = await warmUser();
    expect((await openOk(u)).fast).toBe(true);
    try {
      expect((await t.as(admin).patch(`/api/admin/products/${productId}`, { priceCents: 450 })).status).toBe(200);
      const repriced = await openOk(u);
      expect(repriced.body.purchase!.totalCents).toBe(450);
      expect((await openOk(u)).fast).toBe(true);
      expect((await t.as(admin).patch(`/api/admin/products/${productId}`, { status: 'draft' })).status).toBe(200);
      const before = (await getBalance(t.deps.db, u)).balanceCents;
      expect((await open(u, { productId, quantity: 1 })).status).toBe(404);
      expect((await getBalance(t.deps.db, u)).balanceCents).toBe(before);
    } finally {
      await t.as(admin).patch(`/api/admin/products/${productId}`, { status: 'live', priceCents: 300 });
    }
    // Rare only: every card drawn must now come from the rare class.
    expect((await setSlots(slots(2, [{ classId: cat.classes.Rare!, weight: 1 }]))).status).toBe(200);
    try {
      for (let i = 0; i < 3; i++) {
        const r = await openOk(u);
        expect(r.body.openings[0]!.cards.every((c) => c.classId === cat.classes.Rare)).toBe(true);
      }
    } finally {
      await setSlots(usualOdds());
    }
  });

  it('answers with the current look of the drawn cards: a class an admin renamed shows on the next opening', async () => {
    const u = await warmUser();
    const common = cat.classes.Common!;
    const classPath = `/api/admin/catalog/classes/${common}`;
    const { class: original } = (await (await t.as(admin).get(classPath)).json()) as { class: { name: string; colour: string } };
    // Commons only, so every card drawn shows the class's look.
    expect((await setSlots(slots(2, [{ classId: common, weight: 1 }]))).status).toBe(200);
    try {
      let first = await openOk(u);
      for (let i = 0; i < 3 && !first.fast; i++) first = await openOk(u);
      expect(first.fast).toBe(true);
      expect(first.body.openings[0]!.cards.every((c) => c.className === original.name && c.classColour === original.colour)).toBe(true);
      expect((await t.as(admin).patch(classPath, { name: 'Common, renamed', colour: '#123456' })).status).toBe(200);
      const after = await openOk(u);
      expect(after.fast).toBe(true);
      for (const c of after.body.openings[0]!.cards) expect(c).toMatchObject({ classId: common, className: 'Common, renamed', classColour: '#123456' });
      expect(after.body.refs.classes).toEqual([expect.objectContaining({ id: common, name: 'Common, renamed', colour: '#123456' })]);
      // The replay reads the look from the tables, not from the cache: the two agree.
      const replay = (await (await open(u, { productId, quantity: 1 }, { 'Idempotency-Key': after.key })).json()) as OpenResult;
      expect(replay.openings).toEqual(after.body.openings);
    } finally {
      await t.as(admin).patch(classPath, { name: original.name, colour: original.colour });
      await setSlots(usualOdds());
    }
  });

  it('checks its cached pack by revision: odds written behind the cache still apply to the next opening', async () => {
    const u = await warmUser();
    expect((await openOk(u)).fast).toBe(true);
    const revision = async () => {
      const [row] = await t.deps.db.select({ r: packs.revision }).from(packs).innerJoin(products, eq(products.packId, packs.id)).where(eq(products.id, productId));
      return row!.r;
    };
    const before = await revision();
    // Another process's edit: the database changes, this process's caches hear nothing of it.
    const rareOnly = slots(2, [{ classId: cat.classes.Rare!, weight: 1 }]);
    await t.deps.db.execute(sql`update packs set slots = ${JSON.stringify(rareOnly)}::jsonb from products where products.pack_id = packs.id and products.id = ${productId}::uuid`);
    try {
      expect(await revision()).toBe(before + 1);
      const first = await openOk(u);
      expect(first.fast).toBe(false);
      expect(first.body.openings[0]!.cards.every((c) => c.classId === cat.classes.Rare)).toBe(true);
      const again = await openOk(u);
      expect(again.fast).toBe(true);
      expect(again.body.openings[0]!.cards.every((c) => c.classId === cat.classes.Rare)).toBe(true);
      // A write that leaves both documents as they are keeps the revision (and the cache).
      await t.deps.db.execute(sql`update packs set name = packs.name, slots = packs.slots, pool = packs.pool from products where products.pack_id = packs.id and products.id = ${productId}::uuid`);
      expect(await revision()).toBe(before + 1);
      expect((await openOk(u)).fast).toBe(true);
    } finally {
      await setSlots(usualOdds());
    }
    expect(await revision()).toBe(before + 2);
  });

  it('never draws a card that left the pool, and never bends odds around cached stock', async () => {
    const u = await warmUser();
    expect((await openOk(u)).fast).toBe(true);
    const gone = cat.cards.Common![0]!;
    await t.deps.db.update(cards).set({ active: false }).where(eq(cards.id, gone));
    try {
      for (let i = 0; i < 8; i++) {
        const r = await openOk(u);
        expect(r.body.openings[0]!.cards.some((c) => c.id === gone)).toBe(false);
      }
    } finally {
      await t.deps.db.update(cards).set({ active: true }).where(eq(cards.id, gone));
    }
    // Stock moved under the cache (another process): the statement refuses the stale hint, the
    // general path reads afresh, and the one copy left goes exactly once.
    const last = cat.cards.Rare![1]!;
    const [{ stock: saved } = { stock: 0 }] = await t.deps.db.select({ stock: cards.stock }).from(cards).where(eq(cards.id, last));
    await t.deps.db.update(cards).set({ stock: 1 }).where(eq(cards.id, last));
    let taken = 0;
    try {
      for (let i = 0; i < 30; i++) taken += (await openOk(u)).body.openings[0]!.cards.filter((c) => c.id === last).length;
      const [row] = await t.deps.db.select({ stock: cards.stock }).from(cards).where(eq(cards.id, last));
      expect(row!.stock + taken).toBe(1);
    } finally {
      // Put back what the hand-written stock hid, less what was taken (each take is a logged
      // movement), so the later tests' stock books reconcile.
      await t.deps.db.update(cards).set({ stock: saved - taken }).where(eq(cards.id, last));
    }
  });

  it('answers refusals as the general path does, with nothing written', async () => {
    const u = await warmUser(900);
    while ((await getBalance(t.deps.db, u)).balanceCents >= 300) expect((await openOk(u)).fast).toBe(true);
    const poor = await open(u, { productId, quantity: 1 });
    expect(poor.status).toBe(409);
    expect(((await poor.json()) as { error: { code: string } }).error.code).toBe('insufficient_funds');
    expect((await getBalance(t.deps.db, u)).balanceCents).toBe(0);
    const v = await warmUser();
    expect((await openOk(v)).fast).toBe(true);
    expect((await t.as(v).post('/api/wallet/self-exclusion', { duration: '24h', confirm: true })).status).toBeLessThan(300);
    const excluded = await open(v, { productId, quantity: 1 });
    expect(excluded.status).toBe(403);
    expect(((await excluded.json()) as { error: { code: string } }).error.code).toBe('self_excluded');
  });

  it('announces the balance and then the big pulls after the commit, in one batch', async () => {
    const u = await warmUser();
    const { body, fast } = await openOk(u, 4);
    expect(fast).toBe(true);
    const big = body.openings.flatMap((o) => o.cards.filter((c) => c.valueCents >= 500));
    const openingIds = new Set(body.openings.map((o) => o.id));
    // Earlier openings' events may still be arriving: count only this opening's.
    const balances = () => events.filter((e) => e.type === 'balance.changed' && e.topic === `user:${u}` && (e.data as { balanceCents: number }).balanceCents === body.balanceCents);
    const pulls = () => events.filter((e) => e.type === 'pull.created' && openingIds.has((e.data as PullEvent).openingId));
    await vi.waitFor(() => {
      expect(balances()).toHaveLength(1);
      expect(pulls()).toHaveLength(big.length);
    });
    const [{ username }] = (await t.deps.db.select({ username: user.username }).from(user).where(eq(user.id, u))) as [{ username: string }];
    expect(pulls().map((p) => (p.data as PullEvent).ownedCardId).sort()).toEqual(big.map((c) => c.ownedCardId).sort());
    for (const pull of pulls()) {
      expect(pull.topic).toBe('public');
      expect(pull.data).toMatchObject({ username, productId, cardName: expect.any(String), createdAt: body.openings[0]!.createdAt });
      // The balance first: the events of one opening go out together, in order.
      expect(events.indexOf(pull)).toBeGreaterThan(events.indexOf(balances()[0]!));
    }
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
  });

  it('keeps the books right under concurrent openings of one user and of many', async () => {
    const users = await Promise.all(Array.from({ length: 4 }, () => warmUser(50_000)));
    const results = await Promise.all(users.flatMap((u) => Array.from({ length: 6 }, () => open(u, { productId, quantity: 2 }))));
    expect(results.filter((r) => r.status >= 500)).toEqual([]);
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(await shopInvariants(t)).toEqual(CLEAN);
    expect((await ledgerInvariants(t)).mismatched).toEqual([]);
    for (const u of users) {
      const [seed] = await t.deps.db.select({ next: userSeeds.nextNonce }).from(userSeeds).where(and(eq(userSeeds.userId, u), eq(userSeeds.active, true)));
      const [count] = await t.deps.dbh.run<{ n: string }>('select count(*) as n from openings where user_id = $1', [u]);
      expect(seed!.next).toBe(Number(count!.n));
    }
  });
});
