import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { PackPool, PackSlot } from '../../../shared/contracts/shop.ts';
import type { OddsRevision, OddsRevisionSummary } from '../../../shared/contracts/odds.ts';
import { cmp } from '../../../shared/fairness.ts';
import { classPoolCanonical, revisionCanonical, revisionMoments, type PoolMoments } from '../../../shared/odds-revision.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { oddsClassPools, oddsRevisions, packs, products } from '../../db/schema/shop.ts';
import { notFound } from '../../http/errors.ts';
import { frozenJson } from '../../lib/frozen-json.ts';
import { cards, cardClasses, catalogState } from '../catalog/tables.ts';
import { sha256HexSync } from '../fairness/crypto.ts';
import { classesOf } from './odds.ts';

/**
 * Odds revisions (issue 44, ADR 0031): the terms a product's packs are drawn under, hashed and
 * published before the first opening under them; each opening names its revision
 * (openings.revision_hash, a foreign key, so the database itself refuses an opening under an
 * unpublished revision).
 *
 * A revision is a function of the product's id and price, the slots drawn with, the pack's pool
 * rule and the catalogue (which cards a class holds whatever their stock, and their values).
 * The catalogue part is versioned by `catalog_state.odds_version` (migration 0030: a new random
 * value when membership ignoring stock or a value changes), so a process computes each revision
 * once per version and the open path only looks it up (no query per opening). Stock is not part
 * of a revision: it changes with every sale. Each opening's own pool (pool_hash, the cards in
 * stock then) must be a subset of its revision's pools, which `coveredBy` checks once per pair.
 */

export interface ClassPool {
  classId: string;
  /** [cardId, valueCents] in id order. */
  cards: Array<[string, number]>;
  hash: string;
  ids: ReadonlySet<string>;
  moments: PoolMoments;
}

export interface Revision {
  hash: string;
  productId: string;
  priceCents: number;
  slots: PackSlot[];
  classes: ClassPool[];
  meanCents: number;
  varianceCents2: number;
}

/** Thrown when the catalogue moved between reading its version and its cards: retry on a fresh read. */
export class RevisionRace extends Error {
  constructor() {
    super('the catalogue changed while its odds revision was read');
    this.name = 'RevisionRace';
  }
}

// Per-process caches, keyed by the random odds version (never shared by two databases), bounded.
const MAX = 256;
const classPoolCache = new Map<string, Map<string, ClassPool>>();
const revisionCache = new Map<string, Revision>();
/** Revision hashes known to be committed (rows are never deleted; a hash names a product's random id). */
const published = new Set<string>();
let lastOdds: string | null = null;

function remember<V>(map: Map<string, V>, key: string, value: V) {
  if (map.size >= MAX) map.delete(map.keys().next().value!);
  map.set(key, value);
}

export function lastOddsVersion(): string | null {
  return lastOdds;
}
export function forgetOddsVersion() {
  lastOdds = null;
}

export async function oddsVersion(db: DbOrTx): Promise<string> {
  const [row] = await db.select({ v: catalogState.oddsVersion }).from(catalogState).where(eq(catalogState.id, 1));
  lastOdds = row!.v;
  return row!.v;
}

/** The cards a pack may give from `classIds` whatever their stock: active, not archived, in the list. */
function catalogueWhere(classIds: string[], pool: PackPool) {
  return and(
    inArray(cards.classId, classIds),
    eq(cards.active, true),
    isNull(cards.archivedAt),
    pool.mode === 'cards' ? inArray(cards.id, pool.cardIds) : undefined,
  );
}

function classPool(classId: string, list: Array<[string, number]>): ClassPool {
  list.sort((a, b) => cmp(a[0], b[0]));
  let sum = 0;
  let sumSq = 0;
  for (const [, v] of list) {
    sum += v;
    sumSq += v * v;
  }
  return {
    classId,
    cards: list,
    hash: sha256HexSync(classPoolCanonical({ classId, cards: list })),
    ids: new Set(list.map(([id]) => id)),
    moments: { n: list.length, sum, sumSq },
  };
}

/**
 * The class pools at `version`, read in ONE statement with the version itself, so both come from
 * the same snapshot; a different version than expected means the catalogue moved: RevisionRace.
 */
async function classPools(db: DbOrTx, version: string, classIds: string[], pool: PackPool): Promise<Map<string, ClassPool>> {
  const key = `${version}|${classIds.join(',')}|${frozenJson(pool)}`;
  const hit = classPoolCache.get(key);
  if (hit) return hit;
  const rows = await db
    .select({ v: catalogState.oddsVersion, id: cards.id, classId: cards.classId, value: cards.valueCents })
    .from(catalogState)
    .leftJoin(cards, catalogueWhere(classIds, pool))
    .where(eq(catalogState.id, 1))
    .orderBy(asc(cards.classId), asc(cards.id));
  if (rows[0]?.v !== version) throw new RevisionRace();
  const lists = new Map<string, Array<[string, number]>>(classIds.map((c) => [c, []]));
  for (const r of rows) if (r.id !== null) lists.get(r.classId!)!.push([r.id, r.value!]);
  const out = new Map([...lists].map(([c, list]) => [c, classPool(c, list)]));
  remember(classPoolCache, key, out);
  return out;
}

