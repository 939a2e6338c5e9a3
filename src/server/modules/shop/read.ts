import { and, desc, eq, gt, gte, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { imageUrl, type LookRefs } from '../../../shared/contracts/catalog.ts';
import type {
  CardOdds,
  CardPackOdds,
  Opening,
  PackPool,
  PackSlot,
  Product,
  ProductDetail,
  ProductSummary,
  Pull,
  PulledCard,
  TopPulls,
} from '../../../shared/contracts/shop.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { user } from '../auth/tables.ts';
import { cardClasses, cards } from '../catalog/tables.ts';
import { effectiveTexture } from '../catalog/cards.ts';
import { openings, packs, products } from '../../db/schema/shop.ts';
import { ownedCards } from '../inventory/tables.ts';
import { slabsOfCopies, slabView, type AssignedSlab } from '../inventory/slabs.ts';
import { userSeeds } from '../fairness/tables.ts';
import { notFound } from '../../http/errors.ts';
import { lookRefs } from '../catalog/look-refs.ts';
import { classesOf, packStats, slotOddsTable, type ClassPoolStats } from './odds.ts';

/** Read side of the shop: product lists and pages, pool statistics, pulls, openings. */

export type ProductRow = typeof products.$inferSelect;
export type PackRow = typeof packs.$inferSelect;

export function productDto(p: ProductRow): Product {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    imageKey: p.imageKey,
    imageUrl: p.imageKey ? imageUrl(p.imageKey) : null,
    priceCents: p.priceCents,
    status: p.status,
    releaseAt: p.releaseAt?.toISOString() ?? null,
    purchaseLimitPerUser: p.purchaseLimitPerUser,
    featured: p.featured,
    sortOrder: p.sortOrder,
    packId: p.packId,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

/** The cards a pack may give from `classIds`: active, not archived, in stock, in the pool. */
export function eligibleWhere(classIds: string[], pool: PackPool): SQL {
  return and(
    inArray(cards.classId, classIds),
    eq(cards.active, true),
    isNull(cards.archivedAt),
    gt(cards.stock, 0),
    pool.mode === 'cards' ? inArray(cards.id, pool.cardIds) : undefined,
  )!;
}

/** Per-class pool statistics for each pack (one grouped query per distinct pool definition). */
export async function poolStats(db: DbOrTx, packRows: Array<Pick<PackRow, 'id' | 'slots' | 'pool'>>) {
  const allClasses = [...new Set(packRows.flatMap((p) => classesOf(p.slots)))];
  const out = new Map<string, Map<string, ClassPoolStats>>();
  if (allClasses.length === 0) {
    for (const p of packRows) out.set(p.id, new Map());
    return out;
  }
  const names = await db
    .select({ id: cardClasses.id, name: cardClasses.name, colour: cardClasses.colour, archivedAt: cardClasses.archivedAt })
    .from(cardClasses)
    .where(inArray(cardClasses.id, allClasses));
  const nameOf = new Map(names.map((n) => [n.id, n]));
  const grouped = async (classIds: string[], pool: PackPool) =>
    db
      .select({
        classId: cards.classId,
        n: sql<number>`count(*)::int`,
        sum: sql<string>`coalesce(sum(${cards.valueCents}), 0)`,
        min: sql<number | null>`min(${cards.valueCents})`,
        max: sql<number | null>`max(${cards.valueCents})`,
      })
      .from(cards)
      .where(eligibleWhere(classIds, pool))
      .groupBy(cards.classId);
  const shared = packRows.some((p) => p.pool.mode === 'classes') ? await grouped(allClasses, { mode: 'classes' }) : [];
  for (const p of packRows) {
    const rows = p.pool.mode === 'classes' ? shared : classesOf(p.slots).length ? await grouped(classesOf(p.slots), p.pool) : [];
    const byClass = new Map(rows.map((r) => [r.classId, r]));
    const m = new Map<string, ClassPoolStats>();
    for (const classId of classesOf(p.slots)) {
      const r = byClass.get(classId);
      const n = nameOf.get(classId);
      m.set(classId, {
        classId,
        name: n?.name ?? 'Unknown class',
        colour: n?.colour ?? '#71717a',
        poolSize: r ? Number(r.n) : 0,
        sumValueCents: r ? Number(r.sum) : 0,
        minValueCents: r?.min ?? null,
        maxValueCents: r?.max ?? null,
      });
    }
    out.set(p.id, m);
  }
  return out;
}

export function summarize(p: ProductRow, pack: PackRow, stats: Map<string, ClassPoolStats>, now = new Date()): ProductSummary {
  const s = packStats(pack.slots, stats, p.priceCents);
  return {
    ...productDto(p),
    cardsPerPack: s.cardsPerPack,
    floorCents: s.floorCents,
    expectedValueCents: s.expectedValueCents,
    ceilingCents: s.ceilingCents,
    houseEdgeBp: s.houseEdgeBp,
    soldOut: s.soldOut,
    soldOutReasons: s.soldOutReasons,
    upcoming: !!p.releaseAt && p.releaseAt > now,
  };
}

export async function summaries(db: DbOrTx, rows: Array<{ p: ProductRow; pack: PackRow }>): Promise<ProductSummary[]> {
  const uniquePacks = [...new Map(rows.map((r) => [r.pack.id, r.pack])).values()];
  const stats = await poolStats(db, uniquePacks);
  return rows.map((r) => summarize(r.p, r.pack, stats.get(r.pack.id)!));
}

/** GET /api/shop/products: live products, featured first, then the admin's order. */
export async function listLiveProducts(db: Db): Promise<ProductSummary[]> {
  const rows = await db
    .select({ p: products, pack: packs })
    .from(products)
    .innerJoin(packs, eq(packs.id, products.packId))
    .where(eq(products.status, 'live'))
    .orderBy(desc(products.featured), products.sortOrder, products.createdAt);
  return summaries(db, rows);
}

export async function productWithPack(db: DbOrTx, id: string) {
  const [row] = await db.select({ p: products, pack: packs }).from(products).innerJoin(packs, eq(packs.id, products.packId)).where(eq(products.id, id));
  return row ?? null;
}

const MAX_CARD_ODDS = 1000;

/** Per-card odds: P(card from slot s) = P(class in s) / pool size of the class. */
export async function cardOddsTable(db: DbOrTx, slots: PackSlot[], pool: PackPool): Promise<CardOdds[]> {
  const classIds = classesOf(slots);
  if (!classIds.length) return [];
  const rows = await db
    .select({ id: cards.id, name: cards.name, classId: cards.classId, valueCents: cards.valueCents, imageKey: cards.imageKey, stock: cards.stock })
    .from(cards)
    .where(eligibleWhere(classIds, pool))
    .orderBy(desc(cards.valueCents), cards.id)
    .limit(50_000);
  const sizes = new Map<string, number>();
  for (const r of rows) sizes.set(r.classId, (sizes.get(r.classId) ?? 0) + 1);
  const perClass = slots.map((s) => {
    const total = s.odds.reduce((a, e) => a + e.weight, 0);
    return new Map(s.odds.map((e) => [e.classId, e.weight / total]));
  });
  return rows.slice(0, MAX_CARD_ODDS).map((r) => {
    const n = sizes.get(r.classId)!;
    const perSlot = perClass.map((m) => (m.get(r.classId) ?? 0) / n);
    return { cardId: r.id, name: r.name, classId: r.classId, valueCents: r.valueCents, imageKey: r.imageKey, stock: r.stock, perSlot, expectedPerPack: perSlot.reduce((a, b) => a + b, 0) };
  });
}

// Pulls ------------------------------------------------------------------------------------------

const pullSelect = {
  o: ownedCards,
  c: {
    id: cards.id,
    name: cards.name,
    setName: cards.setName,
    number: cards.number,
    imageKey: cards.imageKey,
    classId: cards.classId,
    architectId: cards.architectId,
    valueCents: cards.valueCents,
    textureId: effectiveTexture,
  },
  className: cardClasses.name,
  classColour: cardClasses.colour,
  classSortOrder: cardClasses.sortOrder,
  graded: sql<boolean>`${cards.gradingCompany} is not null`,
  username: user.username,
  productName: products.name,
};

/** The slabs of the graded copies among `rows` (issue 38): one read, only when there are any. */
async function slabsOfGraded(db: DbOrTx, rows: ReadonlyArray<{ o: { id: string }; graded: boolean }>) {
  const ids = rows.filter((r) => r.graded).map((r) => r.o.id);
  return ids.length ? slabsOfCopies(db, ids) : new Map<string, AssignedSlab>();
}

type PullRow = {
  o: typeof ownedCards.$inferSelect;
  graded: boolean;
  c: Omit<PulledCard, 'className' | 'classColour' | 'classSortOrder'>;
  className: string;
  classColour: string;
  classSortOrder: number;
  username: string;
  productName: string;
};

function pullDto(r: PullRow, slab: AssignedSlab | undefined): Pull {
  return {
    ownedCardId: r.o.id,
    openingId: r.o.openingId!,
    card: { ...r.c, className: r.className, classColour: r.classColour, classSortOrder: r.classSortOrder, ...(slab ? { slab: slabView(slab) } : {}) },
    valueCents: r.o.valueCents,
    productId: r.o.productId!,
    productName: r.productName,
    username: r.username,
    createdAt: r.o.acquiredAt.toISOString(),
  };
}

async function pulls(db: DbOrTx, where: SQL, limit: number): Promise<Pull[]> {
  const rows = await db
    .select(pullSelect)
    .from(ownedCards)
    .innerJoin(cards, eq(cards.id, ownedCards.cardId))
    .innerJoin(cardClasses, eq(cardClasses.id, cards.classId))
    .innerJoin(user, eq(user.id, ownedCards.ownerId))
    .innerJoin(products, eq(products.id, ownedCards.productId))
    .where(and(sql`${ownedCards.openingId} is not null`, where))
    .orderBy(desc(ownedCards.valueCents), desc(ownedCards.acquiredAt))
    .limit(limit);
  const slabs = await slabsOfGraded(db, rows);
  return rows.map((r) => pullDto(r, slabs.get(r.o.id)));
}

/** One pull by its owned card's id (the copy's later fate does not matter: the pull is history). */
export async function pullById(db: DbOrTx, ownedCardId: string): Promise<Pull | null> {
  const [p] = await pulls(db, eq(ownedCards.id, ownedCardId), 1);
  return p ?? null;
}

export async function refsFor(db: DbOrTx, cardsIn: Array<{ classId: string; architectId: string; textureId: string | null }>): Promise<LookRefs> {
  return sortedRefs(await lookRefs(db, cardsIn));
}

/** One order for refs however they were read, so a replayed answer equals the first one. */
export function sortedRefs(r: LookRefs): LookRefs {
  const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  return {
    classes: [...r.classes].sort((a, b) => a.sortOrder - b.sortOrder || byId(a, b)),
    architects: [...r.architects].sort(byId),
    textures: [...r.textures].sort(byId),
  };
}

const WINDOW_MS = { '24h': 24 * 3600_000, '7d': 7 * 24 * 3600_000, all: null } as const;

export async function topPulls(db: Db, window: keyof typeof WINDOW_MS, limit: number, minCents: number): Promise<TopPulls> {
  const ms = WINDOW_MS[window];
  const worth = gte(ownedCards.valueCents, minCents);
  const items = await pulls(db, ms ? and(worth, gte(ownedCards.acquiredAt, new Date(Date.now() - ms)))! : worth, limit);
  return { window, items, refs: await refsFor(db, items.map((i) => i.card)) };
}

export async function productDetail(db: Db, id: string, opts: { includeUnlisted?: boolean } = {}): Promise<ProductDetail> {
  const row = await productWithPack(db, id);
  if (!row || (!opts.includeUnlisted && row.p.status !== 'live')) throw notFound('This pack is not on sale.');
  const stats = (await poolStats(db, [row.pack])).get(row.pack.id)!;
  const [cardOdds, bestPulls] = await Promise.all([
    cardOddsTable(db, row.pack.slots, row.pack.pool),
    pulls(db, and(eq(ownedCards.productId, id), gte(ownedCards.acquiredAt, new Date(Date.now() - WINDOW_MS['7d'])))!, 12),
  ]);
  const classRefs = [...stats.keys()];
  const refs = await refsFor(db, bestPulls.map((p) => p.card));
  // Classes of the odds table too, so the page can colour every row even with no pulls yet.
  const missing = classRefs.filter((c) => !refs.classes.some((k) => k.id === c));
  if (missing.length) {
    const extra = await db
      .select({ id: cardClasses.id, name: cardClasses.name, colour: cardClasses.colour, sortOrder: cardClasses.sortOrder })
      .from(cardClasses)
      .where(inArray(cardClasses.id, missing));
    refs.classes.push(...extra);
  }
  return {
    product: summarize(row.p, row.pack, stats),
    slotOdds: slotOddsTable(row.pack.slots, stats),
    cardOdds,
    bestPulls,
    refs,
  };
}

// Openings ---------------------------------------------------------------------------------------

/** Openings as the API shows them; the server seed only when that seed has been rotated. */
export async function openingsDto(db: DbOrTx, rows: Array<typeof openings.$inferSelect>): Promise<Opening[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const [owned, seeds, prods] = await Promise.all([
    db
      .select({ o: ownedCards, c: pullSelect.c, className: cardClasses.name, classColour: cardClasses.colour, classSortOrder: cardClasses.sortOrder, graded: pullSelect.graded })
      .from(ownedCards)
      .innerJoin(cards, eq(cards.id, ownedCards.cardId))
      .innerJoin(cardClasses, eq(cardClasses.id, cards.classId))
      .where(inArray(ownedCards.openingId, ids)),
    db
      .select({ id: userSeeds.id, serverSeed: userSeeds.serverSeed, active: userSeeds.active })
      .from(userSeeds)
      .where(inArray(userSeeds.id, [...new Set(rows.map((r) => r.seedId))])),
    db.select({ id: products.id, name: products.name }).from(products).where(inArray(products.id, [...new Set(rows.map((r) => r.productId))])),
  ]);
  const seedOf = new Map(seeds.map((s) => [s.id, s]));
  const nameOf = new Map(prods.map((p) => [p.id, p.name]));
  const slabs = await slabsOfGraded(db, owned);
  const byOpening = new Map<string, typeof owned>();
  for (const o of owned) {
    const k = o.o.openingId!;
    if (!byOpening.has(k)) byOpening.set(k, []);
    byOpening.get(k)!.push(o);
  }
  return rows.map((r) => {
    const seed = seedOf.get(r.seedId);
    const list = (byOpening.get(r.id) ?? []).sort((a, b) => (a.o.slot ?? 0) - (b.o.slot ?? 0));
    return {
      id: r.id,
      userPackId: r.userPackId,
      purchaseId: r.purchaseId,
      productId: r.productId,
      productName: nameOf.get(r.productId) ?? '',
      packId: r.packId,
      cards: list.map((x) => ({
        ...x.c,
        // The value at acquisition, which is what the opening gave.
        valueCents: x.o.valueCents,
        className: x.className,
        classColour: x.classColour,
        classSortOrder: x.classSortOrder,
        slot: x.o.slot ?? 0,
        ownedCardId: x.o.id,
        ...(slabs.has(x.o.id) ? { slab: slabView(slabs.get(x.o.id)!) } : {}),
      })),
      totalValueCents: r.totalValueCents,
      fairness: {
        serverSeedHash: r.serverSeedHash,
        clientSeed: r.clientSeed,
        nonce: r.nonce,
        slots: r.slots,
        oddsHash: r.oddsHash,
        poolHash: r.poolHash,
        revisionHash: r.revisionHash,
        draws: r.draws,
        serverSeed: seed && !seed.active ? seed.serverSeed : null,
      },
      createdAt: r.createdAt.toISOString(),
    };
  });
}

/** The caller's own openings, in the order asked; any id not theirs (or unknown) is a 404. */
export async function openingsForReplay(db: DbOrTx, userId: string, ids: string[]) {
  const rows = await db.select().from(openings).where(and(inArray(openings.id, ids), eq(openings.userId, userId)));
  if (rows.length !== ids.length) throw notFound('No opening with this id.');
  const byId = new Map(rows.map((r) => [r.id, r]));
  const list = await openingsDto(db, ids.map((id) => byId.get(id)!));
  return { openings: list, refs: await refsFor(db, list.flatMap((o) => o.cards)) };
}

export async function getOpening(db: DbOrTx, id: string, viewer: { userId: string; isAdmin: boolean }) {
  const [row] = await db.select().from(openings).where(eq(openings.id, id));
  if (!row || (row.userId !== viewer.userId && !viewer.isAdmin)) throw notFound('No opening with this id.');
  const [opening] = await openingsDto(db, [row]);
  return { opening: opening!, refs: await refsFor(db, opening!.cards) };
}

export async function listOpenings(db: Db, userId: string, page: number, pageSize: number) {
  const [rows, [total]] = await Promise.all([
    db.select().from(openings).where(eq(openings.userId, userId)).orderBy(desc(openings.createdAt), desc(openings.id)).limit(pageSize).offset((page - 1) * pageSize),
    db.select({ n: sql<number>`count(*)::int` }).from(openings).where(eq(openings.userId, userId)),
  ]);
  const items = await openingsDto(db, rows);
  return { items, total: Number(total?.n ?? 0), page, pageSize, refs: await refsFor(db, items.flatMap((o) => o.cards)) };
}

/**
 * The live packs that can give one card, with the same odds the draw uses:
 * P(card from slot s) = P(class in s) / number of eligible in-stock cards of that class.
 */
export async function packsForCard(db: Db, cardId: string): Promise<CardPackOdds> {
  const [card] = await db.select({ id: cards.id }).from(cards).where(eq(cards.id, cardId));
  if (!card) throw notFound('No such card.');
  return { items: (await packsForCards(db, [cardId])).get(cardId) ?? [] };
}

/**
 * packsForCard for many cards at once (a wishlist, a set's missing cards): one grouped query per
 * live pack, whatever the number of cards. Unknown ids, and cards no live pack gives, map to nothing.
 */
export async function packsForCards(db: Db, cardIds: readonly string[]): Promise<Map<string, CardPackOdds['items']>> {
  const out = new Map<string, CardPackOdds['items']>();
  if (!cardIds.length) return out;
  const live = await db
    .select({ p: products, pack: packs })
    .from(products)
    .innerJoin(packs, eq(packs.id, products.packId))
    .where(eq(products.status, 'live'))
    .orderBy(products.sortOrder, products.name);
  for (const { p, pack } of live) {
    const slots = pack.slots as PackSlot[];
    const classIds = classesOf(slots);
    if (!classIds.length) continue;
    const pool = pack.pool as PackPool;
    // Which asked-for cards this pack can give, and per class how many cards share its draws.
    const [asked, sizes] = await Promise.all([
      db.select({ id: cards.id, classId: cards.classId }).from(cards).where(and(eligibleWhere(classIds, pool), inArray(cards.id, [...cardIds]))),
      db.select({ classId: cards.classId, n: sql<number>`count(*)::int` }).from(cards).where(eligibleWhere(classIds, pool)).groupBy(cards.classId),
    ]);
    if (!asked.length) continue;
    const item = new Map<string, CardPackOdds['items'][number]>();
    for (const { classId, n } of sizes) {
      const perSlot = slots.map((s) => {
        const total = s.odds.reduce((a, e) => a + e.weight, 0);
        const w = s.odds.find((e) => e.classId === classId)?.weight ?? 0;
        return total ? w / total / Number(n) : 0;
      });
      item.set(classId, { productId: p.id, productName: p.name, priceCents: p.priceCents, perSlot, expectedPerPack: perSlot.reduce((a, b) => a + b, 0) });
    }
    for (const { id, classId } of asked) {
      const odds = item.get(classId);
      if (!odds) continue;
      const list = out.get(id) ?? [];
      list.push(odds);
      out.set(id, list);
    }
  }
  return out;
}
