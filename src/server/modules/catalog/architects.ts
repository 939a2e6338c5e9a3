import { paged, type Paged } from '../../../shared/contracts/paging.ts';
import { and, asc, count, desc, eq, ilike, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { architectInputSchema, architectListQuerySchema, architectPatchSchema, type Architect } from '../../../shared/contracts/catalog.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { architects } from '../../db/schema/catalog.ts';
import type { ActorCtx } from '../../http/types.ts';
import { notFound } from '../../http/errors.ts';
import { audit } from '../audit/service.ts';
import { afterCatalogWrite } from './cache.ts';
import { archivedWhere, inUse, iso, withFkGuard } from './helpers.ts';
import { likePattern } from '../../lib/like.ts';
import { checkImage } from './textures.ts';

/** Architects (card frame templates): admin list, create, edit, archive, delete. */

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