/** The revision `product` at `price` is drawn under with `slots` at catalogue version `version`. */
export async function revisionFor(
  db: DbOrTx,
  version: string,
  product: { id: string; priceCents: number },
  slots: PackSlot[],
  pool: PackPool,
): Promise<Revision> {
  const key = `${version}|${product.id}|${product.priceCents}|${frozenJson(slots)}|${frozenJson(pool)}`;
  const hit = revisionCache.get(key);
  if (hit) return hit;
  const classIds = classesOf(slots);
  const pools = await classPools(db, version, classIds, pool);
  const classes = classIds.map((c) => pools.get(c)!);
  const hash = sha256HexSync(
    revisionCanonical({ productId: product.id, priceCents: product.priceCents, slots, classes: classes.map((c) => ({ classId: c.classId, hash: c.hash })) }),
  );
  const m = revisionMoments(slots, new Map(classes.map((c) => [c.classId, c.moments])));
  const rev: Revision = { hash, productId: product.id, priceCents: product.priceCents, slots, classes, meanCents: m.mean, varianceCents2: m.variance };
  remember(revisionCache, key, rev);
  return rev;
}

const covered = new Set<string>();
/**
 * Whether every card of `pools` (what an opening draws from: in stock) is in its class's pool of
 * `rev`. Checked once per (pool, revision) pair: both are addressed by their content's hash.
 */
export function coveredBy(poolHash: string, pools: Readonly<Record<string, readonly string[]>>, rev: Revision): boolean {
  const key = `${poolHash}|${rev.hash}`;
  if (covered.has(key)) return true;
  const byClass = new Map(rev.classes.map((c) => [c.classId, c.ids]));
  for (const [classId, ids] of Object.entries(pools)) {
    const set = byClass.get(classId);
    if (!set) return false;
    for (const id of ids) if (!set.has(id)) return false;
  }
  if (covered.size >= 10_000) covered.clear();
  covered.add(key);
  return true;
}

/** Whether this process knows `hash` is committed (the one-statement opening's test). */
export function revisionPublished(hash: string): boolean {
  return published.has(hash);
}

/** Looks `hash` up once and remembers it when it is there (committed: another transaction's read). */
export async function confirmPublished(db: DbOrTx, hash: string): Promise<boolean> {
  if (published.has(hash)) return true;
  const [row] = await db.select({ h: oddsRevisions.hash }).from(oddsRevisions).where(eq(oddsRevisions.hash, hash));
  if (row) rememberPublished(hash);
  return Boolean(row);
}

function rememberPublished(hash: string) {
  if (published.size >= 10_000) published.clear();
  published.add(hash);
}

/**
 * Appends `rev` to its product's history unless it is there (content-addressed: the same terms
 * again are the same row). Call it inside the transaction of the opening or sale it is for; the
 * caller remembers nothing, since the transaction may still roll back.
 */
export async function publishRevision(tx: DbOrTx, rev: Revision): Promise<void> {
  if (published.has(rev.hash)) return;
  if (rev.classes.length) {
    await tx
      .insert(oddsClassPools)
      .values(rev.classes.map((c) => ({ hash: c.hash, classId: c.classId, cards: c.cards })))
      .onConflictDoNothing({ target: oddsClassPools.hash });
  }
  await tx
    .insert(oddsRevisions)
    .values({
      hash: rev.hash,
      productId: rev.productId,
      priceCents: rev.priceCents,
      slots: rev.slots,
      classes: rev.classes.map((c) => ({ classId: c.classId, hash: c.hash })),
      meanCents: rev.meanCents,
      varianceCents2: rev.varianceCents2,
    })
    .onConflictDoNothing({ target: oddsRevisions.hash });
}

/**
 * Publishes the current revision of a product (in its own transaction) and remembers it: when it
 * goes live or its odds, price or pack change, and before its history is listed. Null for a
 * product with no odds yet.
 */
export async function publishCurrent(db: Db, productId: string): Promise<Revision | null> {
  for (let attempt = 0; ; attempt++) {
    try {
      const rev = await db.transaction(async (tx) => {
        const [row] = await tx.select({ p: products, pack: packs }).from(products).innerJoin(packs, eq(packs.id, products.packId)).where(eq(products.id, productId));
        if (!row || row.pack.slots.length === 0) return null;
        const r = await revisionFor(tx, await oddsVersion(tx), row.p, row.pack.slots, row.pack.pool);
        await publishRevision(tx, r);
        return r;
      });
      if (rev) rememberPublished(rev.hash);
      return rev;
    } catch (err) {
      if (err instanceof RevisionRace && attempt < 3) continue;
      throw err;
    }
  }
}

