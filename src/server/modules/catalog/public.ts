import { and, asc, count, eq, ilike, isNull, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { publicCardListQuerySchema, type PublicCard, type PublicCardDetail, type PublicCardPage, type PublicSet } from '../../../shared/contracts/catalog.ts';
import type { Db } from '../../db/client.ts';
import type { Grading, GradingCompany } from '../../../shared/contracts/grading.ts';
import { cardClasses, cards } from '../../db/schema/catalog.ts';
import { notFound } from '../../http/errors.ts';
import { ResponseCache, type CachedResponse } from './response-cache.ts';
import { CACHE_ABOVE, PUBLIC_CACHE_TTL_MS, PUBLIC_LIST_CACHE, cachedCount, generationOf, publicListCache, setsCache } from './cache.ts';
import { effectiveTexture, gradedWhere } from './cards.ts';
import { likePattern } from '../../lib/like.ts';
import { lookRefs } from './look-refs.ts';

/** The public catalog reads (/api/cards, classes, sets), served through the caches in cache.ts. */

const PUBLIC_ORDER: Record<z.output<typeof publicCardListQuerySchema>['sort'], SQL[]> = {
  // Written to match the partial indexes exactly (direction and NULLS placement), so the
  // planner walks an index and stops after one page.
  value_desc: [sql`${cards.valueCents} desc nulls last`, sql`${cards.id} asc`],
  value_asc: [sql`${cards.valueCents} asc nulls first`, sql`${cards.id} desc`],
  name: [sql`lower(${cards.name}) asc`, sql`${cards.id} asc`],
  newest: [sql`${cards.createdAt} desc nulls last`, sql`${cards.id} asc`],
};

export const publicCardColumns = {
  id: cards.id,
  name: cards.name,
  setName: cards.setName,
  number: cards.number,
  valueCents: cards.valueCents,
  imageKey: cards.imageKey,
  classId: cards.classId,
  architectId: cards.architectId,
  textureId: effectiveTexture,
  gradingCompany: cards.gradingCompany,
  grade: cards.grade,
  certNumber: cards.certNumber,
};

type GradingColumns = { gradingCompany: GradingCompany | null; grade: number | null; certNumber: string | null };

/** The flat grading columns as the public card's `grading` (null for a raw card). */
export function withGrading<T extends GradingColumns>(row: T): Omit<T, keyof GradingColumns> & { grading: Grading | null } {
  const { gradingCompany, grade, certNumber, ...rest } = row;
  // A listing's grade; each slab has its own certificate (issue 38), so the catalog names none.
  return { ...rest, grading: gradingCompany && grade !== null ? { company: gradingCompany, grade, certNumber: certNumber ?? null } : null };
}


/** The validated query (defaults applied, strings trimmed) as a key; one key per distinct answer. */
export function publicCardListKey(q: z.output<typeof publicCardListQuerySchema>): string {
  return JSON.stringify([q.sort, q.page, q.pageSize, q.classId ?? null, q.set ?? null, q.q ?? null, q.graded ?? null]);
}

/** listPublicCards, serialized, from the cache when it holds the page. */
export async function publicCardPageResponse(db: Db, q: z.output<typeof publicCardListQuerySchema>): Promise<CachedResponse> {
  let cache = publicListCache.get(db);
  if (!cache) publicListCache.set(db, (cache = new ResponseCache(PUBLIC_LIST_CACHE)));
  return cache.get(publicCardListKey(q), () => listPublicCards(db, q));
}

export async function listPublicCards(db: Db, q: z.output<typeof publicCardListQuerySchema>): Promise<PublicCardPage> {
  const where = and(
    eq(cards.active, true),
    q.q ? ilike(cards.name, likePattern(q.q)) : undefined,
    q.classId ? eq(cards.classId, q.classId) : undefined,
    q.set ? eq(cards.setName, q.set) : undefined,
    gradedWhere(q.graded),
  );
  const [rows, [{ total } = { total: 0 }]] = await Promise.all([
    db
      .select(publicCardColumns)
      .from(cards)
      .innerJoin(cardClasses, eq(cardClasses.id, cards.classId))
      .where(where)
      .orderBy(...PUBLIC_ORDER[q.sort])
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    q.q ? db.select({ total: count() }).from(cards).where(where) : cachedCount(db, `${q.classId ?? ''}|${q.set ?? ''}|${q.graded ?? ''}`, where),
  ]);
  const items = rows.map(withGrading);
  const refs = await lookRefs(db, items);
  return { items: items as PublicCard[], total, page: q.page, pageSize: q.pageSize, refs };
}

export async function getPublicCard(db: Db, id: string): Promise<PublicCardDetail> {
  const [row] = await db
    .select({ ...publicCardColumns, description: cards.description, stock: cards.stock, frontPhotoKey: cards.frontPhotoKey, backPhotoKey: cards.backPhotoKey })
    .from(cards)
    .innerJoin(cardClasses, eq(cardClasses.id, cards.classId))
    .where(and(eq(cards.id, id), eq(cards.active, true)));
  if (!row) throw notFound('This card is not in the catalog.');
  const { stock, ...rest } = row;
  const card = withGrading(rest);
  const refs = await lookRefs(db, [card]);
  return { card: { ...card, inStock: stock > 0 }, refs };
}

export async function listPublicClasses(db: Db) {
  return db
    .select({ id: cardClasses.id, name: cardClasses.name, colour: cardClasses.colour, sortOrder: cardClasses.sortOrder })
    .from(cardClasses)
    .where(isNull(cardClasses.archivedAt))
    .orderBy(asc(cardClasses.sortOrder), asc(cardClasses.name));
}


export async function listPublicSets(db: Db): Promise<PublicSet[]> {
  const hit = setsCache.get(db);
  if (hit && Date.now() - hit.at < PUBLIC_CACHE_TTL_MS) return hit.sets;
  const generation = generationOf(db);
  const at = Date.now();
  const sets = await db
    .select({ name: cards.setName, cardCount: count() })
    .from(cards)
    .where(eq(cards.active, true))
    .groupBy(cards.setName)
    .orderBy(asc(cards.setName));
  if (sets.reduce((n, x) => n + x.cardCount, 0) > CACHE_ABOVE && generation === generationOf(db)) setsCache.set(db, { sets, at });
  return sets;
}
