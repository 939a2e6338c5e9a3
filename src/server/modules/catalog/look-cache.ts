import { inArray } from 'drizzle-orm';
import type { ArchitectLayout, BlendMode } from '../../../shared/contracts/catalog.ts';
import type { DbOrTx } from '../../db/client.ts';
import { architects, cardClasses, textures } from '../../db/schema/catalog.ts';
import { generationOf, PUBLIC_CACHE_TTL_MS } from './cache.ts';

export interface ClassLook {
  name: string;
  colour: string;
  sortOrder: number;
  defaultTextureId: string | null;
}
export interface ArchitectLook {
  frameImageKey: string;
  layout: ArchitectLayout;
}
export interface TextureLook {
  imageKey: string;
  blendMode: BlendMode;
  opacity: number;
}

export interface Looks {
  classes: ReadonlyMap<string, ClassLook>;
  architects: ReadonlyMap<string, ArchitectLook>;
  textures: ReadonlyMap<string, TextureLook>;
}

interface Entry {
  generation: number;
  at: number;
  classes: Map<string, ClassLook>;
  architects: Map<string, ArchitectLook>;
  textures: Map<string, TextureLook>;
}

/**
 * Per process, the look of the classes, frames and textures that drawn cards are shown with, so
 * the opening's statement does not join three tables for every card it takes (issue 21: its joins
 * were about a tenth of the statement's database time). A catalog has a handful of each, and they
 * change only when an admin edits them: every such write bumps the catalog generation (cache.ts,
 * in every process through the bus), which empties this cache; the TTL bounds a lost event, as
 * for the public list. Anything not held is read in one query per kind and kept.
 */
const caches = new WeakMap<object, Entry>();
const MAX_ENTRIES = 10_000;

function entryOf(db: object): Entry {
  const generation = generationOf(db);
  const now = Date.now();
  let e = caches.get(db);
  if (!e || e.generation !== generation || now - e.at > PUBLIC_CACHE_TTL_MS || e.classes.size + e.architects.size + e.textures.size > MAX_ENTRIES) {
    e = { generation, at: now, classes: new Map(), architects: new Map(), textures: new Map() };
    caches.set(db, e);
  }
  return e;
}

/** The looks of these classes and architects, and of the textures the cards or their classes use. */
export async function looksOf(
  db: DbOrTx,
  cards: ReadonlyArray<{ classId: string; architectId: string; textureId: string | null }>,
): Promise<Looks> {
  const e = entryOf(db);
  const classIds = [...new Set(cards.map((c) => c.classId).filter((id) => !e.classes.has(id)))];
  const architectIds = [...new Set(cards.map((c) => c.architectId).filter((id) => !e.architects.has(id)))];
  const [cls, arch] = await Promise.all([
    classIds.length
      ? db
          .select({ id: cardClasses.id, name: cardClasses.name, colour: cardClasses.colour, sortOrder: cardClasses.sortOrder, defaultTextureId: cardClasses.defaultTextureId })
          .from(cardClasses)
          .where(inArray(cardClasses.id, classIds))
      : [],
    architectIds.length
      ? db.select({ id: architects.id, frameImageKey: architects.frameImageKey, layout: architects.layout }).from(architects).where(inArray(architects.id, architectIds))
      : [],
  ]);
  // An entry filled from a read that overlapped a catalog write carries the old generation, so the
  // next call drops it: no read can leave a stale look behind.
  for (const { id, ...look } of cls) e.classes.set(id, look);
  for (const { id, ...look } of arch) e.architects.set(id, look);
  const textureIds = [
    ...new Set(
      cards
        .map((c) => c.textureId ?? e.classes.get(c.classId)?.defaultTextureId ?? null)
        .filter((id): id is string => id !== null && !e.textures.has(id)),
    ),
  ];
  if (textureIds.length) {
    const tex = await db
      .select({ id: textures.id, imageKey: textures.imageKey, blendMode: textures.blendMode, opacity: textures.opacity })
      .from(textures)
      .where(inArray(textures.id, textureIds));
    for (const { id, ...look } of tex) e.textures.set(id, look);
  }
  return e;
}
