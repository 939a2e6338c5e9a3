import { createContext, useContext, useEffect, useState, useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * True while React renders the page on the server or hydrates that HTML in the browser, false
 * after (and from the start for a page the browser renders itself). What only the browser knows
 * (the window's width, the viewer's time zone, the clock) may be used once this is false: used
 * while hydrating it would make the first client render differ from the server's HTML.
 */
export function useHydrating(): boolean {
  return useSyncExternalStore(
    never,
    () => false,
    () => true,
  );
}

/**
 * The instant a server-rendered page was drawn at (entry-server.tsx provides it, and main.tsx
 * provides the same value from the page's state while hydrating). Null for a page the browser
 * renders itself.
 */
export const RenderClock = createContext<number | null>(null);

/**
 * The current time, for text that depends on it ("3 minutes ago", a countdown), refreshed every
 * `ms` while mounted. The first render uses the time the server drew the page at, so hydration
 * renders the same text; the browser's clock takes over right after.
 */
export function useClock(ms: number): number {
  const drawnAt = useContext(RenderClock);
  const hydrating = useHydrating();
  const [now, setNow] = useState(() => (hydrating && drawnAt !== null ? drawnAt : Date.now()));
  useEffect(() => {
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms]);
  return now;
}
