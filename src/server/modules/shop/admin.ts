import type { ActorCtx } from '../../http/types.ts';
import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, ilike, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  AdminPackDetail,
  adminProductListQuerySchema,
  packInputSchema,
  packPreviewInputSchema,
  productInputSchema,
  productPatchSchema,
  ProductSummary,
} from '../../../shared/contracts/shop.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { oddsRevisions, packs, products, purchases } from '../../db/schema/shop.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import type { Deps } from '../../deps.ts';
import { audit } from '../audit/service.ts';
import { cards } from '../catalog/tables.ts';
import { wishlistCardsWentLive } from '../collection/collecting.ts';
import { classesOf, packStats, slotOddsTable, soldOutReasons } from './odds.ts';
import { eligibleWhere, poolStats, productDto, productWithPack, summaries, type PackRow } from './read.ts';
import { publishWithin } from './revisions.ts';
import { invalidate } from '../realtime/invalidation.ts';
import { assertPriceCutWithinLimits, assertReturnWithinLimits, packExpectedValue, type ShopActor } from './return-limits.ts';
import { likePattern } from '../../lib/like.ts';

/** Admin: products and packs (odds). Every change is audited in the same transaction. */

const ORDER = {
  order: [desc(products.featured), asc(products.sortOrder), asc(products.createdAt)],
  name: [asc(products.name)],
  price_asc: [asc(products.priceCents)],
  price_desc: [desc(products.priceCents)],
  newest: [desc(products.createdAt)],
} as const;

export async function listAdminProducts(db: Db, q: z.output<typeof adminProductListQuerySchema>) {
  const where = and(
    q.status !== 'all' ? eq(products.status, q.status) : undefined,
    q.q ? ilike(products.name, likePattern(q.q)) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({ p: products, pack: packs })
      .from(products)
      .innerJoin(packs, eq(packs.id, products.packId))
      .where(where)
      .orderBy(...ORDER[q.sort], asc(products.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ n: count() }).from(products).where(where),
  ]);
  return { items: await summaries(db, rows), total: Number(total?.n ?? 0), page: q.page, pageSize: q.pageSize };
}

export async function adminProduct(db: DbOrTx, id: string): Promise<ProductSummary> {
  const row = await productWithPack(db, id);
  if (!row) throw notFound('No product with this id.');
  const [s] = await summaries(db, [row]);
  return s!;
}

function assertCanGoLive(pack: PackRow) {
  if (pack.slots.length === 0) {
    throw badRequest('Set up the pack odds (at least one slot) before putting this product live.', {
      status: ['Set up the pack odds first.'],
    });
  }
}

/**
 * A live product now draws from `pack`'s pool: whoever wishes for one of its cards hears about
 * it (once per card and product), in the transaction of the change.
 */
async function tellWishers(deps: Deps, tx: DbOrTx, product: { id: string; name: string }, pack: Pick<PackRow, 'slots' | 'pool'>) {
  const classIds = classesOf(pack.slots);
  if (!classIds.length) return;
  const eligible = tx.select({ id: cards.id }).from(cards).where(eligibleWhere(classIds, pack.pool));
  await wishlistCardsWentLive(deps, tx, { productId: product.id, productName: product.name }, sql`${eligible}`);
}

/**
 * Cards that just became drawable (created with stock, restocked from zero, put back on sale or
 * moved to another class): every live product whose pool now takes one tells its wishers, in the
 * caller's transaction. The notice is once per user, card and product, so a card that sells out
 * and comes back does not repeat it.
 */
export async function tellWishersOfCards(deps: Deps, tx: DbOrTx, cardIds: readonly string[]): Promise<void> {
  if (cardIds.length === 0) return;
  const live = await tx
    .select({ id: products.id, name: products.name, slots: packs.slots, pool: packs.pool })
    .from(products)
    .innerJoin(packs, eq(packs.id, products.packId))
    .where(eq(products.status, 'live'));
  for (const p of live) {
    const classIds = classesOf(p.slots);
    if (!classIds.length) continue;
    const eligible = tx.select({ id: cards.id }).from(cards).where(and(eligibleWhere(classIds, p.pool), inArray(cards.id, [...cardIds])));
    await wishlistCardsWentLive(deps, tx, { productId: p.id, productName: p.name }, sql`${eligible}`);
  }
}

