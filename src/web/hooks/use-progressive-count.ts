import { useEffect, useState } from 'react';

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

/**
 * How many items of a long list to draw now. The first `first` come with the page; after each paint
 * `step` more follow, each batch its own short task, until all `total` are drawn.
 *
 * Why: a page of 24 cards drawn at once was one 500–800 ms task on a phone (Lighthouse's 4× CPU:
 * Preact's render, then layout of ~900 boxes), which blocked input and held back the first card's
 * paint. React would time-slice this with useDeferredValue; preact/compat's useDeferredValue returns
 * its value at once (ADR 0020), so the slicing is done here. Callers draw a same-sized placeholder
 * for each item not yet drawn, so nothing moves when it arrives.
 */
export function useProgressiveCount(total: number, first: number, step: number): number {
  const [count, setCount] = useState(first);
  useEffect(() => {
    if (count >= total) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // After the next frame, so each batch is painted before the next one is built.
    const raf =
      typeof requestAnimationFrame === 'function' && document.visibilityState === 'visible'
        ? requestAnimationFrame(() => {
            timer = setTimeout(() => setCount((c) => c + step), 0);
          })
        : undefined;
    if (raf === undefined) timer = setTimeout(() => setCount((c) => c + step), 0);
    return () => {
      if (raf !== undefined) cancelAnimationFrame(raf);
      clearTimeout(timer);
    };
  }, [count, total, step]);
  return Math.min(count, total);
}
