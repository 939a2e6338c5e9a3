import { and, asc, count, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { MAX_WISHLIST, type MissingCards, type SetCompletionList, type Wishlist, type WishlistChange } from '../../../shared/contracts/collection.ts';
import type { PublicCard } from '../../../shared/contracts/catalog.ts';
import type { DbOrTx } from '../../db/client.ts';
import { wishlist } from '../../db/schema/collection.ts';
import type { Deps } from '../../deps.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { cardClasses, cards } from '../catalog/tables.ts';
import { lookRefs } from '../catalog/look-refs.ts';
import { publicCardColumns, withGrading } from '../catalog/public.ts';
import { ownedCards } from '../inventory/tables.ts';
import { notifyWishlistLive } from '../notifications/service.ts';

/**
 * Collecting (issue 19): how much of each set a user holds, what is missing, and the wishlist.
 * A set's cards are the catalog's visible ones (active, not archived); a card counts as owned
 * while a copy is in the vault (shipped or sold copies are gone from the collection).
 */

const inCatalog = and(eq(cards.active, true), isNull(cards.archivedAt))!;

/** One grouped query: every set with its size and the distinct cards of it in this user's vault. */
export async function setCompletion(db: DbOrTx, userId: string): Promise<SetCompletionList> {
  const mine = db
    .selectDistinct({ cardId: ownedCards.cardId })
    .from(ownedCards)
    .where(and(eq(ownedCards.ownerId, userId), eq(ownedCards.status, 'in_vault')))
    .as('mine');
  const rows = await db
    .select({ setName: cards.setName, total: sql<number>`count(*)::int`, owned: sql<number>`count(${mine.cardId})::int` })
    .from(cards)
    .leftJoin(mine, eq(mine.cardId, cards.id))
    .where(inCatalog)
    .groupBy(cards.setName)
    .orderBy(sql`count(${mine.cardId})::float / count(*) desc`, asc(cards.setName));
  return { items: rows.map((r) => ({ setName: r.setName, total: Number(r.total), owned: Number(r.owned) })) };
}

const ownedByUser = (userId: string) =>
  sql`exists (select 1 from ${ownedCards} where ${ownedCards.cardId} = ${cards.id} and ${ownedCards.ownerId} = ${userId} and ${ownedCards.status} = 'in_vault')`;
const wishedByUser = (userId: string) => sql<boolean>`exists (select 1 from ${wishlist} where ${wishlist.cardId} = ${cards.id} and ${wishlist.userId} = ${userId})`;

/** The cards of one set not in the user's vault, by number (a set larger than the cap shows its first cards). */
export async function missingCards(db: DbOrTx, userId: string, setName: string): Promise<MissingCards> {
  const rows = await db
    .select({ ...publicCardColumns, wished: wishedByUser(userId) })
    .from(cards)
    .innerJoin(cardClasses, eq(cardClasses.id, cards.classId))
    .where(and(inCatalog, eq(cards.setName, setName), sql`not ${ownedByUser(userId)}`))
    .orderBy(asc(cards.number))
    .limit(MAX_WISHLIST);
  const items = rows.map((r) => ({ ...withGrading(r), wished: Boolean(r.wished) }));
  return { setName, items: items as Array<PublicCard & { wished: boolean }>, refs: await lookRefs(db, items) };
}

export async function listWishlist(db: DbOrTx, userId: string): Promise<Wishlist> {
  const rows = await db
    .select({ ...publicCardColumns, addedAt: wishlist.createdAt, owned: sql<boolean>`${ownedByUser(userId)}` })
    .from(wishlist)
    .innerJoin(cards, eq(cards.id, wishlist.cardId))
    .innerJoin(cardClasses, eq(cardClasses.id, cards.classId))
    .where(eq(wishlist.userId, userId))
    .orderBy(desc(wishlist.createdAt), asc(cards.id))
    .limit(MAX_WISHLIST);
  const items = rows.map(({ addedAt, owned, ...card }) => ({ card: withGrading(card) as PublicCard, addedAt: addedAt.toISOString(), owned: Boolean(owned) }));
  return { items, cardIds: items.map((i) => i.card.id), refs: await lookRefs(db, items.map((i) => i.card)) };
}

/** Only catalog cards may be wished for; an unknown (or retired) card is a 404. */
async function assertCard(db: DbOrTx, cardId: string) {
  const [c] = await db.select({ id: cards.id }).from(cards).where(and(eq(cards.id, cardId), inCatalog));
  if (!c) throw notFound('No such card in the catalog.');
}

/** Adds a card; adding it again changes nothing. */
export async function addToWishlist(db: DbOrTx, userId: string, cardId: string): Promise<WishlistChange> {
  await assertCard(db, cardId);
  const [inserted] = await db.insert(wishlist).values({ userId, cardId }).onConflictDoNothing().returning({ cardId: wishlist.cardId });
  if (inserted) {
    const [n] = await db.select({ n: count() }).from(wishlist).where(eq(wishlist.userId, userId));
    if (Number(n?.n ?? 0) > MAX_WISHLIST) {
      await db.delete(wishlist).where(and(eq(wishlist.userId, userId), eq(wishlist.cardId, cardId)));
      throw conflict(`Your wishlist is full (${MAX_WISHLIST} cards). Remove a card first.`);
    }
  }
  return { cardId, wished: true };
}

/** Removes a card; removing one that is not there changes nothing. A card that never existed is a 404. */
export async function removeFromWishlist(db: DbOrTx, userId: string, cardId: string): Promise<WishlistChange> {
  const [deleted] = await db
    .delete(wishlist)
    .where(and(eq(wishlist.userId, userId), eq(wishlist.cardId, cardId)))
    .returning({ cardId: wishlist.cardId });
  if (!deleted) {
    const [c] = await db.select({ id: cards.id }).from(cards).where(eq(cards.id, cardId));
    if (!c) throw notFound('No such card in the catalog.');
  }
  return { cardId, wished: false };
}

/**
 * A live product now draws from `eligibleCardIds` (a query of card ids; modules/shop builds it
 * from its pool rules): everyone wishing for one of them hears about it, once per card and
 * product, in the caller's transaction.
 */
export async function wishlistCardsWentLive(
  deps: Deps,
  tx: DbOrTx,
  product: { productId: string; productName: string },
  eligibleCardIds: SQL,
): Promise<number> {
  const matches = sql`select w.user_id, c.id as card_id, c.name as card_name
    from ${wishlist} w join ${cards} c on c.id = w.card_id
    where w.card_id in (${eligibleCardIds})`;
  return notifyWishlistLive(deps, tx, product, matches);
}
