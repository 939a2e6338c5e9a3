import type { DashboardPreset } from '@shared/contracts/dashboard';

/**
 * The dashboard's period as the URL carries it (`/admin?range=30d`, `/admin?range=custom&from=…&to=…`),
 * so a view can be linked and reloaded. This is the router's validateSearch, so it lives in the
 * app's entry chunk: it must not import zod or the contract's schemas (a type import only), or
 * every public page would download them. The route keeps whatever strings it finds (a hand-edited
 * or stale link still opens the page); range.ts's checkRange then says what is wrong with them.
 */
export interface DashboardSearch {
  range?: DashboardPreset;
  from?: string;
  to?: string;
}

/** The contract's DASHBOARD_PRESETS (a unit test keeps the two equal). */
export const SEARCH_PRESETS = ['today', '7d', '30d', 'custom'] as const satisfies readonly DashboardPreset[];

export const DEFAULT_PRESET: DashboardPreset = '7d';

const isPreset = (v: unknown): v is DashboardPreset => typeof v === 'string' && (SEARCH_PRESETS as readonly string[]).includes(v);
const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v.slice(0, 40) : typeof v === 'number' ? String(v) : undefined);

/** The route's validateSearch: never throws, drops what cannot be a period, leaves the default out. */
export function parseDashboardSearch(search: Record<string, unknown>): DashboardSearch {
  const range = isPreset(search.range) ? search.range : undefined;
  const out: DashboardSearch = {};
  if (range && range !== DEFAULT_PRESET) out.range = range;
  if (range === 'custom') {
    const from = str(search.from);
    const to = str(search.to);
    if (from) out.from = from;
    if (to) out.to = to;
  }
  return out;
}
