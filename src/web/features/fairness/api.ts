import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@web/lib/api';

export const fairnessKeys = {
  seeds: ['fairness', 'seeds'] as const,
  opening: (id: string) => ['fairness', 'opening', id] as const,
  pool: (hash: string) => ['fairness', 'pool', hash] as const,
  openings: (page: number) => ['fairness', 'openings', page] as const,
};

export const seedsQuery = queryOptions({
  queryKey: fairnessKeys.seeds,
  queryFn: () => api.get('/api/fairness/seeds'),
});

export const fairOpeningQuery = (id: string) =>
  queryOptions({
    queryKey: fairnessKeys.opening(id),
    queryFn: () => api.get('/api/fairness/openings/{id}', { path: { id } }),
  });

/** Pool snapshots are addressed by their hash, so they never change. */
export const poolQuery = (hash: string) =>
  queryOptions({
    queryKey: fairnessKeys.pool(hash),
    queryFn: () => api.get('/api/fairness/pools/{hash}', { path: { hash } }),
    staleTime: Infinity,
  });

/** A product's published odds revisions (the current one first). */
export const revisionsQuery = (productId: string) =>
  queryOptions({
    queryKey: ['fairness', 'revisions', productId] as const,
    queryFn: () => api.get('/api/fairness/products/{id}/revisions', { path: { id: productId } }),
  });

/** A revision is addressed by its hash, so it never changes. */
export const revisionQuery = (hash: string) =>
  queryOptions({
    queryKey: ['fairness', 'revision', hash] as const,
    queryFn: () => api.get('/api/fairness/revisions/{hash}', { path: { hash } }),
    staleTime: Infinity,
  });

export const returnsQuery = queryOptions({
  queryKey: ['fairness', 'returns'] as const,
  queryFn: () => api.get('/api/fairness/returns'),
  staleTime: 60_000,
});

export const myOpeningsQuery = (page: number, pageSize = 10) =>
  queryOptions({
    queryKey: fairnessKeys.openings(page),
    queryFn: () =>
      api.get('/api/shop/openings', { query: { page, pageSize } }),
  });

export function useSetClientSeed() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (clientSeed: string) => api.put('/api/fairness/seeds/client', { body: { clientSeed } }),
    onSuccess: (data) => qc.setQueryData(fairnessKeys.seeds, data),
  });
}

export function useRotateSeed() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.post('/api/fairness/seeds/rotate'),
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
