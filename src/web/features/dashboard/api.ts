import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Dashboard, DashboardQuery } from '@shared/contracts/dashboard';
import { api, ApiClientError } from '@web/lib/api';

/** GET /api/admin/dashboard (role + two-factor): the whole page in one answer. */

export const dashboardKeys = {
  all: ['admin', 'dashboard'] as const,
  one: (q: DashboardQuery) => ['admin', 'dashboard', q] as const,
};

/** A minute between refreshes: the figures move with sales, and nobody reloads a dashboard. */
export const DASHBOARD_REFRESH_MS = 60_000;

export function dashboardPath(q: DashboardQuery): string {
  const u = new URLSearchParams({ range: q.range ?? '7d' });
  if (q.from) u.set('from', q.from);
  if (q.to) u.set('to', q.to);
  return `/api/admin/dashboard?${u.toString()}`;
}

export const dashboardQuery = (q: DashboardQuery) =>
  queryOptions({
    queryKey: dashboardKeys.one(q),
    queryFn: ({ signal }) => api.get<Dashboard>(dashboardPath(q), { signal }),
    // Switching the period keeps the last figures on screen (marked as updating) instead of skeletons.
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    // Paused while the tab is hidden (refetchIntervalInBackground stays false).
    refetchInterval: DASHBOARD_REFRESH_MS,
    // A 4xx (bad dates, signed out) will not fix itself by asking again.
    retry: (n, err) => n < 2 && !(err instanceof ApiClientError && err.status >= 400 && err.status < 500),
  });