export async function createProduct(deps: Deps, ctx: ShopActor, input: z.output<typeof productInputSchema>): Promise<ProductSummary> {
  return deps.db.transaction(async (tx) => {
    let packId = input.packId;
    let pack: PackRow | undefined;
    if (packId) {
      // Locked: its odds cannot change between the check below and the commit.
      [pack] = await tx.select().from(packs).where(eq(packs.id, packId)).for('update');
      if (!pack) throw badRequest('That pack does not exist.', { packId: ['Pick an existing pack.'] });
      if (input.status === 'live') {
        assertCanGoLive(pack);
        // A new live product may not promise back more than the owner's bound (ADR 0024).
        if (ctx.role !== 'owner') {
          assertReturnWithinLimits(ctx, input, null, { priceCents: input.priceCents, status: 'live', evCents: await packExpectedValue(tx, pack) }, 'priceCents');
        }
      }
    } else {
      if (input.status === 'live') assertCanGoLive({ slots: [] } as unknown as PackRow);
      packId = randomUUID();
      await tx.insert(packs).values({ id: packId, name: input.name, slots: [], pool: { mode: 'classes' } });
    }
    const [p] = await tx
      .insert(products)
      .values({
        name: input.name,
        description: input.description,
        imageKey: input.imageKey,
        priceCents: input.priceCents,
        status: input.status,
        releaseAt: input.releaseAt ? new Date(input.releaseAt) : null,
        purchaseLimitPerUser: input.purchaseLimitPerUser,
        featured: input.featured,
        sortOrder: input.sortOrder,
        packId,
      })
      .returning();
    await audit(tx, { actorId: ctx.actorId, action: 'product.create', targetType: 'product', targetId: p!.id, after: productDto(p!), ip: ctx.ip });
    if (p!.status === 'live' && pack) await tellWishers(deps, tx, p!, pack);
    await publishWithin(tx, [p!.id]);
    return adminProduct(tx, p!.id);
  });
}

/**
 * Runs a write to a product or pack, then drops every process's product guesses (the one-statement
 * opening's, realtime/invalidation.ts), whether or not it committed. A new product needs none:
 * only products read before are guessed.
 */
async function afterProductWrite<T>(db: object, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } finally {
    await invalidate(db, 'products');
  }
}

