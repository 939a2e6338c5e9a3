import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Card, Upload } from '@shared/contracts/catalog';
import type { PackInput, ProductInput } from '@shared/contracts/shop';
import { api } from '@web/lib/api';

export interface AdminProductListParams {
  q?: string;
  status?: 'draft' | 'live' | 'archived' | 'all';
  sort?: 'order' | 'name' | 'price_asc' | 'price_desc' | 'newest';
  page?: number;
  pageSize?: number;
}

export const adminShopKeys = {
  products: (p: AdminProductListParams) => ['admin', 'shop', 'products', p] as const,
  product: (id: string) => ['admin', 'shop', 'product', id] as const,
  pack: (id: string) => ['admin', 'shop', 'pack', id] as const,
  poolCards: ['admin', 'shop', 'pool-cards'] as const,
  classes: ['admin', 'shop', 'classes'] as const,
};

export const adminProductsQuery = (p: AdminProductListParams) =>
  queryOptions({
    queryKey: adminShopKeys.products(p),
    queryFn: () =>
      api.get('/api/admin/products', { query: p }),
    placeholderData: keepPreviousData,
  });

export const adminProductQuery = (id: string) =>
  queryOptions({
    queryKey: adminShopKeys.product(id),
    queryFn: () => api.get('/api/admin/products/{id}', { path: { id } }),
  });

export const adminPackQuery = (id: string) =>
  queryOptions({
    queryKey: adminShopKeys.pack(id),
    queryFn: () => api.get('/api/admin/packs/{id}', { path: { id } }),
  });

/** Every class (non-archived) for the odds editor's pickers. */
export const adminClassesQuery = queryOptions({
  queryKey: adminShopKeys.classes,
  queryFn: () => api.get('/api/admin/catalog/options'),
  select: (d) => [...d.classes].sort((a, b) => a.sortOrder - b.sortOrder),
  staleTime: 60_000,
});

const POOL_PAGE = 100;
const POOL_MAX_PAGES = 50;

/**
 * Every active card with stock: the data the draw's pools are built from. The pack editor
 * computes floor / EV / ceiling from it as the admin types, with the same formulas as the server.
 */
export const poolCardsQuery = queryOptions({
  queryKey: adminShopKeys.poolCards,
  queryFn: async () => {
    const all: Card[] = [];
    let total = 0;
    for (let page = 1; page <= POOL_MAX_PAGES; page++) {
      const r = await api.get('/api/admin/catalog/cards', { query: { stock: 'in', active: 'true', sort: 'value_desc', page, pageSize: POOL_PAGE } });
      all.push(...r.items);
      total = r.total;
      if (all.length >= r.total || r.items.length < POOL_PAGE) break;
    }
    return { cards: all, complete: all.length >= total, total };
  },
  staleTime: 30_000,
});

export function useCreateProduct() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: ProductInput) => api.post('/api/admin/products', { body: input }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['admin', 'shop'] }),
  });
}

export function useUpdateProduct(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (patch: Partial<ProductInput>) => api.patch('/api/admin/products/{id}', { path: { id }, body: patch }),
    onSuccess: (r) => {
      qc.setQueryData(adminShopKeys.product(id), r);
      void qc.invalidateQueries({ queryKey: ['admin', 'shop', 'products'] });
      void qc.invalidateQueries({ queryKey: ['shop'] });
    },
  });
}

export function useDeleteProduct(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete('/api/admin/products/{id}', { path: { id } }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['admin', 'shop'] });
      void qc.invalidateQueries({ queryKey: ['shop'] });
    },
  });
}

export function useSavePack(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: PackInput) => api.put('/api/admin/packs/{id}', { path: { id }, body: input }),
    onSuccess: (r) => {
      qc.setQueryData(adminShopKeys.pack(id), r);
      void qc.invalidateQueries({ queryKey: ['admin', 'shop', 'products'] });
      void qc.invalidateQueries({ queryKey: ['shop'] });
    },
  });
}

export async function uploadImage(file: File): Promise<Upload> {
  const fd = new FormData();
  fd.append('file', file);
  const r = await api.post('/api/admin/uploads', { body: fd });
  return r.upload;
}
