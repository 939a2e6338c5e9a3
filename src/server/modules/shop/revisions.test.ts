import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OddsRevision, OddsRevisionList, Returns } from '../../../shared/contracts/odds.ts';
import type { OpenResult, PackSlot, PoolSnapshot } from '../../../shared/contracts/shop.ts';
import { checkOpeningUnderRevision, checkRevision, revisionHash } from '../../../shared/odds-revision.ts';
import { rowsOf } from '../../db/client.ts';
import { cards } from '../../db/schema/catalog.ts';
import { idempotencyKeys } from '../../db/schema/platform.ts';
import { openings } from '../../db/schema/shop.ts';
import { rebuildRollup } from '../dashboard/rollup.ts';
import { nodeFair } from '../fairness/crypto.ts';
import { moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';
import { CLEAN, fund, liveProduct, makeCatalog, shopInvariants, slots } from './test-support.ts';

/**
 * Issue 44, items 1 and 2: odds revisions are published before the first opening under them,
 * append-only, named by every opening and recomputable from what the API publishes; the public
 * returns come from the rollups.
 */

let t: MoneyTestContext;
let admin: string;
let cat: Awaited<ReturnType<typeof makeCatalog>>;
let productId: string;
let setSlots: (s: PackSlot[]) => Promise<Response>;
let player: string;
const odds = (rare: number) =>
  slots(2, [
    { classId: cat.classes.Common!, weight: 100 - rare },
    { classId: cat.classes.Rare!, weight: rare },
  ]);

beforeAll(async () => {
  t = await moneyTestContext();
  admin = await t.makeUser({ role: 'owner' });
  cat = await makeCatalog(t, [
    { name: 'Common', cards: [{ value: 50, stock: 1000 }, { value: 80, stock: 1000 }, { value: 120, stock: 1 }] },
    { name: 'Rare', cards: [{ value: 2000, stock: 1000 }, { value: 3000, stock: 1000 }] },
  ]);
  ({ productId, setSlots } = await liveProduct(t, admin, { name: 'Ledger Pack', priceCents: 900, slots: odds(20) }));
  player = await t.makeUser();
  await fund(t, player, 1_000_000);
}, 120_000);
afterAll(() => t.close());

const history = async (id = productId) => {
  const res = await t.request(`/api/fairness/products/${id}/revisions`);
  expect(res.status).toBe(200);
  return (await res.json()) as OddsRevisionList;
};
const revision = async (hash: string) => {
  const res = await t.request(`/api/fairness/revisions/${hash}`);
  expect(res.status).toBe(200);
  return (await res.json()) as OddsRevision;
};
async function openOne(u = player) {
  const key = randomUUID();
  const res = await t.as(u).post('/api/shop/open', { productId, quantity: 1 }, { 'Idempotency-Key': key });
  expect(res.status, await res.clone().text()).toBe(201);
  const [row] = await t.deps.db
    .select({ body: idempotencyKeys.responseBody })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, u), eq(idempotencyKeys.key, key)));
  const fast = typeof (row?.body as { openedPurchaseId?: unknown } | undefined)?.openedPurchaseId === 'string';
  return { opening: ((await res.json()) as OpenResult).openings[0]!, fast };
}

