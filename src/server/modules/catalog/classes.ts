import type { StaffRole } from '../audit/duties.ts';
import { paged, type Paged } from '../../../shared/contracts/paging.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { and, asc, count, desc, eq, ilike, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { classInputSchema, classListQuerySchema, classPatchSchema, type CardClass } from '../../../shared/contracts/catalog.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { cardClasses, textures } from '../../db/schema/catalog.ts';
import type { ActorCtx } from '../../http/types.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import { audit } from '../audit/service.ts';
import { afterCatalogWrite } from './cache.ts';
import { archivedWhere, inUse, iso, withFkGuard } from './helpers.ts';
import { likePattern } from '../../lib/like.ts';

/** Card classes (rarity tiers): admin list, create, edit, archive, delete. Every write is audited and drops the public caches. */

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

/** A class's own buyback rate moves money: only the owner sets or changes it (ADR 0024). */
function assertRateByOwner(role: StaffRole): void {
  if (role !== 'owner') {
    throw new AppError(403, 'owner_role_required', 'Only the owner sets a class’s buyback rate. Leave it as it is, or ask the owner.', {
      buybackRateBp: ['Only the owner changes this.'],
    });
  }
}

export async function createClass(db: Db, ctx: ActorCtx & { role: StaffRole }, input: z.output<typeof classInputSchema>): Promise<CardClass> {
  if (input.buybackRateBp !== null) assertRateByOwner(ctx.role);
  return afterCatalogWrite(db, () =>
    db.transaction(async (tx) => {
      await checkTextureRef(tx, input.defaultTextureId, 'defaultTextureId');
      const [row] = await tx.insert(cardClasses).values(input).returning().catch(classNameTaken);
      const dto = classDto(row!, 0);
      await audit(tx, { actorId: ctx.actorId, ip: ctx.ip, action: 'catalog.class.create', targetType: 'card_class', targetId: row!.id, before: null, after: dto });
      return dto;
    }),
  );
}

export async function updateClass(db: Db, ctx: ActorCtx & { role: StaffRole }, id: string, patch: z.output<typeof classPatchSchema>): Promise<CardClass> {
  return afterCatalogWrite(db, () =>
    db.transaction(async (tx) => {
      const before = await getClass(tx, id);
      if (patch.buybackRateBp !== undefined && patch.buybackRateBp !== before.buybackRateBp) assertRateByOwner(ctx.role);
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
      await audit(tx, { actorId: ctx.actorId, ip: ctx.ip, action: 'catalog.class.update', targetType: 'card_class', targetId: id, before, after });
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

/**
 * A class's buyback rate override (basis points; null = the default). Buyback's rate screen sets it
 * and audits the change itself; the public catalog does not show it, so no cache to refresh.
 */
export async function setClassBuybackRate(tx: DbOrTx, classId: string, rateBp: number | null): Promise<void> {
  await tx.update(cardClasses).set({ buybackRateBp: rateBp, updatedAt: new Date() }).where(eq(cardClasses.id, classId));
}
