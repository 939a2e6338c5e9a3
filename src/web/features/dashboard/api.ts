import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { DashboardQuery } from '@shared/contracts/dashboard';
import { api, ApiClientError } from '@web/lib/api';

/** GET /api/admin/dashboard (role + two-factor): the whole page in one answer. */

export const dashboardKeys = {
  all: ['admin', 'dashboard'] as const,
  one: (q: DashboardQuery) => ['admin', 'dashboard', q] as const,
};

/** A minute between refreshes: the figures move with sales, and nobody reloads a dashboard. */
export const DASHBOARD_REFRESH_MS = 60_000;

export const dashboardQuery = (q: DashboardQuery) =>
  queryOptions({
    queryKey: dashboardKeys.one(q),
    queryFn: ({ signal }) => api.get('/api/admin/dashboard', { query: { range: q.range ?? '7d', from: q.from, to: q.to }, signal }),
    // Switching the period keeps the last figures on screen (marked as updating) instead of skeletons.
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    // Paused while the tab is hidden (refetchIntervalInBackground stays false).
    refetchInterval: DASHBOARD_REFRESH_MS,
    // A 4xx (bad dates, signed out) will not fix itself by asking again.
    retry: (n, err) => n < 2 && !(err instanceof ApiClientError && err.status >= 400 && err.status < 500),
  });

/** The marketplace's sales over the dashboard's period (GET /api/admin/market/summary, the same instants). */
export const marketFiguresQuery = (range: { from: string; to: string }) =>
  queryOptions({
    queryKey: ['admin', 'dashboard', 'market', range.from, range.to] as const,
    queryFn: ({ signal }) => api.get('/api/admin/market/summary', { query: { from: range.from, to: range.to }, signal }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    refetchInterval: DASHBOARD_REFRESH_MS,
  });
