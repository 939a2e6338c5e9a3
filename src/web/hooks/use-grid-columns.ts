import { useDeferredValue } from 'react';
import { useHydrating } from '@web/lib/hydration';

/**
 * Columns of a card grid at the window's width: 2, 3 from sm, 4 from md, 6 from `sixFrom` (lg,
 * 1024 px, for /cards; the vault's grid turns to six at xl, 1280 px).
 */
export function gridColumnsAt(width: number, sixFrom: 1024 | 1280 = 1024): number {
  if (width >= sixFrom) return 6;
  if (width >= 768) return 4;
  if (width >= 640) return 3;
  return 2;
}

/** The grid's column count: a phone's two until hydrated, then the window's. */
export function useGridColumns(sixFrom: 1024 | 1280 = 1024): number {
  const hydrating = useHydrating();
  return hydrating ? 2 : gridColumnsAt(window.innerWidth, sixFrom);
}

/**
 * How many items of a long list to draw now. A page of 24 cards drawn in one render was one
 * 500–800 ms task on a phone (Lighthouse's 4× CPU). So a grid that mounts in the browser draws its
 * first two rows at once and the rest in a deferred render, which React runs in the background,
 * yielding to input every few milliseconds (`useDeferredValue` with an initial value). Callers draw
 * a same-sized placeholder for each item not yet drawn, so nothing moves when it arrives.
 *
 * On the server and while hydrating, every item is drawn: the HTML holds the whole grid (readable
 * with JavaScript off), and hydration must render exactly what the server sent.
 */
export function useShownCount(total: number, first: number): number {
  const hydrating = useHydrating();
  return useDeferredValue(total, hydrating ? total : Math.min(first, total));
}
