import { and, asc, count, desc, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import {
  buybackAmount,
  type CollectionPage,
  type collectionQuerySchema,
  type OwnedCard,
  type OwnedCardDetail,
} from '../../../shared/contracts/collection.ts';
import type { DbOrTx } from '../../db/client.ts';
import { buybackLines, buybacks } from '../buyback/tables.ts';
import { cardClasses, cards } from '../catalog/tables.ts';
import { effectiveTexture } from '../catalog/cards.ts';
import { openings, products } from '../shop/tables.ts';
import { cardSlabs, ownedCards } from '../inventory/tables.ts';
import type { GradingCompany } from '../../../shared/contracts/grading.ts';
import { notFound } from '../../http/errors.ts';
import { likePattern } from '../../lib/like.ts';
import { effectiveRateSql, getDefaultRateBp } from '../buyback/rates.ts';
import { lookRefs } from '../catalog/look-refs.ts';

/**
 * The vault: a user's owned copies, with the card to draw, the current market value and what
 * selling each back pays now. Reads only; buyback and the admin tools change owned cards.
 */

/** Columns of one owned card joined to its card and class (the rate needs the default). */
export function ownedCardColumns(defaultRateBp: number) {
  return {
    id: ownedCards.id,
    status: ownedCards.status,
    acquiredVia: ownedCards.acquiredVia,
    acquiredAt: ownedCards.acquiredAt,
    acquiredValueCents: ownedCards.valueCents,
    openingId: ownedCards.openingId,
    productId: ownedCards.productId,
    slot: ownedCards.slot,
    ownerId: ownedCards.ownerId,
    cardId: cards.id,
    name: cards.name,
    setName: cards.setName,
    number: cards.number,
    valueCents: cards.valueCents,
    imageKey: cards.imageKey,
    classId: cards.classId,
    architectId: cards.architectId,
    textureId: effectiveTexture,
    className: cardClasses.name,
    classColour: cardClasses.colour,
    rateBp: effectiveRateSql(defaultRateBp),
    stock: cards.stock,
    description: cards.description,
    gradingCompany: cards.gradingCompany,
    grade: cards.grade,
    frontPhotoKey: cards.frontPhotoKey,
    backPhotoKey: cards.backPhotoKey,
    // The slab this copy is (issue 38): its own certificate, grade and photos, not the listing's.
    slab: sql<SlabJson | string | null>`(select json_build_object('grader', s.grader, 'grade', s.grade, 'certNumber', s.cert_number,
      'frontPhotoKey', s.front_photo_key, 'backPhotoKey', s.back_photo_key) from ${cardSlabs} s where s.owned_card_id = ${ownedCards.id})`,
  };
}

interface SlabJson {
  grader: GradingCompany;
  grade: number | string;
  certNumber: string | null;
  frontPhotoKey: string | null;
  backPhotoKey: string | null;
}

const slabOf = (r: OwnedCardRow): SlabJson | null => (typeof r.slab === 'string' ? (JSON.parse(r.slab) as SlabJson) : r.slab);

/** What the copy shows: its slab's grading and photos, else (a raw card, a copy since sold back) the card's listing. */
function gradingOf(r: OwnedCardRow) {
  const slab = slabOf(r);
  if (slab) return { grading: { company: slab.grader, grade: Number(slab.grade), certNumber: slab.certNumber }, frontPhotoKey: slab.frontPhotoKey, backPhotoKey: slab.backPhotoKey };
  return {
    grading: r.gradingCompany && r.grade !== null ? { company: r.gradingCompany, grade: r.grade, certNumber: null } : null,
    frontPhotoKey: r.frontPhotoKey,
    backPhotoKey: r.backPhotoKey,
  };
}

type Owned = typeof ownedCards.$inferSelect;
type CardRow = typeof cards.$inferSelect;
export interface OwnedCardRow {
  id: string;
  status: Owned['status'];
  acquiredVia: Owned['acquiredVia'];
  acquiredAt: Date;
  acquiredValueCents: number;
  openingId: string | null;
  productId: string | null;
  slot: number | null;
  ownerId: string;
  cardId: string;
  name: string;
  setName: string;
  number: number;
  valueCents: number;
  imageKey: string;
  classId: string;
  architectId: string;
  textureId: string | null;
  className: string;
  classColour: string;
  rateBp: number;
  stock: CardRow['stock'];
  description: string;
  gradingCompany: CardRow['gradingCompany'];
  grade: CardRow['grade'];
  frontPhotoKey: CardRow['frontPhotoKey'];
  backPhotoKey: CardRow['backPhotoKey'];
  slab: SlabJson | string | null;
}

export function ownedCardDto(r: OwnedCardRow): OwnedCard {
  return {
    id: r.id,
    status: r.status,
    acquiredVia: r.acquiredVia,
    acquiredAt: r.acquiredAt.toISOString(),
    acquiredValueCents: r.acquiredValueCents,
    openingId: r.openingId,
    productId: r.productId,
    card: {
      id: r.cardId,
      name: r.name,
      setName: r.setName,
      number: r.number,
      valueCents: r.valueCents,
      imageKey: r.imageKey,
      classId: r.classId,
      architectId: r.architectId,
      textureId: r.textureId,
      grading: gradingOf(r).grading,
    },
    className: r.className,
    classColour: r.classColour,
    valueCents: r.valueCents,
    rateBp: Number(r.rateBp),
    buybackCents: buybackAmount(r.valueCents, Number(r.rateBp)),
  };
}

export const SORTS: Record<z.output<typeof collectionQuerySchema>['sort'], SQL[]> = {
  acquired_desc: [desc(ownedCards.acquiredAt), asc(ownedCards.id)],
  acquired_asc: [asc(ownedCards.acquiredAt), asc(ownedCards.id)],
  value_desc: [desc(cards.valueCents), desc(ownedCards.acquiredAt), asc(ownedCards.id)],
  value_asc: [asc(cards.valueCents), desc(ownedCards.acquiredAt), asc(ownedCards.id)],
  name: [sql`lower(${cards.name})`, asc(cards.number), asc(ownedCards.id)],
};

export async function listCollection(
  db: DbOrTx,
  userId: string,
  q: z.output<typeof collectionQuerySchema>,
): Promise<CollectionPage> {
  const defaultRateBp = getDefaultRateBp();
  const mine = eq(ownedCards.ownerId, userId);
  const where = and(
    mine,
    q.status === 'all' ? undefined : eq(ownedCards.status, q.status),
    q.classId ? eq(cards.classId, q.classId) : undefined,
    q.set ? eq(cards.setName, q.set) : undefined,
    q.q ? ilike(cards.name, likePattern(q.q)) : undefined,
    q.graded === 'true' ? sql`${cards.gradingCompany} is not null` : q.graded === 'false' ? sql`${cards.gradingCompany} is null` : undefined,
    q.ids ? (q.ids.length ? inArray(ownedCards.id, q.ids) : sql`false`) : undefined,
  );
  const rate = effectiveRateSql(defaultRateBp);
  const [rows, [totalRow], [vault], statusRows, classRows, setRows] = await Promise.all([
    db
      .select(ownedCardColumns(defaultRateBp))
      .from(ownedCards)
      .innerJoin(cards, eq(cards.id, ownedCards.cardId))
      .innerJoin(cardClasses, eq(cardClasses.id, cards.classId))
      .where(where)
      .orderBy(...SORTS[q.sort])
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db
      .select({ n: count() })
      .from(ownedCards)
      .innerJoin(cards, eq(cards.id, ownedCards.cardId))
      .where(where),
    db
      .select({
        n: count(),
        value: sql<string | null>`sum(${cards.valueCents})`,
        buyback: sql<string | null>`sum(floor(${cards.valueCents}::bigint * ${rate} / 10000))`,
      })
      .from(ownedCards)
      .innerJoin(cards, eq(cards.id, ownedCards.cardId))
      .innerJoin(cardClasses, eq(cardClasses.id, cards.classId))
      .where(and(mine, eq(ownedCards.status, 'in_vault'))),
    db.select({ status: ownedCards.status, n: count() }).from(ownedCards).where(mine).groupBy(ownedCards.status),
    db
      .selectDistinct({ id: cardClasses.id, name: cardClasses.name, colour: cardClasses.colour, sortOrder: cardClasses.sortOrder })
      .from(ownedCards)
      .innerJoin(cards, eq(cards.id, ownedCards.cardId))
      .innerJoin(cardClasses, eq(cardClasses.id, cards.classId))
      .where(mine)
      .orderBy(asc(cardClasses.sortOrder), asc(cardClasses.name)),
    db
      .selectDistinct({ name: cards.setName })
      .from(ownedCards)
      .innerJoin(cards, eq(cards.id, ownedCards.cardId))
      .where(mine)
      .orderBy(asc(cards.setName)),
  ]);
  const items = rows.map(ownedCardDto);
  return {
    items,
    total: Number(totalRow?.n ?? 0),
    page: q.page,
    pageSize: q.pageSize,
    vault: {
      count: Number(vault?.n ?? 0),
      valueCents: Number(vault?.value ?? 0),
      buybackCents: Number(vault?.buyback ?? 0),
    },
    statusCounts: Object.fromEntries(statusRows.map((r) => [r.status, Number(r.n)])),
    classes: classRows.map(({ id, name, colour }) => ({ id, name, colour })),
    sets: setRows.map((r) => r.name),
    refs: await lookRefs(db, items.map((i) => i.card)),
  };
}

/**
 * The first cards of the vault as it opens (in the vault, newest first: listCollection's default),
 * with what draws them: the page server names their images in /collect's HTML.
 */
export async function firstVaultCards(db: DbOrTx, userId: string, n: number): Promise<Pick<CollectionPage, 'refs'> & { cards: OwnedCard['card'][] }> {
  const rows = await db
    .select(ownedCardColumns(getDefaultRateBp()))
    .from(ownedCards)
    .innerJoin(cards, eq(cards.id, ownedCards.cardId))
    .innerJoin(cardClasses, eq(cardClasses.id, cards.classId))
    .where(and(eq(ownedCards.ownerId, userId), eq(ownedCards.status, 'in_vault')))
    .orderBy(...SORTS.acquired_desc)
    .limit(n);
  const found = rows.map((r) => ownedCardDto(r).card);
  return { cards: found, refs: await lookRefs(db, found) };
}

/** One owned card of this user (another user's card is "not found", never "forbidden"). */
export async function getOwnedCard(db: DbOrTx, userId: string | null, ownedCardId: string): Promise<OwnedCardDetail> {
  const defaultRateBp = getDefaultRateBp();
  const [row] = await db
    .select(ownedCardColumns(defaultRateBp))
    .from(ownedCards)
    .innerJoin(cards, eq(cards.id, ownedCards.cardId))
    .innerJoin(cardClasses, eq(cardClasses.id, cards.classId))
    .where(and(eq(ownedCards.id, ownedCardId), userId === null ? undefined : eq(ownedCards.ownerId, userId)));
  if (!row) throw notFound('This card is not in your collection.');
  const [opening] = row.openingId
    ? await db
        .select({
          id: openings.id,
          productId: openings.productId,
          productName: products.name,
          serverSeedHash: openings.serverSeedHash,
          clientSeed: openings.clientSeed,
          nonce: openings.nonce,
          createdAt: openings.createdAt,
        })
        .from(openings)
        .innerJoin(products, eq(products.id, openings.productId))
        // The opening is its opener's: a copy bought on the market shows no one else's seeds.
        .where(and(eq(openings.id, row.openingId), userId === null ? undefined : eq(openings.userId, userId)))
    : [];
  const [sale] = await db
    .select({
      id: buybacks.id,
      amountCents: buybackLines.amountCents,
      rateBp: buybackLines.rateBp,
      marketValueCents: buybackLines.marketValueCents,
      createdAt: buybacks.createdAt,
    })
    .from(buybackLines)
    .innerJoin(buybacks, eq(buybacks.id, buybackLines.buybackId))
    .where(eq(buybackLines.ownedCardId, row.id));
  const dto = ownedCardDto(row);
  return {
    ownedCard: { ...dto, description: row.description, frontPhotoKey: gradingOf(row).frontPhotoKey, backPhotoKey: gradingOf(row).backPhotoKey },
    opening: opening
      ? { ...opening, slot: row.slot, createdAt: opening.createdAt.toISOString() }
      : null,
    buyback: sale ? { ...sale, createdAt: sale.createdAt.toISOString() } : null,
    refs: await lookRefs(db, [dto.card]),
  };
}
