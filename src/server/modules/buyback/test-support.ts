import { randomBytes } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { DEFAULT_LAYOUT } from '../../../shared/contracts/catalog.ts';
import { architects, cardClasses, cards } from '../../db/schema/catalog.ts';
import { uploads } from '../../db/schema/uploads.ts';
import { ownedCards } from '../../db/schema/inventory.ts';
import type { TestContext } from '../../test/harness.ts';
import { changeStock, createCopy } from '../inventory/service.ts';

/**
 * Catalog rows and vault cards for the collection/buyback suites, written straight to the
 * database (the catalog and shop suites test how they are normally made).
 */
let n = 0;

export async function makeUpload(t: TestContext): Promise<string> {
  const key = randomBytes(32).toString('hex');
  const v = { file: `${key}-thumb.webp`, width: 10, height: 14, bytes: 100 };
  await t.deps.db.insert(uploads).values({ key, mime: 'image/png', width: 10, height: 14, bytes: 100, variants: { thumb: v, full: v } });
  return key;
}

export async function makeClass(t: TestContext, opts: { name?: string; buybackRateBp?: number | null } = {}) {
  const [row] = await t.deps.db
    .insert(cardClasses)
    .values({ name: opts.name ?? `Class ${++n} ${randomBytes(3).toString('hex')}`, colour: '#8b5cf6', buybackRateBp: opts.buybackRateBp ?? null })
    .returning();
  return row!;
}

export async function makeCard(
  t: TestContext,
  opts: { classId: string; valueCents: number; stock?: number; name?: string; setName?: string },
) {
  const image = await makeUpload(t);
  const [arch] = await t.deps.db.insert(architects).values({ name: `Frame ${++n}`, frameImageKey: image, layout: DEFAULT_LAYOUT }).returning();
  const [row] = await t.deps.db
    .insert(cards)
    .values({
      name: opts.name ?? `Card ${n}`,
      setName: opts.setName ?? 'Base Set',
      number: 10_000 + ++n,
      classId: opts.classId,
      architectId: arch!.id,
      imageKey: image,
      valueCents: opts.valueCents,
    })
    .returning();
  const stock = opts.stock ?? 10;
  if (stock > 0) await changeStock(t.deps.db, { cardId: row!.id, delta: stock, reason: 'initial', actorId: null });
  return { ...row!, stock };
}

/** Puts `count` copies of a card in a user's vault, taking them from stock like a grant. */
export async function giveCards(t: TestContext, ownerId: string, cardId: string, count = 1): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const copy = await createCopy(t.deps.db, 'grant', { cardId, ownerId, actorId: null });
    if (!copy) throw new Error('giveCards: out of stock');
    ids.push(copy.ownedCardId);
  }
  return ids;
}

export async function stockOf(t: TestContext, cardId: string): Promise<number> {
  const [row] = await t.deps.db.select({ stock: cards.stock }).from(cards).where(eq(cards.id, cardId));
  return row!.stock;
}

export async function statusesOf(t: TestContext, ids: string[]) {
  const rows = await t.deps.db.select({ id: ownedCards.id, status: ownedCards.status }).from(ownedCards).where(inArray(ownedCards.id, ids));
  return Object.fromEntries(rows.map((r) => [r.id, r.status]));
}
