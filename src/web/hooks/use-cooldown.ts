import { useCallback, useEffect, useState } from 'react';

/** A countdown in whole seconds (e.g. "resend in 42 s"). start(n) begins it; 0 means ready. */
export function useCooldown(initial = 0) {
  const [until, setUntil] = useState(() => (initial > 0 ? Date.now() + initial * 1000 : 0));
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until <= now) return;
    const t = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(t);
  }, [until, now]);
  const start = useCallback((seconds: number) => {
    const t = Date.now();
    setNow(t);
    setUntil(t + seconds * 1000);
  }, []);
  const remaining = Math.max(0, Math.ceil((until - now) / 1000));
  return { remaining, start };
}
