import { paged, type Paged } from '../../../shared/contracts/paging.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors.ts';
import { and, asc, count, desc, eq, ilike, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import { architectInputSchema, architectListQuerySchema, architectPatchSchema, adminCardListQuerySchema, cardInputSchema, cardPatchSchema, classInputSchema, classListQuerySchema, classPatchSchema, publicCardListQuerySchema, textureInputSchema, textureListQuerySchema, texturePatchSchema, type Architect, type Card, type CardClass, type LookRefs, type PublicCard, type PublicCardDetail, type PublicCardPage, type PublicSet, type StockAdjustment, type StockAdjustmentInput, type Texture } from '../../../shared/contracts/catalog.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { architects, cardClasses, cards, stockAdjustments, textures, uploads } from '../../db/schema/catalog.ts';
import type { ActorCtx } from '../../http/types.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import { audit } from '../audit/service.ts';
import { changeStock } from '../inventory/service.ts';
import { ResponseCache, type CachedResponse } from './response-cache.ts';

/** Who is changing the catalog, for the audit log. */
// ───────────────────────── helpers ─────────────────────────

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function likePattern(q: string) {
  return `%${q.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
}

function archivedWhere(col: PgColumn, mode: 'active' | 'archived' | 'all'): SQL | undefined {
  if (mode === 'active') return isNull(col);
  if (mode === 'archived') return isNotNull(col);
  return undefined;
}

const inUse = (what: string, n: number, by: string) =>
  new AppError(409, 'in_use', `${n} ${by}${n === 1 ? '' : 's'} still use${n === 1 ? 's' : ''} this ${what}. Archive it instead.`);

/** Something else in the database (packs, owned cards…) references the row. */
const referencedElsewhere = (what: string) =>
  new AppError(409, 'in_use', `Other records still refer to this ${what}. Archive it instead.`);

async function withFkGuard<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isForeignKeyViolation(err)) throw referencedElsewhere(what);
    throw err;
  }
}

async function uploadExists(db: DbOrTx, key: string) {
  const [row] = await db.select({ key: uploads.key }).from(uploads).where(eq(uploads.key, key)).limit(1);
  return !!row;
}

// ───────────────────────── classes ─────────────────────────

type ClassRow = typeof cardClasses.$inferSelect;
function classDto(r: ClassRow, cardCount?: number): CardClass {
  return {
    id: r.id,
    name: r.name,
    colour: r.colour,
    sortOrder: r.sortOrder,
    defaultTextureId: r.defaultTextureId,
    buybackRateBp: r.buybackRateBp,
    archivedAt: iso(r.archivedAt),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    ...(cardCount !== undefined ? { cardCount } : {}),
  };
}

// Written out in full: drizzle drops table prefixes in single-table selects, which would make
// the correlated subquery compare cards with itself.
const classCardCount = sql<number>`(select count(*)::int from cards where cards.class_id = card_classes.id)`;

export async function listClasses(db: Db, query: z.output<typeof classListQuerySchema>): Promise<Paged<CardClass>> {
  const where = and(archivedWhere(cardClasses.archivedAt, query.archived), query.q ? ilike(cardClasses.name, likePattern(query.q)) : undefined);
  const order = {
    order: [asc(cardClasses.sortOrder), asc(cardClasses.name)],
    name: [asc(sql`lower(${cardClasses.name})`)],
    newest: [desc(cardClasses.createdAt)],
    cards: [desc(classCardCount), asc(cardClasses.sortOrder)],
  }[query.sort];
  const [rows, [{ total } = { total: 0 }]] = await Promise.all([
    db
      .select({ c: cardClasses, cardCount: classCardCount })
      .from(cardClasses)
      .where(where)
      .orderBy(...order, asc(cardClasses.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ total: count() }).from(cardClasses).where(where),
  ]);
  return paged(rows.map((r) => classDto(r.c, r.cardCount)), total, query.page, query.pageSize);
}

export async function getClass(db: DbOrTx, id: string): Promise<CardClass> {
  const [row] = await db.select({ c: cardClasses, cardCount: classCardCount }).from(cardClasses).where(eq(cardClasses.id, id));
  if (!row) throw notFound('No such class.');
  return classDto(row.c, row.cardCount);
}

async function checkTextureRef(db: DbOrTx, id: string | null | undefined, field: string) {
  if (!id) return;
  const [t] = await db.select({ archivedAt: textures.archivedAt }).from(textures).where(eq(textures.id, id));
  if (!t) throw badRequest('Some fields need attention.', { [field]: ['That texture does not exist.'] });
  if (t.archivedAt) throw badRequest('Some fields need attention.', { [field]: ['That texture is archived; pick another or restore it.'] });
}

function classNameTaken(err: unknown): never {
  if (isUniqueViolation(err)) {
    throw new AppError(409, 'name_taken', 'A class with this name already exists.', { name: ['A class with this name already exists.'] });
  }
  throw err;
}

export async function createClass(db: Db, ctx: ActorCtx, input: z.output<typeof classInputSchema>): Promise<CardClass> {
  return afterCatalogWrite(db, () =>
    db.transaction(async (tx) => {
      await checkTextureRef(tx, input.defaultTextureId, 'defaultTextureId');
      const [row] = await tx.insert(cardClasses).values(input).returning().catch(classNameTaken);
      const dto = classDto(row!, 0);
      await audit(tx, { ...ctx, action: 'catalog.class.create', targetType: 'card_class', targetId: row!.id, before: null, after: dto });
      return dto;
    }),
  );
}

export async function updateClass(db: Db, ctx: ActorCtx, id: string, patch: z.output<typeof classPatchSchema>): Promise<CardClass> {
  return afterCatalogWrite(db, () =>
    db.transaction(async (tx) => {
      const before = await getClass(tx, id);
      if (patch.defaultTextureId !== undefined && patch.defaultTextureId !== before.defaultTextureId) {
        await checkTextureRef(tx, patch.defaultTextureId, 'defaultTextureId');
      }
      const [row] = await tx
        .update(cardClasses)
        .set({ ...patch, updatedAt: new Date() })
        .where(eq(cardClasses.id, id))
        .returning()
        .catch(classNameTaken);
      const after = classDto(row!, before.cardCount);
      await audit(tx, { ...ctx, action: 'catalog.class.update', targetType: 'card_class', targetId: id, before, after });
      return after;
    }),
  );
}

export async function setClassArchived(db: Db, ctx: ActorCtx, id: string, archived: boolean): Promise<CardClass> {
  return afterCatalogWrite(db, () =>
    db.transaction(async (tx) => {
      const before = await getClass(tx, id);
      const [row] = await tx
        .update(cardClasses)
        .set({ archivedAt: archived ? new Date() : null, updatedAt: new Date() })
        .where(eq(cardClasses.id, id))
        .returning();
      const after = classDto(row!, before.cardCount);
      await audit(tx, {
        ...ctx,
        action: archived ? 'catalog.class.archive' : 'catalog.class.restore',
        targetType: 'card_class',
        targetId: id,
        before,
        after,
      });
      return after;
    }),
  );
}

export async function deleteClass(db: Db, ctx: ActorCtx, id: string): Promise<void> {
  await afterCatalogWrite(db, () =>
    withFkGuard('class', () =>
      db.transaction(async (tx) => {
        const before = await getClass(tx, id);
        if (before.cardCount) throw inUse('class', before.cardCount, 'card');
        await tx.delete(cardClasses).where(eq(cardClasses.id, id));
        await audit(tx, { ...ctx, action: 'catalog.class.delete', targetType: 'card_class', targetId: id, before, after: null });
      }),
    ),
  );
}

// ───────────────────────── textures ─────────────────────────

type TextureRow = typeof textures.$inferSelect;
function textureDto(r: TextureRow, usage?: number): Texture {
  return {
    id: r.id,
    name: r.name,
    imageKey: r.imageKey,
    blendMode: r.blendMode,
    opacity: r.opacity,
    archivedAt: iso(r.archivedAt),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    ...(usage !== undefined ? { usage } : {}),
  };
}

const textureUsage = sql<number>`((select count(*)::int from cards where cards.texture_id = textures.id)
  + (select count(*)::int from card_classes where card_classes.default_texture_id = textures.id))`;

export async function listTextures(db: Db, query: z.output<typeof textureListQuerySchema>): Promise<Paged<Texture>> {
  const where = and(
    archivedWhere(textures.archivedAt, query.archived),
    query.q ? ilike(textures.name, likePattern(query.q)) : undefined,
    query.blendMode ? eq(textures.blendMode, query.blendMode) : undefined,
  );
  const order = {
    name: asc(sql`lower(${textures.name})`),
    newest: desc(textures.createdAt),
    oldest: asc(textures.createdAt),
  }[query.sort];
  const [rows, [{ total } = { total: 0 }]] = await Promise.all([
    db
      .select({ t: textures, usage: textureUsage })
      .from(textures)
      .where(where)
      .orderBy(order, asc(textures.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ total: count() }).from(textures).where(where),
  ]);
  return paged(rows.map((r) => textureDto(r.t, r.usage)), total, query.page, query.pageSize);
}

export async function getTexture(db: DbOrTx, id: string): Promise<Texture> {
  const [row] = await db.select({ t: textures, usage: textureUsage }).from(textures).where(eq(textures.id, id));
  if (!row) throw notFound('No such texture.');
  return textureDto(row.t, row.usage);
}

async function checkImage(db: DbOrTx, key: string | undefined, field: string) {
  if (key === undefined) return;
  if (!(await uploadExists(db, key))) {
    throw badRequest('Some fields need attention.', { [field]: ['That image was not found; upload it again.'] });
  }
}

export async function createTexture(db: Db, ctx: ActorCtx, input: z.output<typeof textureInputSchema>): Promise<Texture> {
  return afterCatalogWrite(db, () =>
    db.transaction(async (tx) => {
      await checkImage(tx, input.imageKey, 'imageKey');
      const [row] = await tx.insert(textures).values(input).returning();
      const dto = textureDto(row!, 0);
      await audit(tx, { ...ctx, action: 'catalog.texture.create', targetType: 'texture', targetId: row!.id, before: null, after: dto });
      return dto;
    }),
  );
}

export async function updateTexture(db: Db, ctx: ActorCtx, id: string, patch: z.output<typeof texturePatchSchema>): Promise<Texture> {
  return afterCatalogWrite(db, () =>
    db.transaction(async (tx) => {
      const before = await getTexture(tx, id);
      await checkImage(tx, patch.imageKey, 'imageKey');
      const [row] = await tx.update(textures).set({ ...patch, updatedAt: new Date() }).where(eq(textures.id, id)).returning();
      const after = textureDto(row!, before.usage);
      await audit(tx, { ...ctx, action: 'catalog.texture.update', targetType: 'texture', targetId: id, before, after });
      return after;
    }),
  );
}

export async function setTextureArchived(db: Db, ctx: ActorCtx, id: string, archived: boolean): Promise<Texture> {
  return afterCatalogWrite(db, () =>
    db.transaction(async (tx) => {
      const before = await getTexture(tx, id);
      const [row] = await tx
        .update(textures)
        .set({ archivedAt: archived ? new Date() : null, updatedAt: new Date() })
        .where(eq(textures.id, id))
        .returning();
      const after = textureDto(row!, before.usage);
      await audit(tx, {
        ...ctx,
        action: archived ? 'catalog.texture.archive' : 'catalog.texture.restore',
        targetType: 'texture',
        targetId: id,
        before,
        after,
      });
      return after;
    }),
  );
}

export async function deleteTexture(db: Db, ctx: ActorCtx, id: string): Promise<void> {
  await afterCatalogWrite(db, () =>
    withFkGuard('texture', () =>
      db.transaction(async (tx) => {
        const before = await getTexture(tx, id);
        if (before.usage) throw inUse('texture', before.usage, 'card or class');
        await tx.delete(textures).where(eq(textures.id, id));
        await audit(tx, { ...ctx, action: 'catalog.texture.delete', targetType: 'texture', targetId: id, before, after: null });
      }),
    ),
  );
}

// ───────────────────────── architects ─────────────────────────

type ArchitectRow = typeof architects.$inferSelect;
function architectDto(r: ArchitectRow, cardCount?: number): Architect {
  return {
    id: r.id,
    name: r.name,
    frameImageKey: r.frameImageKey,
    layout: r.layout,
    archivedAt: iso(r.archivedAt),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    ...(cardCount !== undefined ? { cardCount } : {}),
  };
}

const architectCardCount = sql<number>`(select count(*)::int from cards where cards.architect_id = architects.id)`;

export async function listArchitects(db: Db, query: z.output<typeof architectListQuerySchema>): Promise<Paged<Architect>> {
  const where = and(archivedWhere(architects.archivedAt, query.archived), query.q ? ilike(architects.name, likePattern(query.q)) : undefined);
  const order = {
    name: asc(sql`lower(${architects.name})`),
    newest: desc(architects.createdAt),
    oldest: asc(architects.createdAt),
    cards: desc(architectCardCount),
  }[query.sort];
  const [rows, [{ total } = { total: 0 }]] = await Promise.all([
    db
      .select({ a: architects, cardCount: architectCardCount })
      .from(architects)
      .where(where)
      .orderBy(order, asc(architects.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ total: count() }).from(architects).where(where),
  ]);
  return paged(rows.map((r) => architectDto(r.a, r.cardCount)), total, query.page, query.pageSize);
}

export async function getArchitect(db: DbOrTx, id: string): Promise<Architect> {
  const [row] = await db.select({ a: architects, cardCount: architectCardCount }).from(architects).where(eq(architects.id, id));
  if (!row) throw notFound('No such architect.');
  return architectDto(row.a, row.cardCount);
}

export async function createArchitect(db: Db, ctx: ActorCtx, input: z.output<typeof architectInputSchema>): Promise<Architect> {
  return afterCatalogWrite(db, () =>
    db.transaction(async (tx) => {
      await checkImage(tx, input.frameImageKey, 'frameImageKey');
      const [row] = await tx.insert(architects).values(input).returning();
      const dto = architectDto(row!, 0);
      await audit(tx, { ...ctx, action: 'catalog.architect.create', targetType: 'architect', targetId: row!.id, before: null, after: dto });
      return dto;
    }),
  );
}

export async function updateArchitect(
  db: Db,
  ctx: ActorCtx,
  id: string,
  patch: z.output<typeof architectPatchSchema>,
): Promise<Architect> {
  return afterCatalogWrite(db, () =>
    db.transaction(async (tx) => {
      const before = await getArchitect(tx, id);
      await checkImage(tx, patch.frameImageKey, 'frameImageKey');
      const [row] = await tx.update(architects).set({ ...patch, updatedAt: new Date() }).where(eq(architects.id, id)).returning();
      const after = architectDto(row!, before.cardCount);
      await audit(tx, { ...ctx, action: 'catalog.architect.update', targetType: 'architect', targetId: id, before, after });
      return after;
    }),
  );
}

export async function setArchitectArchived(db: Db, ctx: ActorCtx, id: string, archived: boolean): Promise<Architect> {
  return afterCatalogWrite(db, () =>
    db.transaction(async (tx) => {
      const before = await getArchitect(tx, id);
      const [row] = await tx
        .update(architects)
        .set({ archivedAt: archived ? new Date() : null, updatedAt: new Date() })
        .where(eq(architects.id, id))
        .returning();
      const after = architectDto(row!, before.cardCount);
      await audit(tx, {
        ...ctx,
        action: archived ? 'catalog.architect.archive' : 'catalog.architect.restore',
        targetType: 'architect',
        targetId: id,
        before,
        after,
      });
      return after;
    }),
  );
}

export async function deleteArchitect(db: Db, ctx: ActorCtx, id: string): Promise<void> {
  await afterCatalogWrite(db, () =>
    withFkGuard('architect', () =>
      db.transaction(async (tx) => {
        const before = await getArchitect(tx, id);
        if (before.cardCount) throw inUse('architect', before.cardCount, 'card');
        await tx.delete(architects).where(eq(architects.id, id));
        await audit(tx, { ...ctx, action: 'catalog.architect.delete', targetType: 'architect', targetId: id, before, after: null });
      }),
    ),
  );
}

// ───────────────────────── look refs (shared by admin and public) ─────────────────────────

/** The classes, architects and textures a set of cards needs to be drawn. */
export async function lookRefs(
  db: DbOrTx,
  items: Array<{ classId: string; architectId: string; textureId: string | null }>,
): Promise<LookRefs> {
  const classIds = [...new Set(items.map((i) => i.classId))];
  const architectIds = [...new Set(items.map((i) => i.architectId))];
  const textureIds = [...new Set(items.map((i) => i.textureId).filter((x): x is string => !!x))];
  const [cls, arch, tex] = await Promise.all([
    classIds.length
      ? db
          .select({ id: cardClasses.id, name: cardClasses.name, colour: cardClasses.colour, sortOrder: cardClasses.sortOrder })
          .from(cardClasses)
          .where(inArray(cardClasses.id, classIds))
      : [],
    architectIds.length
      ? db
          .select({ id: architects.id, frameImageKey: architects.frameImageKey, layout: architects.layout })
          .from(architects)
          .where(inArray(architects.id, architectIds))
      : [],
    textureIds.length
      ? db
          .select({ id: textures.id, imageKey: textures.imageKey, blendMode: textures.blendMode, opacity: textures.opacity })
          .from(textures)
          .where(inArray(textures.id, textureIds))
      : [],
  ]);
  return { classes: cls, architects: arch, textures: tex };
}

// ───────────────────────── cards (admin) ─────────────────────────

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
    archivedAt: iso(r.archivedAt),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** A card's texture as drawn: its own, else its class's default. */
const effectiveTexture = sql<string | null>`coalesce(${cards.textureId}, ${cardClasses.defaultTextureId})`;

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
  );
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

/** Checks the class, architect, texture and image a card points at; field errors if not usable. */
async function checkCardRefs(
  db: DbOrTx,
  input: { classId?: string; architectId?: string; textureId?: string | null; imageKey?: string },
  current?: Card,
) {
  const fields: Record<string, string[]> = {};
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

export async function createCard(db: Db, ctx: ActorCtx, input: z.output<typeof cardInputSchema>): Promise<Card> {
  return afterCatalogWrite(db, () =>
    db.transaction(async (tx) => {
      await checkCardRefs(tx, input);
      const { stock, ...fields } = input;
      const [row] = await tx.insert(cards).values(fields).returning().catch(cardNumberTaken);
      // Stock only through the inventory, which logs it.
      if (stock > 0) {
        await changeStock(tx, { cardId: row!.id, delta: stock, reason: 'initial', actorId: ctx.actorId, note: 'Initial stock' });
      }
      const dto = cardDto({ ...row!, stock });
      await audit(tx, { ...ctx, action: 'catalog.card.create', targetType: 'card', targetId: dto.id, before: null, after: dto });
      return dto;
    }),
  );
}

export async function updateCard(db: Db, ctx: ActorCtx, id: string, patch: z.output<typeof cardPatchSchema>): Promise<Card> {
  return afterCatalogWrite(db, () =>
    db.transaction(async (tx) => {
      const before = await getCard(tx, id);
      if (patch.active && before.archivedAt) {
        throw badRequest('Restore this card before putting it on sale.', { active: ['An archived card cannot be active; restore it first.'] });
      }
      await checkCardRefs(tx, patch, before);
      const [row] = await tx
        .update(cards)
        .set({ ...patch, updatedAt: new Date() })
        .where(eq(cards.id, id))
        .returning()
        .catch(cardNumberTaken);
      const after = cardDto(row!);
      await audit(tx, { ...ctx, action: 'catalog.card.update', targetType: 'card', targetId: id, before, after });
      return after;
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

export async function adjustStock(db: Db, ctx: ActorCtx, id: string, input: StockAdjustmentInput): Promise<{ card: Card; adjustment: StockAdjustment }> {
  return db.transaction(async (tx) => {
    // The inventory's conditional update refuses to go below zero, even under races.
    const moved = await changeStock(tx, { cardId: id, delta: input.delta, reason: 'admin_adjust', actorId: ctx.actorId, note: input.reason });
    if (!moved) {
      const current = await getCard(tx, id);
      throw new AppError(409, 'insufficient_stock', `Only ${current.stock} in stock; the change would take it below zero.`, {
        delta: [`At most −${current.stock}.`],
      });
    }
    const [row] = await tx.select().from(cards).where(eq(cards.id, id));
    const [adj] = await tx.select().from(stockAdjustments).where(eq(stockAdjustments.id, moved.adjustment!.id));
    await audit(tx, {
      ...ctx,
      action: 'catalog.card.stock',
      targetType: 'card',
      targetId: id,
      before: { stock: row!.stock - input.delta },
      after: { stock: row!.stock, delta: input.delta, reason: input.reason },
    });
    return { card: cardDto(row!), adjustment: adjustmentDto(adj!) };
  });
}

function adjustmentDto(r: typeof stockAdjustments.$inferSelect): StockAdjustment {
  return {
    id: r.id,
    cardId: r.cardId,
    delta: r.delta,
    stockAfter: r.stockAfter,
    reason: r.reason,
    actorId: r.actorId,
    createdAt: r.createdAt.toISOString(),
  };
}

export async function listStockAdjustments(db: DbOrTx, cardId: string, page: number, pageSize: number): Promise<Paged<StockAdjustment>> {
  const [rows, [{ total } = { total: 0 }]] = await Promise.all([
    db
      .select()
      .from(stockAdjustments)
      .where(eq(stockAdjustments.cardId, cardId))
      .orderBy(desc(stockAdjustments.createdAt), desc(stockAdjustments.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(stockAdjustments).where(eq(stockAdjustments.cardId, cardId)),
  ]);
  return paged(rows.map(adjustmentDto), total, page, pageSize);
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

// ───────────────────────── public ─────────────────────────

const PUBLIC_ORDER: Record<z.output<typeof publicCardListQuerySchema>['sort'], SQL[]> = {
  // Written to match the partial indexes exactly (direction and NULLS placement), so the
  // planner walks an index and stops after one page.
  value_desc: [sql`${cards.valueCents} desc nulls last`, sql`${cards.id} asc`],
  value_asc: [sql`${cards.valueCents} asc nulls first`, sql`${cards.id} desc`],
  name: [sql`lower(${cards.name}) asc`, sql`${cards.id} asc`],
  newest: [sql`${cards.createdAt} desc nulls last`, sql`${cards.id} asc`],
};

const publicCardColumns = {
  id: cards.id,
  name: cards.name,
  setName: cards.setName,
  number: cards.number,
  valueCents: cards.valueCents,
  imageKey: cards.imageKey,
  classId: cards.classId,
  architectId: cards.architectId,
  textureId: effectiveTexture,
};

// ───────────────────────── caches of public reads ─────────────────────────
//
// The public list, its counts and the sets change only when an admin edits the catalog (stock is
// not part of them), so they are served from memory and dropped by every catalog write in this
// process (`afterCatalogWrite`). Other app processes on the same PostgreSQL keep their copies
// until they expire, so there an edit shows within PUBLIC_CACHE_TTL_MS; that is inside the
// max-age=15 the public list already promises to browsers and shared caches.

/** The public list's Cache-Control max-age; the in-process TTL must not exceed it. */
export const PUBLIC_LIST_MAX_AGE_S = 15;
const PUBLIC_CACHE_TTL_MS = 10_000;

/**
 * Bumped by every catalog write. A cache fill that started under an older generation may have
 * read rows from before the write, so it is used once but not kept.
 */
const generations = new WeakMap<object, number>();
const generationOf = (db: object) => generations.get(db) ?? 0;

/** Called after any change to cards, classes, architects or textures (committed or not). */
export function invalidateCatalogCaches(db: object) {
  generations.set(db, generationOf(db) + 1);
  countCache.delete(db);
  setsCache.delete(db);
  publicListCache.get(db)?.clear();
}

/** Runs a catalog write and then drops the caches, whether or not it committed. */
export async function afterCatalogWrite<T>(db: object, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } finally {
    invalidateCatalogCaches(db);
  }
}

/**
 * Counting ~100,000 active cards costs tens of milliseconds, while the page itself is an index
 * walk of well under one. Big catalogs therefore reuse a count for a few seconds (per filter, never
 * for free-text search), which matters for the pages the response cache below does not hold
 * (expired, evicted, or never asked before); small catalogs are always counted exactly.
 */
const CACHE_ABOVE = 5_000;
const countCache = new WeakMap<object, Map<string, { total: number; at: number }>>();

async function cachedCount(db: Db, key: string, where: SQL | undefined): Promise<Array<{ total: number }>> {
  const hit = countCache.get(db)?.get(key);
  if (hit && Date.now() - hit.at < PUBLIC_CACHE_TTL_MS) return [{ total: hit.total }];
  const generation = generationOf(db);
  const at = Date.now();
  const [row] = await db.select({ total: count() }).from(cards).where(where);
  const total = row?.total ?? 0;
  if (total > CACHE_ABOVE && generation === generationOf(db)) {
    let byKey = countCache.get(db);
    if (!byKey) countCache.set(db, (byKey = new Map()));
    byKey.set(key, { total, at });
  }
  return [{ total }];
}

/**
 * Serialized public pages per normalized query. 48 cards with their refs are about 17 KB, so the
 * byte bound keeps a few hundred pages; free-text searches share it and the least recently used
 * pages leave first.
 */
const publicListCache = new WeakMap<object, ResponseCache>();
const PUBLIC_LIST_CACHE = { ttlMs: PUBLIC_CACHE_TTL_MS, maxEntries: 500, maxBytes: 8 * 1024 * 1024 } as const;

/** The validated query (defaults applied, strings trimmed) as a key; one key per distinct answer. */
export function publicCardListKey(q: z.output<typeof publicCardListQuerySchema>): string {
  return JSON.stringify([q.sort, q.page, q.pageSize, q.classId ?? null, q.set ?? null, q.q ?? null]);
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
  );
  const [items, [{ total } = { total: 0 }]] = await Promise.all([
    db
      .select(publicCardColumns)
      .from(cards)
      .innerJoin(cardClasses, eq(cardClasses.id, cards.classId))
      .where(where)
      .orderBy(...PUBLIC_ORDER[q.sort])
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    q.q ? db.select({ total: count() }).from(cards).where(where) : cachedCount(db, `${q.classId ?? ''}|${q.set ?? ''}`, where),
  ]);
  const refs = await lookRefs(db, items);
  return { items: items as PublicCard[], total, page: q.page, pageSize: q.pageSize, refs };
}

export async function getPublicCard(db: Db, id: string): Promise<PublicCardDetail> {
  const [row] = await db
    .select({ ...publicCardColumns, description: cards.description, stock: cards.stock })
    .from(cards)
    .innerJoin(cardClasses, eq(cardClasses.id, cards.classId))
    .where(and(eq(cards.id, id), eq(cards.active, true)));
  if (!row) throw notFound('This card is not in the catalog.');
  const { stock, ...card } = row;
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

const setsCache = new WeakMap<object, { sets: PublicSet[]; at: number }>();

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
