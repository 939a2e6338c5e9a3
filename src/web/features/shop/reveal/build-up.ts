import type { CardLook } from '@shared/contracts/catalog-look';

/** One card as the reveal shows it. */
export interface RevealCard {
  /** The owned card's id (unique in the opening). */
  key: string;
  look: CardLook;
  /** 0 = the most common class there is … 1 = the rarest. Drives the build-up. */
  tier: number;
  slot: number;
}

/** One opened pack, already settled by the server. */
export interface RevealPack {
  /** The opening's id. */
  key: string;
  productId: string;
  productName: string;
  imageKey: string | null;
  priceCents: number;
  cards: RevealCard[];
}

export interface BuildUp {
  /** How long the suspense lasts before the card turns. */
  ms: number;
  /** Peak brightness of the class-coloured glow, 0–1. */
  glow: number;
  /** Sideways shake in px (0 = calm). */
  shake: number;
  /** Light rays behind the card (Epic and up). */
  rays: boolean;
  /** A white flash and sparks when it turns (Legendary). */
  burst: number;
  /** The label shown during the build-up (null: no hint for ordinary cards). */
  hint: string | null;
}

/**
 * Maps a class to how dramatic its reveal is. Classes are ranked by their display order
 * (Common first); the rarest class gets the longest, brightest build-up.
 */
export function rankTiers(classes: Array<{ id: string; sortOrder: number }>): Map<string, number> {
  const sorted = [...classes].sort((a, b) => a.sortOrder - b.sortOrder);
  const n = sorted.length;
  return new Map(sorted.map((c, i) => [c.id, n <= 1 ? 0 : i / (n - 1)]));
}

export function buildUpFor(tier: number): BuildUp {
  const t = Math.min(1, Math.max(0, tier));
  return {
    ms: Math.round(450 + Math.pow(t, 1.6) * 2600),
    glow: 0.25 + t * 0.75,
    shake: t < 0.45 ? 0 : Math.round(2 + (t - 0.45) * 16),
    rays: t >= 0.7,
    burst: t >= 0.7 ? t : 0,
    hint: t >= 0.95 ? 'Something legendary…' : t >= 0.7 ? 'Something big…' : t >= 0.45 ? 'Ooh…' : null,
  };
}

/** Whether the user asked the system for less motion (checked live, not cached). */
export function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia('(prefers-reduced-motion: reduce)').matches
    : false;
}

/**
 * Starts fetching the animation code (the `motion` library) before it is needed. The sell-back
 * panel shown under the reveal is the collection feature's: the page that composes both preloads
 * it (issue 42: a feature never imports another, dynamically neither).
 */
export function preloadRevealAnimation(): void {
  // The product page loads the reveal itself on demand (pages/shop/product.tsx).
  void import('./pack-opening');
  if (prefersReducedMotion()) return;
  void import('./tear-stage');
  void import('./animated-stage');
}
