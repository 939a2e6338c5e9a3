import { useEffect, useState } from 'react';

/** `value` once it has stayed the same for `ms`: a filter typed letter by letter queries once, on the pause. */
export function useDebounced<T>(value: T, ms = 300): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}