export async function updateProduct(deps: Deps, ctx: ShopActor, id: string, patch: z.output<typeof productPatchSchema>): Promise<ProductSummary> {
  return afterProductWrite(deps.db, () => deps.db.transaction(async (tx) => {
    // Packs, then the product (the order updatePack takes them in): the price, status and odds
    // the bounds below check cannot change under them before the commit.
    const [current] = await tx.select({ packId: products.packId }).from(products).where(eq(products.id, id));
    if (!current) throw notFound('No product with this id.');
    const packIds = [...new Set([current.packId, patch.packId ?? current.packId])].sort();
    await tx.select({ id: packs.id }).from(packs).where(inArray(packs.id, packIds)).orderBy(asc(packs.id)).for('update');
    await tx.select({ id: products.id }).from(products).where(eq(products.id, id)).for('update');
    const row = await productWithPack(tx, id);
    if (!row) throw notFound('No product with this id.');
    let pack = row.pack;
    if (patch.packId && patch.packId !== row.p.packId) {
      const [other] = await tx.select().from(packs).where(eq(packs.id, patch.packId));
      if (!other) throw badRequest('That pack does not exist.', { packId: ['Pick an existing pack.'] });
      pack = other;
    }
    const status = patch.status ?? row.p.status;
    if (status === 'live') assertCanGoLive(pack);
    // Separation of duties (ADR 0024): a staff change to what a live product costs or promises
    // stays within the owner's bounds. A rename or a new description needs no check.
    if (ctx.role !== 'owner' && status === 'live' && (patch.priceCents !== undefined || patch.status !== undefined || patch.packId !== undefined)) {
      const price = patch.priceCents ?? row.p.priceCents;
      await assertPriceCutWithinLimits(tx, ctx, row.p, row.p, { priceCents: price, status });
      const before = { priceCents: row.p.priceCents, status: row.p.status, evCents: await packExpectedValue(tx, row.pack) };
      const evCents = pack === row.pack ? before.evCents : await packExpectedValue(tx, pack);
      assertReturnWithinLimits(ctx, { name: patch.name ?? row.p.name }, before, { priceCents: price, status, evCents }, 'priceCents');
    }
    const set: Partial<typeof products.$inferInsert> = { updatedAt: new Date() };
    if (patch.name !== undefined) set.name = patch.name;
    if (patch.description !== undefined) set.description = patch.description;
    if (patch.imageKey !== undefined) set.imageKey = patch.imageKey;
    if (patch.priceCents !== undefined) set.priceCents = patch.priceCents;
    if (patch.status !== undefined) set.status = patch.status;
    if (patch.releaseAt !== undefined) set.releaseAt = patch.releaseAt ? new Date(patch.releaseAt) : null;
    if (patch.purchaseLimitPerUser !== undefined) set.purchaseLimitPerUser = patch.purchaseLimitPerUser;
    if (patch.featured !== undefined) set.featured = patch.featured;
    if (patch.sortOrder !== undefined) set.sortOrder = patch.sortOrder;
    if (patch.packId !== undefined) set.packId = patch.packId;
    const [after] = await tx.update(products).set(set).where(eq(products.id, id)).returning();
    await audit(tx, { actorId: ctx.actorId, action: 'product.update', targetType: 'product', targetId: id, before: productDto(row.p), after: productDto(after!), ip: ctx.ip });
    // Going live, or a live product switching packs, can put wished-for cards in reach.
    if (after!.status === 'live' && (row.p.status !== 'live' || after!.packId !== row.p.packId)) await tellWishers(deps, tx, after!, pack);
    await publishWithin(tx, [id]);
    return adminProduct(tx, id);
  }));
}

export async function deleteProduct(db: Db, ctx: ActorCtx, id: string): Promise<void> {
  await afterProductWrite(db, () => db.transaction(async (tx) => {
    const row = await productWithPack(tx, id);
    if (!row) throw notFound('No product with this id.');
    const [sold] = await tx.select({ n: count() }).from(purchases).where(eq(purchases.productId, id));
    if (Number(sold?.n ?? 0) > 0) throw conflict('This product has been sold, so it stays for the records. Archive it instead.', 'product_has_sales');
    // Published odds are a public, append-only record (issue 44): a product that had them stays.
    const [published] = await tx.select({ n: count() }).from(oddsRevisions).where(eq(oddsRevisions.productId, id));
    if (Number(published?.n ?? 0) > 0) {
      throw conflict('This product was live, so its odds are published for good. Archive it instead.', 'product_has_sales');
    }
    await tx.delete(products).where(eq(products.id, id));
    // Its pack goes too when nothing else sells it.
    const [others] = await tx.select({ n: count() }).from(products).where(eq(products.packId, row.pack.id));
    const [bought] = await tx.select({ n: count() }).from(purchases).where(eq(purchases.packId, row.pack.id));
    if (Number(others?.n ?? 0) === 0 && Number(bought?.n ?? 0) === 0) await tx.delete(packs).where(eq(packs.id, row.pack.id));
    await audit(tx, { actorId: ctx.actorId, action: 'product.delete', targetType: 'product', targetId: id, before: productDto(row.p), ip: ctx.ip });
  }));
}

// Packs ------------------------------------------------------------------------------------------

function packDto(p: PackRow) {
  return { id: p.id, name: p.name, cardsPerPack: p.slots.length, slots: p.slots, pool: p.pool, createdAt: p.createdAt.toISOString(), updatedAt: p.updatedAt.toISOString() };
}

