import { dashboardQuerySchema, type DashboardPreset, type DashboardQuery } from '@shared/contracts/dashboard';
import { DEFAULT_PRESET, type DashboardSearch } from './search';

export { DEFAULT_PRESET, parseDashboardSearch, type DashboardSearch } from './search';

export const PRESET_LABEL: Record<DashboardPreset, string> = {
  today: 'Today',
  '7d': '7 days',
  '30d': '30 days',
  custom: 'Custom',
};

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
