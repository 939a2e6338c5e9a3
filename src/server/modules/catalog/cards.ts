import { paged, type Paged } from '../../../shared/contracts/paging.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { and, asc, count, desc, eq, ilike, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { addSlabsInputSchema, adminCardListQuerySchema, cardInputSchema, slabPatchSchema, cardPatchSchema, type Card, type LookRefs, type PublicSet, type StockAdjustment, type StockAdjustmentInput } from '../../../shared/contracts/catalog.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { StockMovement, StockMovementReason } from '../../../shared/contracts/inventory.ts';
import { architects, cardClasses, cards, textures } from '../../db/schema/catalog.ts';
import { listingFieldErrors } from '../../../shared/contracts/grading.ts';
import { recordFirstValue, recordValues } from './value-history.ts';
import type { HeldValueChange } from '../../../shared/contracts/value-proposals.ts';
import { assertNewCardValue, holdValueChange, supersedeByOwner, withinValueBound, type ValueActor } from './value-proposals.ts';
import type { ActorCtx } from '../../http/types.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import { audit } from '../audit/service.ts';
import { changeStock, listMovements } from '../inventory/service.ts';
import { addSlabs, certOnUngraded, listSlabs, removeSlab, resolveNewSlabs, updateSlab, type NewSlab } from '../inventory/slabs.ts';
import { afterCatalogWrite } from './cache.ts';
import { archivedWhere, iso, uploadExists, withFkGuard } from './helpers.ts';
import { likePattern } from '../../lib/like.ts';
import { lookRefs } from './look-refs.ts';
import { plural } from '../../../shared/words.ts';

/** Cards (admin): list, read, create, edit, archive, delete, stock adjustments (through the inventory gateway) and the stock history. */

