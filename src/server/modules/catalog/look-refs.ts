import { inArray } from 'drizzle-orm';
import { type LookRefs } from '../../../shared/contracts/catalog.ts';
import type { DbOrTx } from '../../db/client.ts';
import { architects, cardClasses, textures } from '../../db/schema/catalog.ts';

/** The look references (classes, architects, textures) that the cards of a page need to render, for admin and public reads alike. */

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
