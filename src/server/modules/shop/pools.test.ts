import { eq, sql } from 'drizzle-orm';
import type { LookRefs } from '../../../shared/contracts/catalog.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenResult, PoolSnapshot, ProductSummary } from '../../../shared/contracts/shop.ts';
import { poolHash } from '../../../shared/fairness.ts';
import { architects, cardClasses, cards, textures } from '../../db/schema/catalog.ts';
import { nodeFair } from '../fairness/crypto.ts';
import { idem, moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';
import { poolVersion } from './pools.ts';
import { CLEAN, fund, makeCatalog, shopInvariants, slots } from './test-support.ts';

// The opening caches each pack's card pool per catalog_state.pool_version (pools.ts). These tests
// prove the version moves exactly when the drawable set does, and that openings never draw from a
// pool that is out of date.

let t: MoneyTestContext;
let admin: string;
let user: string;
let cat: Awaited<ReturnType<typeof makeCatalog>>;
let productId: string;

const version = () => poolVersion(t.deps.db);
const open = async () => {
  const res = await t.as(user).post('/api/shop/open', { productId, quantity: 1 }, idem());
  expect(res.status).toBe(201);
  return ((await res.json()) as OpenResult).openings[0]!;
};
const poolOf = async (hash: string) => ((await (await t.as(user).get(`/api/fairness/pools/${hash}`)).json()) as PoolSnapshot).classes;

beforeAll(async () => {
  t = await moneyTestContext();
  // The owner: this pack gives back more than its price, which only the owner sets (ADR 0024).
  admin = await t.makeUser({ role: 'owner' });
  user = await t.makeUser();
  await fund(t, user, 1_000_000);
  cat = await makeCatalog(t, [{ name: 'Only', cards: [{ value: 100, stock: 1000 }, { value: 200, stock: 1000 }] }]);
  const res = await t.as(admin).post('/api/admin/products', { name: 'Pool Pack', priceCents: 100, description: 'One card.' });
  const product = ((await res.json()) as { product: ProductSummary }).product;
  productId = product.id;
  await t.as(admin).put(`/api/admin/packs/${product.packId}`, {
    name: 'Pool Pack',
    slots: slots(1, [{ classId: cat.classes.Only!, weight: 1 }]),
    pool: { mode: 'classes' },
  });
  await t.as(admin).patch(`/api/admin/products/${productId}`, { status: 'live' });
});
afterAll(() => t.close());

describe('pool version', () => {
  it('stays put when an opening only lowers stock', async () => {
    const before = await version();
    await open();
    await open();
    expect(await version()).toBe(before);
  });

  it('moves when a card enters or leaves the drawable set or changes class, not when stock only moves', async () => {
    const id = cat.cards.Only![0]!;
    const changes = [
      sql`update cards set active = false where id = ${id}`,
      sql`update cards set active = true where id = ${id}`,
      sql`update cards set archived_at = now() where id = ${id}`,
      sql`update cards set archived_at = null where id = ${id}`,
      sql`update cards set stock = 0 where id = ${id}`,
      sql`update cards set stock = 10 where id = ${id}`,
    ];
    for (const change of changes) {
      const before = await version();
      await t.deps.dbh.query(change);
      expect(await version(), String(change.queryChunks[0])).not.toBe(before);
    }
    const before = await version();
    await t.deps.dbh.query(sql`update cards set stock = stock - 1, value_cents = value_cents + 1 where id = ${id}`);
    await t.deps.dbh.query(sql`update cards set stock = stock + 7 where id = ${id}`);
    expect(await version()).toBe(before);
  });

  it('moves at the commit, with the change, and once for a bulk change', async () => {
    const before = await version();
    let inside = '';
    await t.deps.db.transaction(async (tx) => {
      await tx.update(cards).set({ active: false }).where(eq(cards.id, cat.cards.Only![0]!));
      inside = await poolVersion(tx);
    });
    expect(inside).toBe(before);
    expect(await version()).not.toBe(before);
    await t.deps.db.update(cards).set({ active: true }).where(eq(cards.id, cat.cards.Only![0]!));
  });

  it('moves once for a bulk change and not for a rolled-back one', async () => {
    const before = await version();
    await t.deps.db.transaction(async (tx) => {
      await tx.update(cards).set({ active: false }).where(eq(cards.classId, cat.classes.Only!));
      await tx.update(cards).set({ active: true }).where(eq(cards.classId, cat.classes.Only!));
      await tx.update(cards).set({ stock: 0 }).where(eq(cards.classId, cat.classes.Only!));
      await tx.update(cards).set({ stock: 1000 }).where(eq(cards.classId, cat.classes.Only!));
    });
    const after = await version();
    expect(after).not.toBe(before);
    await t.deps.db
      .transaction(async (tx) => {
        await tx.update(cards).set({ active: false }).where(eq(cards.classId, cat.classes.Only!));
        throw new Error('roll back');
      })
      .catch(() => {});
    expect(await version()).toBe(after);
  });
});

describe('openings and the cached pool', () => {
  it('draw from the current pool after a card is added, sold out or deactivated', async () => {
    const first = await open();
    const initial = await poolOf(first.fairness.poolHash);
    expect(initial[0]!.cardIds).toHaveLength(2);

    const [like] = await t.deps.db.select().from(cards).where(eq(cards.id, cat.cards.Only![0]!));
    const [added] = await t.deps.db
      .insert(cards)
      .values({ name: 'New card', setName: 'S', number: 99, classId: like!.classId, architectId: like!.architectId, imageKey: like!.imageKey, valueCents: 300, stock: 3 })
      .returning({ id: cards.id });
    const withNew = await open();
    const pool = await poolOf(withNew.fairness.poolHash);
    expect(pool[0]!.cardIds).toContain(added!.id);
    expect(withNew.fairness.poolHash).toBe(await poolHash(nodeFair, { [cat.classes.Only!]: pool[0]!.cardIds }));

    await t.deps.db.update(cards).set({ stock: 0 }).where(eq(cards.id, added!.id));
    const afterSoldOut = await open();
    expect((await poolOf(afterSoldOut.fairness.poolHash))[0]!.cardIds).not.toContain(added!.id);

    const gone = cat.cards.Only![1]!;
    await t.deps.db.update(cards).set({ active: false }).where(eq(cards.id, gone));
    for (let i = 0; i < 5; i++) {
      const o = await open();
      expect(o.cards[0]!.id).not.toBe(gone);
      expect((await poolOf(o.fairness.poolHash))[0]!.cardIds).not.toContain(gone);
    }
    expect(await shopInvariants(t)).toEqual(CLEAN);
  });

  it('retries on fresh stock when the cached stock was too high, and never oversells', async () => {
    // Leave one card with 2 copies and take them behind the cache's back (no version change).
    const [only] = cat.cards.Only!;
    await t.deps.db.update(cards).set({ active: true, stock: 1000 }).where(eq(cards.classId, cat.classes.Only!));
    await t.deps.db.update(cards).set({ active: false }).where(sql`${cards.classId} = ${cat.classes.Only!} and ${cards.id} <> ${only!}`);
    await open(); // caches the pool (and a stock hint of ~1000) at this version
    await t.deps.dbh.query(sql`update cards set stock = 2 where id = ${only!}`);
    const res = await t.as(user).post('/api/shop/open', { productId, quantity: 3 }, idem());
    // Two copies left: the third draw finds the pool empty on the fresh retry.
    expect(res.status).toBe(409);
    expect((await t.deps.db.select({ s: cards.stock }).from(cards).where(eq(cards.id, only!)))[0]!.s).toBe(2);
    const ok = await t.as(user).post('/api/shop/open', { productId, quantity: 2 }, idem());
    expect(ok.status).toBe(201);
    const body = (await ok.json()) as OpenResult;
    expect(body.openings.map((o) => o.cards[0]!.id)).toEqual([only, only]);
    expect(body.openings[1]!.cards).toHaveLength(1);
    expect((await t.deps.db.select({ s: cards.stock }).from(cards).where(eq(cards.id, only!)))[0]!.s).toBe(0);
    expect(body.openings[1]!.fairness.draws[0]!.exhausted).toBe(true);
    expect(await shopInvariants(t)).toEqual(CLEAN);
  });

  it('retries on fresh stock when the cached stock was too low (restocked without a version change)', async () => {
    const [only] = cat.cards.Only!;
    await t.deps.dbh.query(sql`update cards set stock = 2 where id = ${only!}`);
    await open(); // caches the pool with a stock hint of 2 (1 left after this opening)
    await t.deps.dbh.query(sql`update cards set stock = stock + 10 where id = ${only!}`);
    const res = await t.as(user).post('/api/shop/open', { productId, quantity: 3 }, idem());
    expect(res.status).toBe(201);
    const body = (await res.json()) as OpenResult;
    expect(body.openings.map((o) => o.cards[0]!.id)).toEqual([only, only, only]);
    expect(body.openings.flatMap((o) => o.fairness.draws).some((d) => d.exhausted)).toBe(false);
    expect((await t.deps.db.select({ s: cards.stock }).from(cards).where(eq(cards.id, only!)))[0]!.s).toBe(8);
    expect(await shopInvariants(t)).toEqual(CLEAN);
  });
});

describe('the look references of an opening', () => {
  it('come with the answer, as the catalog would give them, including a class default texture', async () => {
    const [like] = await t.deps.db.select().from(cards).where(eq(cards.id, cat.cards.Only![0]!));
    const [tex] = await t.deps.db
      .insert(textures)
      .values({ name: 'Foil', imageKey: like!.imageKey, blendMode: 'overlay', opacity: 40 })
      .returning({ id: textures.id });
    await t.deps.db.update(cardClasses).set({ defaultTextureId: tex!.id }).where(eq(cardClasses.id, cat.classes.Only!));
    await t.deps.db.update(cards).set({ active: true, stock: 1000 }).where(eq(cards.classId, cat.classes.Only!));
    const res = await t.as(user).post('/api/shop/open', { productId, quantity: 2 }, idem());
    const body = (await res.json()) as OpenResult & { refs: LookRefs };
    const [arch] = await t.deps.db.select().from(architects).where(eq(architects.id, like!.architectId));
    expect(body.refs.textures).toEqual([{ id: tex!.id, imageKey: like!.imageKey, blendMode: 'overlay', opacity: 40 }]);
    expect(body.refs.architects).toEqual([{ id: arch!.id, frameImageKey: arch!.frameImageKey, layout: arch!.layout }]);
    expect(body.refs.classes).toEqual([{ id: cat.classes.Only!, name: 'Only', colour: '#a855f7', sortOrder: 0 }]);
    expect(body.openings.flatMap((o) => o.cards).every((c) => c.textureId === tex!.id)).toBe(true);
  });
});
