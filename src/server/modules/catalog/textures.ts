import { paged, type Paged } from '../../../shared/contracts/paging.ts';
import { and, asc, count, desc, eq, ilike, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { textureInputSchema, textureListQuerySchema, texturePatchSchema, type Texture } from '../../../shared/contracts/catalog.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { textures } from '../../db/schema/catalog.ts';
import type { ActorCtx } from '../../http/types.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { audit } from '../audit/service.ts';
import { afterCatalogWrite } from './cache.ts';
import { archivedWhere, inUse, iso, uploadExists, withFkGuard } from './helpers.ts';
import { likePattern } from '../../lib/like.ts';

/** Textures (foil overlays): admin list, create, edit, archive, delete. */

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

export async function checkImage(db: DbOrTx, key: string | undefined, field: string) {
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
