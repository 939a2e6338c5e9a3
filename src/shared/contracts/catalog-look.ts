import type { ArchitectLayout, BlendMode, LookRefs, PublicCard } from './catalog';

/**
 * The catalog's constants and card-drawing helpers that need no zod. Public pages import these
 * (not catalog.ts, whose schemas pull zod into the bundle); catalog.ts re-exports them.
 */

export const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;
export const UPLOAD_KEY = /^[a-f0-9]{64}$/;
export const MAX_VALUE_CENTS = 100_000_000; // $1,000,000 — anything above is a typo.
export const MAX_STOCK = 1_000_000;

export type UploadVariant = 'thumb' | 'full';
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
export const UPLOAD_ACCEPT = 'image/png,image/jpeg,image/webp';

/** URL of a stored image variant; keys are content hashes, so the URL never changes meaning. */
export function imageUrl(key: string, variant: UploadVariant = 'full'): string {
  return `/api/uploads/${key}-${variant}.webp`;
}

export const BLEND_MODES = [
  'color-dodge',
  'overlay',
  'screen',
  'soft-light',
  'hard-light',
  'lighten',
  'plus-lighter',
  'multiply',
] as const;

export const DEFAULT_LAYOUT: ArchitectLayout = {
  art: { x: 8, y: 12, w: 84, h: 56 },
  name: { x: 8, y: 3.5, w: 84, size: 6.5, align: 'left', colour: '#ffffff' },
  class: { x: 8, y: 71, w: 84, size: 4.5, align: 'left', colour: '#e4e4e7' },
  value: { x: 8, y: 88, w: 84, size: 6, align: 'right', colour: '#ffffff' },
};

export const PUBLIC_CARD_SORTS = ['value_desc', 'value_asc', 'name', 'newest'] as const;
export type PublicCardSort = (typeof PUBLIC_CARD_SORTS)[number];
export const PUBLIC_PAGE_SIZE = 48;

/** Everything needed to draw one card with the card renderer. */
export interface CardLook {
  name: string;
  imageKey: string | null;
  valueCents: number;
  className: string;
  classColour: string;
  /** 1 (lowest) to 5, from the class's sort order (classTier); drawn as pips and a frame weight. */
  classTier?: ClassTier;
  frameImageKey: string | null;
  layout: ArchitectLayout;
  texture: { imageKey: string; blendMode: BlendMode; opacity: number } | null;
}

export type ClassTier = 1 | 2 | 3 | 4 | 5;

/**
 * A class's rarity tier, so a card's class reads at a glance without colour (issue 19: a Common in
 * a gold frame looked Legendary). Classes are admin-defined; their sort order ranks them. Orders
 * 0–5 are tiers as they are; larger orders count in tens (the seed's 10, 20 … 50), capped at 5.
 */
export function classTier(sortOrder: number): ClassTier {
  const t = sortOrder <= 5 ? sortOrder : Math.ceil(sortOrder / 10);
  return Math.min(5, Math.max(1, t)) as ClassTier;
}

/** A short code for a class name ("Legendary" → "LE", "Ultra Rare" → "UR"), shown beside its tier. */
export function classCode(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (!words.length) return '?';
  const code = words.length > 1 ? words.map((w) => w[0]).join('').slice(0, 3) : words[0]!.slice(0, 2);
  return code.toUpperCase();
}

export function lookFromRefs(card: PublicCard, refs: LookRefs): CardLook {
  const cls = refs.classes.find((c) => c.id === card.classId);
  const arch = refs.architects.find((a) => a.id === card.architectId);
  const tex = card.textureId ? refs.textures.find((t) => t.id === card.textureId) : undefined;
  return {
    name: card.name,
    imageKey: card.imageKey,
    valueCents: card.valueCents,
    className: cls?.name ?? '',
    classColour: cls?.colour ?? '#a1a1aa',
    ...(cls ? { classTier: classTier(cls.sortOrder) } : {}),
    frameImageKey: arch?.frameImageKey ?? null,
    layout: arch?.layout ?? DEFAULT_LAYOUT,
    texture: tex ? { imageKey: tex.imageKey, blendMode: tex.blendMode, opacity: tex.opacity } : null,
  };
}
