import { useNavigate, useSearch } from '@tanstack/react-router';
import { useCallback } from 'react';

/** The list state in parsed search params, over the defaults (what useUrlState reads). */
export function readUrlState<T extends Record<string, string>>(defaults: T, search: Record<string, unknown>): T {
  const state = { ...defaults } as T;
  for (const key of Object.keys(defaults) as Array<keyof T>) {
    const v = search[key as string];
    if (v !== undefined && v !== null && v !== '') state[key] = String(v) as T[keyof T];
  }
  return state;
}

/**
 * List state (search, filters, sort, page) lives in the URL, so a list can be shared, reloaded
 * and navigated back to exactly as it was. Values equal to the default are left out of the URL.
 * Changing anything but the page goes back to page 1 unless `keepPage` is set.
 */
export function useUrlState<T extends Record<string, string>>(defaults: T) {
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const navigate = useNavigate();
  const state = readUrlState(defaults, search);
  const set = useCallback(
    (patch: Partial<T>, opts: { keepPage?: boolean } = {}) => {
      const resetsPage = !opts.keepPage && Object.keys(patch).some((k) => k !== 'page');
      void navigate({
        search: ((prev: Record<string, unknown>) => {
          const next: Record<string, unknown> = { ...prev, ...patch };
          if (resetsPage) delete next.page;
          for (const [k, v] of Object.entries(next)) {
            if (v === '' || v === undefined || v === defaults[k]) delete next[k];
          }
          return next;
        }) as never,
        replace: true,
      } as never);
    },
    [navigate, defaults],
  );
  return [state, set] as const;
}
