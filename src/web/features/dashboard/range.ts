import { DASHBOARD_PRESETS, dashboardQuerySchema, type DashboardPreset, type DashboardQuery } from '@shared/contracts/dashboard';

/**
 * The dashboard's period as the URL carries it (`/admin?range=30d`, `/admin?range=custom&from=…&to=…`),
 * so a view can be linked and reloaded. The router keeps whatever strings it finds (a hand-edited
 * or stale link still opens the page); `checkRange` then says what is wrong with them, with the
 * same messages the server's 400 would give.
 */
export interface DashboardSearch {
  range?: DashboardPreset;
  from?: string;
  to?: string;
}

export const DEFAULT_PRESET: DashboardPreset = '7d';

export const PRESET_LABEL: Record<DashboardPreset, string> = {
  today: 'Today',
  '7d': '7 days',
  '30d': '30 days',
  custom: 'Custom',
};

const isPreset = (v: unknown): v is DashboardPreset => typeof v === 'string' && (DASHBOARD_PRESETS as readonly string[]).includes(v);
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

export type RangeField = 'range' | 'from' | 'to';
export type RangeErrors = Partial<Record<RangeField, string>>;

/** The API query for a URL state, or the field messages that stop it from being sent. */
export function checkRange(search: DashboardSearch): { query: DashboardQuery; errors: null } | { query: null; errors: RangeErrors } {
  const input = { range: search.range ?? DEFAULT_PRESET, from: search.from, to: search.to };
  const r = dashboardQuerySchema.safeParse(input);
  if (r.success) {
    const q: DashboardQuery = { range: r.data.range };
    if (r.data.from) q.from = r.data.from;
    if (r.data.to) q.to = r.data.to;
    return { query: q, errors: null };
  }
  const errors: RangeErrors = {};
  for (const issue of r.error.issues) {
    const field = issue.path[0];
    if ((field === 'range' || field === 'from' || field === 'to') && !errors[field]) errors[field] = issue.message;
  }
  return { query: null, errors };
}

/** The first message of each range field of a server 400 (`fields` of the error shape). */
export function serverRangeErrors(fields: Record<string, string[]> | undefined): RangeErrors {
  const errors: RangeErrors = {};
  for (const f of ['range', 'from', 'to'] as const) {
    const m = fields?.[f]?.[0];
    if (m) errors[f] = m;
  }
  return errors;
}

/** YYYY-MM-DD of a UTC day `daysBack` days before `now`. */
export function utcDay(now: Date, daysBack = 0): string {
  const d = new Date(now.getTime() - daysBack * 86_400_000);
  return d.toISOString().slice(0, 10);
}

/** What choosing Custom starts from: the current period's days if known, else the last 7 UTC days. */
export function customDefaults(now: Date, search: DashboardSearch): { from: string; to: string } {
  return { from: search.from ?? utcDay(now, 6), to: search.to ?? utcDay(now) };
}