async function packDetail(db: DbOrTx, pack: PackRow, priceOverride?: number | null): Promise<AdminPackDetail> {
  const sellers = pack.id
    ? await db.select({ id: products.id, name: products.name, priceCents: products.priceCents, status: products.status }).from(products).where(eq(products.packId, pack.id)).orderBy(asc(products.createdAt))
    : [];
  const stats = (await poolStats(db, [pack])).get(pack.id)!;
  const price = priceOverride !== undefined ? priceOverride : (sellers[0]?.priceCents ?? null);
  const s = packStats(pack.slots, stats, price);
  const warnings = soldOutReasons(pack.slots, stats).map((r) =>
    r.code === 'class_out_of_stock' ? `${r.message} The pack is sold out until stock is added.` : r.message,
  );
  const unknown = [...stats.values()].filter((c) => c.name === 'Unknown class');
  if (unknown.length) warnings.push('The odds name a class that no longer exists; pick another class.');
  if (s.houseEdgeBp !== null && s.houseEdgeBp < 0) warnings.push('The expected value is above the price: on average this pack loses money.');
  return { pack: packDto(pack), products: sellers, slotOdds: slotOddsTable(pack.slots, stats), stats: s, warnings };
}

export async function getAdminPack(db: Db, id: string): Promise<AdminPackDetail> {
  const [pack] = await db.select().from(packs).where(eq(packs.id, id));
  if (!pack) throw notFound('No pack with this id.');
  return packDetail(db, pack);
}

async function assertClassesExist(db: DbOrTx, input: z.output<typeof packInputSchema>) {
  const stats = await poolStats(db, [{ id: 'x', slots: input.slots, pool: input.pool }]);
  const fields: Record<string, string[]> = {};
  input.slots.forEach((s, i) =>
    s.odds.forEach((e, j) => {
      if (stats.get('x')!.get(e.classId)?.name === 'Unknown class') fields[`slots.${i}.odds.${j}.classId`] = ['No such class.'];
    }),
  );
  if (Object.keys(fields).length) throw badRequest('Some classes in the odds do not exist.', fields);
}

export async function updatePack(deps: Deps, ctx: ShopActor, id: string, input: z.output<typeof packInputSchema>): Promise<AdminPackDetail> {
  return afterProductWrite(deps.db, () => deps.db.transaction(async (tx) => {
    const [before] = await tx.select().from(packs).where(eq(packs.id, id)).for('update');
    if (!before) throw notFound('No pack with this id.');
    await assertClassesExist(tx, input);
    if (ctx.role !== 'owner') {
      // Separation of duties (ADR 0024): new odds or a new pool may not make a live product of
      // this pack promise back more than the owner's bound. Its products are locked after the
      // pack, as updateProduct takes them, so no price cut slips in between.
      const selling = await tx
        .select({ name: products.name, priceCents: products.priceCents, status: products.status })
        .from(products)
        .where(and(eq(products.packId, id), eq(products.status, 'live')))
        .orderBy(asc(products.id))
        .for('update');
      if (selling.length) {
        const evBefore = await packExpectedValue(tx, before);
        const evAfter = await packExpectedValue(tx, input);
        for (const p of selling) {
          assertReturnWithinLimits(ctx, p, { ...p, evCents: evBefore }, { ...p, evCents: evAfter }, 'slots');
        }
      }
    }
    const [after] = await tx
      .update(packs)
      .set({ name: input.name, slots: input.slots, pool: input.pool, updatedAt: new Date() })
      .where(eq(packs.id, id))
      .returning();
    await audit(tx, { actorId: ctx.actorId, action: 'pack.update', targetType: 'pack', targetId: id, before: packDto(before), after: packDto(after!), ip: ctx.ip });
    // New odds or a new pool may put wished-for cards in the live products that sell this pack.
    const live = await tx.select({ id: products.id, name: products.name }).from(products).where(and(eq(products.packId, id), eq(products.status, 'live')));
    for (const p of live) await tellWishers(deps, tx, p, after!);
    await publishWithin(tx, live.map((p) => p.id));
    return packDetail(tx, after!);
  }));
}

/** Stats for an unsaved pack, so the editor shows floor / EV / ceiling / house edge live. */
export async function previewPack(db: Db, input: z.output<typeof packPreviewInputSchema>): Promise<AdminPackDetail> {
  const now = new Date();
  const pack: PackRow = { id: '', name: input.name, slots: input.slots, pool: input.pool, revision: 0, createdAt: now, updatedAt: now };
  return packDetail(db, pack, input.priceCents);
}
