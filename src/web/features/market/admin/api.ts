import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type ApiQuery } from '@web/lib/api';

export type AdminListingsQuery = ApiQuery<'/api/admin/market/listings'>;
export type AdminTradesQuery = ApiQuery<'/api/admin/market/trades'>;
export type AdminSummaryQuery = ApiQuery<'/api/admin/market/summary'>;

const KEY = ['admin', 'market'] as const;

export const adminListingsQuery = (q: AdminListingsQuery) =>
  queryOptions({
    queryKey: [...KEY, 'listings', q],
    queryFn: ({ signal }) => api.get('/api/admin/market/listings', { query: q, signal }),
    placeholderData: keepPreviousData,
  });

export const adminTradesQuery = (q: AdminTradesQuery) =>
  queryOptions({
    queryKey: [...KEY, 'trades', q],
    queryFn: ({ signal }) => api.get('/api/admin/market/trades', { query: q, signal }),
    placeholderData: keepPreviousData,
  });

export const adminSummaryQuery = (q: AdminSummaryQuery) =>
  queryOptions({
    queryKey: [...KEY, 'summary', q],
    queryFn: ({ signal }) => api.get('/api/admin/market/summary', { query: q, signal }),
    placeholderData: keepPreviousData,
  });

/** Takes a listing off the market with the reason its seller is told. */
export function useRemoveListing() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) => api.post('/api/admin/market/listings/{id}/remove', { path: { id }, body: { reason } }),
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: KEY }), qc.invalidateQueries({ queryKey: ['market'] })]),
  });
}