describe('odds revisions', () => {
  let first: string;

  it('publishes the revision when the product goes live, and its hash recomputes from the published table', async () => {
    const h = await history();
    expect(h.items).toHaveLength(1);
    expect(h.currentHash).toBe(h.items[0]!.hash);
    expect(h.items[0]!.number).toBe(1);
    first = h.items[0]!.hash;
    const rev = await revision(first);
    expect(rev.priceCents).toBe(900);
    expect(rev.classes.map((c) => c.cards.length).sort()).toEqual([2, 3]);
    // Every card with its value, whatever its stock.
    expect(rev.classes.flatMap((c) => c.cards.map(([, v]) => v)).sort((a, b) => a - b)).toEqual([50, 80, 120, 2000, 3000]);
    expect(await checkRevision(nodeFair, rev)).toEqual([]);
    expect(await revisionHash(nodeFair, rev)).toBe(first);
    // Expected value: 2 slots × (0.8 × mean(50, 80, 120) + 0.2 × mean(2000, 3000)).
    expect(rev.expectedValueCents).toBe(Math.round(2 * (0.8 * (250 / 3) + 0.2 * 2500)));
    expect(rev.promisedReturnBps).toBe(Math.round((2 * (0.8 * (250 / 3) + 0.2 * 2500) / 900) * 10_000));
  });

  it('names the revision in every opening, on both opening paths, and the opening lies within it', async () => {
    const seen: boolean[] = [];
    for (let i = 0; i < 4; i++) {
      const { opening, fast } = await openOne();
      seen.push(fast);
      expect(opening.fairness.revisionHash).toBe(first);
      const proof = await t.as(player).get(`/api/fairness/openings/${opening.id}`);
      const stored = ((await proof.json()) as { opening: OpenResult['openings'][number] }).opening;
      expect(stored.fairness.revisionHash).toBe(first);
      const pool = (await (await t.request(`/api/fairness/pools/${stored.fairness.poolHash}`)).json()) as PoolSnapshot;
      const pools = Object.fromEntries(pool.classes.map((c) => [c.classId, c.cardIds]));
      expect(checkOpeningUnderRevision({ slots: stored.fairness.slots, pools }, await revision(first))).toEqual([]);
    }
    // The first opening of a user takes the general path; once warm, the one statement.
    expect(seen).toContain(true);
    expect(seen).toContain(false);
    const rows = await t.deps.db.select({ h: openings.revisionHash }).from(openings).where(eq(openings.productId, productId));
    expect(new Set(rows.map((r) => r.h))).toEqual(new Set([first]));
  });

  it('a sell-out is not a new revision: stock is not part of the terms', async () => {
    const [last] = await t.deps.db.select({ stock: cards.stock }).from(cards).where(eq(cards.id, cat.cards.Common![2]!));
    await t.deps.db.update(cards).set({ stock: 0 }).where(eq(cards.id, cat.cards.Common![2]!));
    const { opening } = await openOne();
    expect(opening.fairness.revisionHash).toBe(first);
    expect((await history()).items).toHaveLength(1);
    await t.deps.db.update(cards).set({ stock: last!.stock }).where(eq(cards.id, cat.cards.Common![2]!));
  });

  it('editing the odds appends a revision before the next sale; the old one stays readable', async () => {
    expect((await setSlots(odds(30))).status).toBe(200);
    const h = await history();
    expect(h.items.map((i) => i.number)).toEqual([2, 1]);
    const second = h.items[0]!.hash;
    expect(second).not.toBe(first);
    expect(h.currentHash).toBe(second);
    const { opening } = await openOne();
    expect(opening.fairness.revisionHash).toBe(second);
    expect((await revision(first)).slots[0]!.odds[1]!.weight).toBe(20);
    expect((await revision(second)).slots[0]!.odds[1]!.weight).toBe(30);
    // Same terms again: the same hash, no new row.
    expect((await history()).items).toHaveLength(2);
  });

  it("a card's new value is a new revision, drawn under from the next opening on", async () => {
    const before = (await history()).currentHash;
    await openOne(); // warm
    await t.deps.db.update(cards).set({ valueCents: 2500 }).where(eq(cards.id, cat.cards.Rare![0]!));
    const a = await openOne();
    const b = await openOne();
    expect(a.opening.fairness.revisionHash).not.toBe(before);
    expect(b.opening.fairness.revisionHash).toBe(a.opening.fairness.revisionHash);
    const rev = await revision(a.opening.fairness.revisionHash!);
    expect(rev.classes.flatMap((c) => c.cards).find(([id]) => id === cat.cards.Rare![0])![1]).toBe(2500);
    expect(await checkRevision(nodeFair, rev)).toEqual([]);
    const h = await history();
    expect(h.items).toHaveLength(3);
    expect(h.currentHash).toBe(rev.hash);
  });

  it('is append-only: the database refuses to change or remove a published revision', async () => {
    await expect(t.deps.db.execute(sql`update odds_revisions set price_cents = 1`)).rejects.toThrow();
    await expect(t.deps.db.execute(sql`delete from odds_revisions`)).rejects.toThrow();
    await expect(t.deps.db.execute(sql`delete from odds_class_pools`)).rejects.toThrow();
    // And no opening can name a revision that was never published.
    const [o] = await t.deps.db.select({ id: openings.id }).from(openings).limit(1);
    await expect(t.deps.db.execute(sql`update openings set revision_hash = ${'f'.repeat(64)} where id = ${o!.id}`)).rejects.toThrow();
    expect((await history()).items).toHaveLength(3);
  });

  it('keeps a product whose odds were published: deleting it answers 409 and removes nothing', async () => {
    const { productId: unsold } = await liveProduct(t, admin, { name: 'Never Sold Pack', priceCents: 500, slots: odds(10) });
    expect((await history(unsold)).items).toHaveLength(1);
    expect((await t.as(admin).patch(`/api/admin/products/${unsold}`, { status: 'draft' })).status).toBe(200);
    const res = await t.as(admin).delete(`/api/admin/products/${unsold}`);
    expect(res.status, await res.clone().text()).toBe(409);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('product_has_sales');
    const [left] = rowsOf<{ products: number; revisions: number }>(
      await t.deps.db.execute(
        sql`select (select count(*)::int from products where id = ${unsold}) as products, (select count(*)::int from odds_revisions where product_id = ${unsold}) as revisions`,
      ),
    );
    expect(left).toEqual({ products: 1, revisions: 1 });
  });

  it('answers a hash that names no revision, a bad hash and a hidden product with a clear 404', async () => {
    const none = await t.request(`/api/fairness/revisions/${'0'.repeat(64)}`);
    expect(none.status).toBe(404);
    expect(((await none.json()) as { error: { message: string } }).error.message).toMatch(/No odds revision has this hash/);
    const bad = await t.request('/api/fairness/revisions/not-a-hash');
    expect(bad.status).toBe(404);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/64 lowercase hexadecimal/);
    expect((await t.request(`/api/fairness/products/${randomUUID()}/revisions`)).status).toBe(404);
    // A draft's terms are not public yet.
    const res = await t.as(admin).post('/api/admin/products', { name: 'Draft Pack', priceCents: 500, description: 'Soon.' });
    const draft = ((await res.json()) as { product: { id: string } }).product.id;
    expect((await t.request(`/api/fairness/products/${draft}/revisions`)).status).toBe(404);
    // Someone else's opening is a 404 (its proof names the revision only to its owner).
    const [o] = await t.deps.db.select({ id: openings.id }).from(openings).limit(1);
    const other = await t.makeUser();
    expect((await t.as(other).get(`/api/fairness/openings/${o!.id}`)).status).toBe(404);
  });

  it('publishes promised against realised returns from the rollups, per revision and rarity', async () => {
    const empty = await t.request('/api/fairness/returns');
    expect(empty.status).toBe(200);
    await rebuildRollup(t.deps.db, { horizon: new Date(Date.now() + 2 * 3_600_000) });
    // The answer is cached for a minute per app: a fresh app reads the new rollups.
    const { publicReturns } = await import('../dashboard/returns.ts');
    const r: Returns = await publicReturns(t.deps.db, Date.now() + 120_000);
    expect(r.asOf).not.toBeNull();
    const mine = r.items.filter((i) => i.productId === productId);
    expect(mine.map((i) => i.revisionNumber)).toEqual([3, 2, 1]);
    const rows = await t.deps.db
      .select({ h: openings.revisionHash, n: sql<number>`count(*)::int`, v: sql<number>`sum(${openings.totalValueCents})::int` })
      .from(openings)
      .where(eq(openings.productId, productId))
      .groupBy(openings.revisionHash);
    for (const row of mine) {
      const raw = rows.find((x) => x.h === row.revisionHash);
      expect(row.openings).toBe(raw?.n ?? 0);
      if (!raw) continue;
      expect(row.realisedReturnBps).toBe(Math.round((raw.v / (raw.n * 900)) * 10_000));
      expect(row.intervalLowBps!).toBeLessThanOrEqual(row.realisedReturnBps!);
      expect(row.intervalHighBps!).toBeGreaterThanOrEqual(row.realisedReturnBps!);
      expect(row.drift).toBeNull(); // too few openings to flag anything
      expect(row.rarities.reduce((a, x) => a + x.pulled, 0)).toBe(raw.n * 2);
      expect(row.rarities.reduce((a, x) => a + x.promisedPerPack, 0)).toBeCloseTo(2);
    }
    expect(mine[2]!.promisedReturnBps).toBe(Math.round((2 * (0.8 * (250 / 3) + 0.2 * 2500) / 900) * 10_000));
  });

  it('downloads of the public API verify with the standalone verifier (verifier/verify-opening.mjs)', async () => {
    const { opening } = await openOne();
    expect((await t.as(player).post('/api/fairness/seeds/rotate')).status).toBe(200);
    const dir = mkdtempSync(path.join(tmpdir(), 'pv-rev-'));
    try {
      const save = async (name: string, res: Response) => {
        expect(res.status).toBe(200);
        writeFileSync(path.join(dir, name), await res.text());
        return path.join(dir, name);
      };
      const o = await save('opening.json', await t.as(player).get(`/api/fairness/openings/${opening.id}`));
      const r = await save('revision.json', await t.request(`/api/fairness/revisions/${opening.fairness.revisionHash}`));
      const p = await save('pool.json', await t.request(`/api/fairness/pools/${opening.fairness.poolHash}`));
      const run = spawnSync(process.execPath, [path.resolve(import.meta.dirname, '../../../../verifier/verify-opening.mjs'), 'opening', o, r, p], { encoding: 'utf8' });
      expect(run.status, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toContain('VERIFIED');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ends with money, stock and cards in agreement', async () => {
    expect(await shopInvariants(t)).toEqual(CLEAN);
  });
});
