import { useEffect, useMemo, useReducer } from 'react';
import { imageUrl, type CardLook } from '@shared/contracts/catalog-look';

/**
 * The reveal never shows a card before its images can be drawn (issue 41): each card's art,
 * frame and foil are fetched and decoded ahead of its turn, and until an image is ready — or if it
 * never loads — the card is drawn without it (the renderer's own frame, name and rarity badge), so
 * a slow or failing image never turns over as an empty card.
 */
export type ImageState = 'loading' | 'ready' | 'failed';
type Variant = 'full' | 'thumb';

/** One state per URL for the whole visit: a replay or the results grid reuses what loaded. */
const states = new Map<string, ImageState>();
const pending = new Map<string, Promise<ImageState>>();
const listeners = new Set<(url: string) => void>();

function settle(url: string, state: ImageState): ImageState {
  states.set(url, state);
  pending.delete(url);
  for (const l of listeners) l(url);
  return state;
}

/** Fetches and decodes one image; a decode the browser cannot do counts as a failure. */
export function preloadImage(url: string): Promise<ImageState> {
  const known = states.get(url);
  if (known && known !== 'loading') return Promise.resolve(known);
  const inFlight = pending.get(url);
  if (inFlight) return inFlight;
  if (typeof Image === 'undefined') return Promise.resolve(settle(url, 'failed'));
  states.set(url, 'loading');
  const img = new Image();
  img.decoding = 'async';
  const p = new Promise<ImageState>((resolve) => {
    img.onload = () => {
      // decode() keeps the turn from showing a half-painted image; where it is missing, load will do.
      const decoded = typeof img.decode === 'function' ? img.decode() : Promise.resolve();
      decoded.then(
        () => resolve(settle(url, 'ready')),
        () => resolve(settle(url, 'failed')),
      );
    };
    img.onerror = () => resolve(settle(url, 'failed'));
  });
  pending.set(url, p);
  img.src = url;
  return p;
}

export function imageState(url: string): ImageState | undefined {
  return states.get(url);
}

/** Every image a card is drawn with, at the renderer's variant for that size. */
export function lookImageUrls(look: CardLook, variant: Variant): string[] {
  const urls: string[] = [];
  if (look.imageKey) urls.push(imageUrl(look.imageKey, variant));
  if (look.frameImageKey) urls.push(imageUrl(look.frameImageKey, variant));
  if (look.texture) urls.push(imageUrl(look.texture.imageKey, variant));
  return urls;
}

/** Settled: each image has loaded or failed (a card may turn). */
export function lookSettled(look: CardLook, variant: Variant): boolean {
  return lookImageUrls(look, variant).every((u) => {
    const s = states.get(u);
    return s === 'ready' || s === 'failed';
  });
}

/**
 * The look as it can be drawn right now: an image not decoded yet (or broken) is left out, so the
 * renderer draws its fallback frame and plain art window around the name and rarity instead.
 */
export function drawableLook(look: CardLook, variant: Variant): CardLook {
  const ok = (key: string | null | undefined) => Boolean(key) && states.get(imageUrl(key!, variant)) === 'ready';
  const imageKey = ok(look.imageKey) ? look.imageKey : null;
  const frameImageKey = ok(look.frameImageKey) ? look.frameImageKey : null;
  const texture = look.texture && ok(look.texture.imageKey) ? look.texture : null;
  if (imageKey === look.imageKey && frameImageKey === look.frameImageKey && texture === look.texture) return look;
  return { ...look, imageKey, frameImageKey, texture };
}

/**
 * Starts loading the given looks' images (in order: the first card's first) and re-renders the
 * caller whenever one of them settles.
 */
const NONE: string[] = [];

export function useLookImages(looks: CardLook[], variant: Variant, extra: string[] = NONE): void {
  const [, bump] = useReducer((n: number) => n + 1, 0);
  const urls = useMemo(() => [...extra, ...looks.flatMap((l) => lookImageUrls(l, variant))], [looks, variant, extra]);
  useEffect(() => {
    let live = true;
    const mine = new Set(urls);
    const onChange = (url: string) => {
      if (live && mine.has(url)) bump();
    };
    listeners.add(onChange);
    for (const u of mine) void preloadImage(u);
    return () => {
      live = false;
      listeners.delete(onChange);
    };
  }, [urls]);
}

/** For tests: forget every image's state. */
export function resetImageStates(): void {
  states.clear();
  pending.clear();
}
