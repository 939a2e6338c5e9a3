import type { Architect, ArchitectLayout, CardClass, LookRefs, Texture } from '@shared/contracts/catalog';
import { DEFAULT_LAYOUT, type CardLook } from '@shared/contracts/catalog-look';

/** A card look assembled from admin records, for live previews while editing. */
export function previewLook(input: {
  name?: string;
  valueCents?: number;
  imageKey?: string | null;
  cls?: Pick<CardClass, 'name' | 'colour'> | null;
  architect?: { frameImageKey: string | null; layout: ArchitectLayout } | null;
  texture?: Pick<Texture, 'imageKey' | 'blendMode' | 'opacity'> | null;
}): CardLook {
  return {
    name: input.name ?? '',
    valueCents: Number.isSafeInteger(input.valueCents) ? input.valueCents! : 0,
    imageKey: input.imageKey || null,
    className: input.cls?.name ?? '',
    classColour: input.cls?.colour ?? '#a1a1aa',
    frameImageKey: input.architect?.frameImageKey || null,
    layout: input.architect?.layout ?? DEFAULT_LAYOUT,
    texture: input.texture ? { imageKey: input.texture.imageKey, blendMode: input.texture.blendMode, opacity: input.texture.opacity } : null,
  };
}

/** The texture a card is drawn with: its own, else its class's default. */
export function effectiveTexture(textureId: string | null | undefined, cls: CardClass | undefined, textures: Texture[]) {
  const id = textureId || cls?.defaultTextureId;
  return id ? (textures.find((t) => t.id === id) ?? null) : null;
}

export function findArchitect(list: Architect[], id: string | undefined) {
  return list.find((a) => a.id === id) ?? null;
}

export type { LookRefs };
