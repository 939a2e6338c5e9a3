import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { LookRefs } from '@shared/contracts/catalog';
import type { Opening, PoolSnapshot, Seeds } from '@shared/contracts/shop';
import { api } from '@web/lib/api';

export const fairnessKeys = {
  seeds: ['fairness', 'seeds'] as const,
  opening: (id: string) => ['fairness', 'opening', id] as const,
  pool: (hash: string) => ['fairness', 'pool', hash] as const,
  openings: (page: number) => ['fairness', 'openings', page] as const,
};

export const seedsQuery = queryOptions({
  queryKey: fairnessKeys.seeds,
  queryFn: () => api.get<Seeds>('/api/fairness/seeds'),
});

export const fairOpeningQuery = (id: string) =>
  queryOptions({
    queryKey: fairnessKeys.opening(id),
    queryFn: () => api.get<{ opening: Opening; refs: LookRefs }>(`/api/fairness/openings/${encodeURIComponent(id)}`),
  });

/** Pool snapshots are addressed by their hash, so they never change. */
export const poolQuery = (hash: string) =>
  queryOptions({
    queryKey: fairnessKeys.pool(hash),
    queryFn: () => api.get<PoolSnapshot>(`/api/fairness/pools/${encodeURIComponent(hash)}`),
    staleTime: Infinity,
  });

export const myOpeningsQuery = (page: number, pageSize = 10) =>
  queryOptions({
    queryKey: fairnessKeys.openings(page),
    queryFn: () =>
      api.get<{ items: Opening[]; total: number; page: number; pageSize: number; refs: LookRefs }>(
        `/api/shop/openings?page=${page}&pageSize=${pageSize}`,
      ),
  });

export function useSetClientSeed() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (clientSeed: string) => api.put<Seeds>('/api/fairness/seeds/client', { clientSeed }),
    onSuccess: (data) => qc.setQueryData(fairnessKeys.seeds, data),
  });
}

export function useRotateSeed() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ revealed: Seeds['revealed'][number]; active: Seeds['active'] }>('/api/fairness/seeds/rotate'),
    onSuccess: () => {
      // Openings made with the old seed now carry their server seed: refetch them.
      void qc.invalidateQueries({ queryKey: ['fairness'] });
    },
  });
}

/** A fresh random client seed (what "randomise" puts in the box). */
export function randomClientSeed(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