type CardRow = typeof cards.$inferSelect;
export function cardDto(r: CardRow): Card {
  return {
    id: r.id,
    name: r.name,
    setName: r.setName,
    number: r.number,
    classId: r.classId,
    architectId: r.architectId,
    textureId: r.textureId,
    imageKey: r.imageKey,
    valueCents: r.valueCents,
    description: r.description,
    active: r.active,
    stock: r.stock,
    gradingCompany: r.gradingCompany,
    grade: r.grade,
    frontPhotoKey: r.frontPhotoKey,
    backPhotoKey: r.backPhotoKey,
    archivedAt: iso(r.archivedAt),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** A card's texture as drawn: its own, else its class's default. */
export const effectiveTexture = sql<string | null>`coalesce(${cards.textureId}, ${cardClasses.defaultTextureId})`;
/** The same rule as text, for a statement written as SQL text over `cards` and `card_classes` aliases. */
export const effectiveTextureSql = (card: string, cardClass: string) => `coalesce(${card}.texture_id, ${cardClass}.default_texture_id)`;

function adminCardWhere(q: z.output<typeof adminCardListQuerySchema>) {
  return and(
    archivedWhere(cards.archivedAt, q.archived),
    q.q ? ilike(cards.name, likePattern(q.q)) : undefined,
    q.classId ? eq(cards.classId, q.classId) : undefined,
    q.architectId ? eq(cards.architectId, q.architectId) : undefined,
    q.textureId ? eq(cards.textureId, q.textureId) : undefined,
    q.set ? eq(cards.setName, q.set) : undefined,
    q.active ? eq(cards.active, q.active === 'true') : undefined,
    q.stock === 'in' ? sql`${cards.stock} > 0` : q.stock === 'out' ? eq(cards.stock, 0) : q.stock === 'low' ? sql`${cards.stock} between 1 and 5` : undefined,
    gradedWhere(q.graded),
  );
}

/** The ?graded filter shared by the admin list, the public list and (through tables) the vault. */
export function gradedWhere(graded: 'true' | 'false' | undefined) {
  return graded === 'true' ? sql`${cards.gradingCompany} is not null` : graded === 'false' ? sql`${cards.gradingCompany} is null` : undefined;
}

const ADMIN_CARD_ORDER = {
  newest: [desc(cards.createdAt)],
  oldest: [asc(cards.createdAt)],
  name: [asc(sql`lower(${cards.name})`)],
  value_desc: [desc(cards.valueCents)],
  value_asc: [asc(cards.valueCents)],
  stock_asc: [asc(cards.stock)],
  stock_desc: [desc(cards.stock)],
  number: [asc(cards.setName), asc(cards.number)],
} as const;

export async function listAdminCards(
  db: Db,
  q: z.output<typeof adminCardListQuerySchema>,
): Promise<Paged<Card & { effectiveTextureId: string | null }> & { refs: LookRefs }> {
  const where = adminCardWhere(q);
  const [rows, [{ total } = { total: 0 }]] = await Promise.all([
    db
      .select({ c: cards, effectiveTextureId: effectiveTexture })
      .from(cards)
      .innerJoin(cardClasses, eq(cardClasses.id, cards.classId))
      .where(where)
      .orderBy(...ADMIN_CARD_ORDER[q.sort], asc(cards.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ total: count() }).from(cards).where(where),
  ]);
  const items = rows.map((r) => ({ ...cardDto(r.c), effectiveTextureId: r.effectiveTextureId }));
  const refs = await lookRefs(db, items.map((i) => ({ ...i, textureId: i.effectiveTextureId })));
  return { ...paged(items, total, q.page, q.pageSize), refs };
}

export async function getCard(db: DbOrTx, id: string): Promise<Card> {
  const [row] = await db.select().from(cards).where(eq(cards.id, id));
  if (!row) throw notFound('No such card.');
  return cardDto(row);
}

export async function getAdminCard(db: Db, id: string) {
  const card = await getCard(db, id);
  const [cls] = await db.select({ d: cardClasses.defaultTextureId }).from(cardClasses).where(eq(cardClasses.id, card.classId));
  const effectiveTextureId = card.textureId ?? cls?.d ?? null;
  const [refs, adjustments] = await Promise.all([
    lookRefs(db, [{ ...card, textureId: effectiveTextureId }]),
    listStockAdjustments(db, id, 1, 20),
  ]);
  return { card: { ...card, effectiveTextureId }, refs, adjustments };
}

type GradingInput = Pick<z.output<typeof cardPatchSchema>, 'gradingCompany' | 'grade' | 'frontPhotoKey' | 'backPhotoKey'>;

/**
 * Company and grade are checked together, as they will be after the write (a patch may send only
 * one of them). Clearing the company clears the grade with it.
 */
function resolveGrading(input: GradingInput, current?: Card) {
  const clearing = input.gradingCompany === null;
  const merged = {
    gradingCompany: input.gradingCompany !== undefined ? input.gradingCompany : (current?.gradingCompany ?? null),
    grade: clearing && input.grade === undefined ? null : input.grade !== undefined ? input.grade : (current?.grade ?? null),
  };
  return { merged, fields: listingFieldErrors(merged) };
}

/** 400 stock_exceeds_slabs: a graded card's stock is its slabs in stock, never more. */
export const stockExceedsSlabs = (slabs: number, field = 'stock') =>
  new AppError(400, 'stock_exceeds_slabs', `A graded card's stock is its slabs: add a slab (with its certificate) for each copy. This card would have ${plural(slabs, 'slab')}.`, {
    [field]: [`At most ${slabs}: one per slab, each with its own certificate.`],
  });

/** Checks the class, architect, texture, image, photos and grading of a card; field errors if not usable. */
async function checkCardRefs(
  db: DbOrTx,
  input: { classId?: string; architectId?: string; textureId?: string | null; imageKey?: string } & GradingInput,
  current?: Card,
) {
  const fields: Record<string, string[]> = { ...resolveGrading(input, current).fields };
  for (const f of ['frontPhotoKey', 'backPhotoKey'] as const) {
    const key = input[f];
    if (key && key !== current?.[f] && !(await uploadExists(db, key))) fields[f] = ['That photo was not found; upload it again.'];
  }
  if (input.classId && input.classId !== current?.classId) {
    const [c] = await db.select({ a: cardClasses.archivedAt }).from(cardClasses).where(eq(cardClasses.id, input.classId));
    if (!c) fields.classId = ['That class does not exist.'];
    else if (c.a) fields.classId = ['That class is archived; pick another or restore it.'];
  }
  if (input.architectId && input.architectId !== current?.architectId) {
    const [a] = await db.select({ a: architects.archivedAt }).from(architects).where(eq(architects.id, input.architectId));
    if (!a) fields.architectId = ['That architect does not exist.'];
    else if (a.a) fields.architectId = ['That architect is archived; pick another or restore it.'];
  }
  if (input.textureId && input.textureId !== current?.textureId) {
    const [t] = await db.select({ a: textures.archivedAt }).from(textures).where(eq(textures.id, input.textureId));
    if (!t) fields.textureId = ['That texture does not exist.'];
    else if (t.a) fields.textureId = ['That texture is archived; pick another or restore it.'];
  }
  if (input.imageKey && input.imageKey !== current?.imageKey && !(await uploadExists(db, input.imageKey))) {
    fields.imageKey = ['That image was not found; upload it again.'];
  }
  if (Object.keys(fields).length) throw badRequest('Some fields need attention.', fields);
}

function cardNumberTaken(err: unknown): never {
  if (isUniqueViolation(err)) {
    throw new AppError(409, 'number_taken', 'Another card in this set already has this number.', {
      number: ['Another card in this set already has this number.'],
    });
  }
  throw err;
}

/**
 * Called in a card write's transaction with cards that may just have become drawable (on sale
 * with stock in their class); the shop tells whoever wishes for them. The catalog does not know
 * which products are live, so the routes pass it in.
 */
export type OnDrawable = (tx: DbOrTx, cardIds: string[]) => Promise<void>;

export async function createCard(db: Db, ctx: ValueActor, input: z.output<typeof cardInputSchema>, onDrawable?: OnDrawable): Promise<Card> {
  assertNewCardValue(ctx, input.valueCents);
  return afterCatalogWrite(db, () =>
    db.transaction(async (tx) => {
      await checkCardRefs(tx, input);
      const { stock: askedStock, certNumber, slabs: moreSlabs, ...fields } = input;
      const grading = resolveGrading(input).merged;
      // A graded card's copies are slabs (issue 38): the certificate given with the card is its
      // first slab (with the card's photos), `slabs` the others; its stock is their number.
      let slabs: NewSlab[] = [];
      if (grading.gradingCompany) {
        const asked = [
          ...(certNumber ? [{ certNumber, frontPhotoKey: input.frontPhotoKey ?? null, backPhotoKey: input.backPhotoKey ?? null }] : []),
          ...(moreSlabs ?? []),
        ];
        slabs = resolveNewSlabs(grading, asked, (i) => (certNumber && i === 0 ? '' : `slabs.${certNumber ? i - 1 : i}.`));
        if (askedStock > slabs.length) throw stockExceedsSlabs(slabs.length);
        for (const s of moreSlabs ?? []) for (const f of ['frontPhotoKey', 'backPhotoKey'] as const) {
          const key = s[f];
          if (key && !(await uploadExists(tx, key))) throw badRequest('Some slabs need attention.', { [f]: ['That photo was not found; upload it again.'] });
        }
      } else if (certNumber || moreSlabs?.length) {
        throw certOnUngraded();
      }
      const stock = grading.gradingCompany ? slabs.length : askedStock;
      const [row] = await tx
        .insert(cards)
        .values({ ...fields, ...grading })
        .returning()
        .catch(cardNumberTaken);
      await recordValues(tx, [{ cardId: row!.id, valueCents: row!.valueCents }], 'created');
      // Stock only through the inventory, which logs it.
      if (slabs.length > 0) await addSlabs(tx, row!.id, slabs, 'initial', { actorId: ctx.actorId, note: 'Initial stock' });
      else if (stock > 0) {
        await changeStock(tx, { cardId: row!.id, delta: stock, reason: 'initial', actorId: ctx.actorId, note: 'Initial stock' });
      }
      const dto = cardDto({ ...row!, stock });
      if (stock > 0 && dto.active) await onDrawable?.(tx, [dto.id]);
      await audit(tx, { actorId: ctx.actorId, ip: ctx.ip, action: 'catalog.card.create', targetType: 'card', targetId: dto.id, before: null, after: dto });
      return dto;
    }),
  );
}

/**
 * Edits a card. A non-owner's value change beyond the owner's daily bound is held for the owner
 * (value-proposals.ts, ADR 0024): the rest of the edit applies, the value stays, and `held` says so.
 */
export async function updateCard(
  db: Db,
  ctx: ValueActor,
  id: string,
  input: z.output<typeof cardPatchSchema>,
  onDrawable?: OnDrawable,
): Promise<{ card: Card; held: HeldValueChange | null }> {
  return afterCatalogWrite(db, () =>
    db.transaction(async (tx) => {
      const before = await getCard(tx, id);
      let patch = input;
      let held: HeldValueChange | null = null;
      if (patch.valueCents !== undefined && patch.valueCents !== before.valueCents) {
        // A card with no recorded value yet (made before the history existed, or by the seed)
        // gets its current one first, dated when it was last written, so the 24-hour bound
        // measures from it and not from the first change.
        await recordFirstValue(tx, id, before.valueCents, new Date(before.updatedAt));
        if (ctx.role === 'owner') await supersedeByOwner(tx, id, ctx.actorId);
        else if (!(await withinValueBound(tx, id, before.valueCents, patch.valueCents))) {
          held = await holdValueChange(tx, ctx, id, before.valueCents, patch.valueCents);
          const { valueCents: _held, ...rest } = patch;
          patch = rest;
        }
      }
      if (patch.active && before.archivedAt) {
        throw badRequest('Restore this card before putting it on sale.', { active: ['An archived card cannot be active; restore it first.'] });
      }
      await checkCardRefs(tx, patch, before);
      const grading = resolveGrading(patch, before).merged;
      if (before.gradingCompany && !grading.gradingCompany && (await listSlabs(tx, id)).length > 0) {
        throw new AppError(409, 'in_use', 'This card has slabs, each with a certificate: it stays graded.', {
          gradingCompany: ['A card with slabs stays graded.'],
        });
      }
      if (!before.gradingCompany && grading.gradingCompany && before.stock > 0) {
        throw stockExceedsSlabs(0, 'gradingCompany');
      }
      const [row] = await tx
        .update(cards)
        .set({ ...patch, ...grading, updatedAt: new Date() })
        .where(eq(cards.id, id))
        .returning()
        .catch(cardNumberTaken);
      const after = cardDto(row!);
      if (after.valueCents !== before.valueCents) await recordValues(tx, [{ cardId: id, valueCents: after.valueCents }], 'admin_edit');
      if (after.active && after.stock > 0 && (!before.active || before.classId !== after.classId)) await onDrawable?.(tx, [id]);
      await audit(tx, { actorId: ctx.actorId, ip: ctx.ip, action: 'catalog.card.update', targetType: 'card', targetId: id, before, after });
      return { card: after, held };
    }),
  );
}

/** Archiving takes a card off sale and out of the public list; restoring leaves it inactive. */
export async function setCardArchived(db: Db, ctx: ActorCtx, id: string, archived: boolean): Promise<Card> {
  return afterCatalogWrite(db, () =>
    db.transaction(async (tx) => {
      const before = await getCard(tx, id);
      const [row] = await tx
        .update(cards)
        .set(archived ? { archivedAt: new Date(), active: false, updatedAt: new Date() } : { archivedAt: null, updatedAt: new Date() })
        .where(eq(cards.id, id))
        .returning();
      const after = cardDto(row!);
      await audit(tx, {
        ...ctx,
        action: archived ? 'catalog.card.archive' : 'catalog.card.restore',
        targetType: 'card',
        targetId: id,
        before,
        after,
      });
      return after;
    }),
  );
}

export async function deleteCard(db: Db, ctx: ActorCtx, id: string): Promise<void> {
  await afterCatalogWrite(db, () =>
    withFkGuard('card', () =>
      db.transaction(async (tx) => {
        const before = await getCard(tx, id);
        if (before.stock > 0) {
          throw new AppError(409, 'in_use', `This card still has ${before.stock} copies in stock. Archive it instead.`);
        }
        await tx.delete(cards).where(eq(cards.id, id));
        await audit(tx, { ...ctx, action: 'catalog.card.delete', targetType: 'card', targetId: id, before, after: null });
      }),
    ),
  );
}

export async function adjustStock(db: Db, ctx: ActorCtx, id: string, input: StockAdjustmentInput, onDrawable?: OnDrawable): Promise<{ card: Card; adjustment: StockAdjustment }> {
  return db.transaction(async (tx) => {
    const [graded] = await tx.select({ g: cards.gradingCompany, stock: cards.stock }).from(cards).where(eq(cards.id, id));
    if (!graded) throw notFound('No such card.');
    // A graded card's stock moves only with its slabs (issue 38).
    if (graded.g && input.delta > 0) throw stockExceedsSlabs(graded.stock, 'delta');
    if (graded.g) {
      throw new AppError(409, 'in_use', 'A graded card leaves stock one slab at a time: remove the slab itself.', {
        delta: ['Remove the specific slab from the card\'s slabs instead.'],
      });
    }
    // The inventory's conditional update refuses to go below zero, even under races.
    const moved = await changeStock(tx, { cardId: id, delta: input.delta, reason: 'admin_adjust', actorId: ctx.actorId, note: input.reason });
    if (!moved) {
      const current = await getCard(tx, id);
      throw new AppError(409, 'insufficient_stock', `Only ${current.stock} in stock; the change would take it below zero.`, {
        delta: [`At most −${current.stock}.`],
      });
    }
    const [row] = await tx.select().from(cards).where(eq(cards.id, id));
    // Back in stock from none: a live pack can draw it again.
    if (input.delta > 0 && moved.stockAfter === input.delta && row!.active) await onDrawable?.(tx, [id]);
    await audit(tx, {
      ...ctx,
      action: 'catalog.card.stock',
      targetType: 'card',
      targetId: id,
      before: { stock: row!.stock - input.delta },
      after: { stock: row!.stock, delta: input.delta, reason: input.reason },
    });
    const adjustment: StockAdjustment = {
      id: moved.movement.id,
      cardId: id,
      delta: input.delta,
      stockAfter: moved.stockAfter,
      reason: input.reason,
      kind: 'admin_adjust',
      actorId: ctx.actorId,
      createdAt: moved.movement.createdAt.toISOString(),
    };
    return { card: cardDto(row!), adjustment };
  });
}

/** What a movement without a note says in the history. */
const MOVEMENT_TEXT: Record<StockMovementReason, string> = {
  initial: 'Initial stock',
  admin_adjust: 'Adjusted by an admin',
  csv_import: 'CSV import',
  pack_open: 'Pack opening',
  grant: 'Granted to a user',
  drop: 'Daily drop prize',
  buyback_return: 'Sold back',
  revoke: 'Revoked from a user',
  ship: 'Shipment requested',
  ship_cancel: 'Shipment cancelled',
  ship_dispatch: 'Shipment dispatched',
  ship_deliver: 'Shipment delivered',
  drop_reserve: 'Reserved for a daily drop',
  drop_release: 'Released from a daily drop',
  ship_return: 'Shipment returned',
  ship_lost: 'Shipment lost',
  market_list: 'Listed on the market',
  market_delist: 'Delisted from the market',
  market_sale: 'Sold on the market',
  market_swap: 'Swapped on the market',
};

function adjustmentDto(m: StockMovement): StockAdjustment {
  return {
    id: m.id,
    cardId: m.cardId,
    delta: m.delta,
    stockAfter: m.stockAfter,
    reason: m.note ?? MOVEMENT_TEXT[m.reason],
    kind: m.reason,
    actorId: m.actorId,
    createdAt: m.createdAt,
  };
}

/** The card's stock history: every movement that changed its stock, from the inventory's log. */
export async function listStockAdjustments(db: DbOrTx, cardId: string, page: number, pageSize: number): Promise<Paged<StockAdjustment>> {
  const res = await listMovements(db, cardId, page, pageSize, { stockChangesOnly: true });
  return paged(res.items.map(adjustmentDto), res.total, page, pageSize);
}

/** Artwork of the most valuable active card, so previews of frames and foils have something to show. */
export async function sampleImageKey(db: Db): Promise<string | null> {
  const [row] = await db
    .select({ key: cards.imageKey })
    .from(cards)
    .where(eq(cards.active, true))
    .orderBy(sql`${cards.valueCents} desc nulls last`, sql`${cards.id} asc`)
    .limit(1);
  return row?.key ?? null;
}

export async function listAllSets(db: Db): Promise<PublicSet[]> {
  const rows = await db
    .select({ name: cards.setName, cardCount: count() })
    .from(cards)
    .groupBy(cards.setName)
    .orderBy(asc(cards.setName));
  return rows;
}

// ───────────────────────── slabs (issue 38) ─────────────────────────

async function gradedCard(tx: DbOrTx, id: string) {
  const card = await getCard(tx, id);
  if (!card.gradingCompany) throw certOnUngraded();
  return card;
}

async function checkPhotos(tx: DbOrTx, keys: Record<string, string | null | undefined>) {
  const fields: Record<string, string[]> = {};
  for (const [f, key] of Object.entries(keys)) if (key && !(await uploadExists(tx, key))) fields[f] = ['That photo was not found; upload it again.'];
  if (Object.keys(fields).length) throw badRequest('Some fields need attention.', fields);
}

/** A card's slabs (admin). */
export async function cardSlabs(db: Db, id: string) {
  await getCard(db, id);
  return { items: await listSlabs(db, id) };
}

/** Adds slabs (each with its certificate) to a graded card: its stock grows by one per slab. */
export async function addCardSlabs(db: Db, ctx: ActorCtx, id: string, input: z.output<typeof addSlabsInputSchema>, onDrawable?: OnDrawable) {
  return afterCatalogWrite(db, () =>
    db.transaction(async (tx) => {
      const card = await gradedCard(tx, id);
      const slabs = resolveNewSlabs(card, input.slabs);
      for (const [i, s] of input.slabs.entries()) await checkPhotos(tx, { [`slabs.${i}.frontPhotoKey`]: s.frontPhotoKey, [`slabs.${i}.backPhotoKey`]: s.backPhotoKey });
      const added = await addSlabs(tx, id, slabs, 'admin_adjust', { actorId: ctx.actorId });
      if (added.stockAfter === slabs.length && card.active) await onDrawable?.(tx, [id]);
      await audit(tx, { ...ctx, action: 'catalog.card.slabs.add', targetType: 'card', targetId: id, before: { stock: card.stock }, after: { stock: added.stockAfter, slabs: added.slabs } });
      return { card: { ...card, stock: added.stockAfter }, slabs: added.slabs };
    }),
  );
}

/** Edits a slab; filling in a held slab's certificate puts it into stock. */
export async function updateCardSlab(db: Db, ctx: ActorCtx, id: string, slabId: string, patch: z.output<typeof slabPatchSchema>, onDrawable?: OnDrawable) {
  return afterCatalogWrite(db, () =>
    db.transaction(async (tx) => {
      const card = await gradedCard(tx, id);
      await checkPhotos(tx, { frontPhotoKey: patch.frontPhotoKey, backPhotoKey: patch.backPhotoKey });
      const res = await updateSlab(tx, id, slabId, patch, { actorId: ctx.actorId });
      if (res.stockAfter === 1 && card.active) await onDrawable?.(tx, [id]);
      await audit(tx, { ...ctx, action: 'catalog.card.slabs.update', targetType: 'card', targetId: id, before: res.before, after: res.after });
      return { slab: res.after };
    }),
  );
}

/** Removes a slab that is in the shop (in stock or held): its stock goes down with it. */
export async function removeCardSlab(db: Db, ctx: ActorCtx, id: string, slabId: string) {
  return afterCatalogWrite(db, () =>
    db.transaction(async (tx) => {
      await gradedCard(tx, id);
      const removed = await removeSlab(tx, id, slabId, { actorId: ctx.actorId });
      await audit(tx, { ...ctx, action: 'catalog.card.slabs.remove', targetType: 'card', targetId: id, before: removed, after: null });
      return { ok: true as const };
    }),
  );
}