// Reads --------------------------------------------------------------------------------------------

function summaryDto(r: typeof oddsRevisions.$inferSelect, number: number): OddsRevisionSummary {
  return {
    hash: r.hash,
    number,
    productId: r.productId,
    priceCents: r.priceCents,
    slots: r.slots,
    classes: r.classes,
    expectedValueCents: Math.round(r.meanCents),
    promisedReturnBps: r.priceCents > 0 ? Math.round((r.meanCents / r.priceCents) * 10_000) : null,
    publishedAt: r.createdAt.toISOString(),
  };
}

/** A product's revisions, newest first, numbered from 1 in the order they were published. */
export async function listRevisions(db: Db, productId: string) {
  const [p] = await db.select({ id: products.id, name: products.name, status: products.status, priceCents: products.priceCents }).from(products).where(eq(products.id, productId));
  // A draft is not public yet; its revisions (if any were made in testing) are not either.
  if (!p || p.status === 'draft') throw notFound('No product with this id.');
  const current = p.status === 'live' ? await publishCurrent(db, productId) : null;
  const rows = await db.select().from(oddsRevisions).where(eq(oddsRevisions.productId, productId)).orderBy(desc(oddsRevisions.seq));
  const names = await classNames(db, [...new Set(rows.flatMap((r) => r.classes.map((c) => c.classId)))]);
  return {
    product: { id: p.id, name: p.name, status: p.status, priceCents: p.priceCents },
    currentHash: current?.hash ?? null,
    classNames: names,
    items: rows.map((r, i) => summaryDto(r, rows.length - i)),
  };
}

async function classNames(db: DbOrTx, ids: string[]): Promise<Record<string, string>> {
  if (!ids.length) return {};
  const rows = await db.select({ id: cardClasses.id, name: cardClasses.name }).from(cardClasses).where(inArray(cardClasses.id, ids));
  return Object.fromEntries(rows.map((r) => [r.id, r.name]));
}

/** One revision with its class pools in full: everything needed to recompute its hash. */
export async function getRevision(db: Db, hash: string): Promise<OddsRevision> {
  const [r] = await db.select().from(oddsRevisions).where(eq(oddsRevisions.hash, hash));
  if (!r) throw notFound('No odds revision has this hash. Check that you copied all 64 characters.');
  const [number] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(oddsRevisions)
    .where(and(eq(oddsRevisions.productId, r.productId), sql`${oddsRevisions.seq} <= ${r.seq}`));
  const pools = await db.select().from(oddsClassPools).where(inArray(oddsClassPools.hash, r.classes.map((c) => c.hash)));
  const byHash = new Map(pools.map((p) => [p.hash, p]));
  const [product] = await db.select({ name: products.name }).from(products).where(eq(products.id, r.productId));
  return {
    ...summaryDto(r, Number(number?.n ?? 1)),
    productName: product?.name ?? '',
    classNames: await classNames(db, r.classes.map((c) => c.classId)),
    classes: r.classes.map((c) => ({ classId: c.classId, hash: c.hash, cards: byHash.get(c.hash)?.cards ?? [] })),
  };
}

/** Mean and variance of every revision of `productIds` (the returns page): small columns, no class pools. */
export async function revisionFacts(db: DbOrTx, productIds: string[]) {
  if (!productIds.length) return [];
  return db
    .select({
      hash: oddsRevisions.hash,
      seq: oddsRevisions.seq,
      productId: oddsRevisions.productId,
      priceCents: oddsRevisions.priceCents,
      slots: oddsRevisions.slots,
      meanCents: oddsRevisions.meanCents,
      varianceCents2: oddsRevisions.varianceCents2,
      createdAt: oddsRevisions.createdAt,
    })
    .from(oddsRevisions)
    .where(inArray(oddsRevisions.productId, productIds));
}

/**
 * Publishes, in the caller's transaction, the current revision of each of `productIds` that is
 * live with odds: an admin's change to a product or its pack commits together with the terms it
 * makes, so they are public before any sale can see them. A catalogue that moves meanwhile only
 * postpones it to the first opening's transaction (still at the latest with the first sale).
 */
export async function publishWithin(tx: DbOrTx, productIds: string[]): Promise<void> {
  if (!productIds.length) return;
  const rows = await tx
    .select({ p: products, pack: packs })
    .from(products)
    .innerJoin(packs, eq(packs.id, products.packId))
    .where(and(inArray(products.id, productIds), eq(products.status, 'live')));
  const version = await oddsVersion(tx);
  for (const { p, pack } of rows) {
    if (pack.slots.length === 0) continue;
    try {
      await publishRevision(tx, await revisionFor(tx, version, p, pack.slots, pack.pool));
    } catch (err) {
      if (!(err instanceof RevisionRace)) throw err;
    }
  }
}
