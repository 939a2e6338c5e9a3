import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Card, CardClass, Upload } from '@shared/contracts/catalog';
import type { AdminPackDetail, PackInput, ProductInput, ProductSummary } from '@shared/contracts/shop';
import { api } from '@web/lib/api';

export interface AdminProductListParams {
  q?: string;
  status?: 'draft' | 'live' | 'archived' | 'all';
  sort?: 'order' | 'name' | 'price_asc' | 'price_desc' | 'newest';
  page?: number;
  pageSize?: number;
}

const qs = (params: object) => {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '' && v !== null) u.set(k, String(v));
  const s = u.toString();
  return s ? `?${s}` : '';
};

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
      api.get<{ items: ProductSummary[]; total: number; page: number; pageSize: number }>(`/api/admin/products${qs(p)}`),
    placeholderData: keepPreviousData,
  });

export const adminProductQuery = (id: string) =>
  queryOptions({
    queryKey: adminShopKeys.product(id),
    queryFn: () => api.get<{ product: ProductSummary }>(`/api/admin/products/${encodeURIComponent(id)}`),
  });

export const adminPackQuery = (id: string) =>
  queryOptions({
    queryKey: adminShopKeys.pack(id),
    queryFn: () => api.get<AdminPackDetail>(`/api/admin/packs/${encodeURIComponent(id)}`),
  });

/** Every class (non-archived) for the odds editor's pickers. */
export const adminClassesQuery = queryOptions({
  queryKey: adminShopKeys.classes,
  queryFn: () => api.get<{ classes: CardClass[] }>('/api/admin/catalog/options'),
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
      const r = await api.get<{ items: Card[]; total: number }>(
        `/api/admin/catalog/cards${qs({ stock: 'in', active: 'true', sort: 'value_desc', page, pageSize: POOL_PAGE })}`,
      );
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
    mutationFn: (input: ProductInput) => api.post<{ product: ProductSummary }>('/api/admin/products', input),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['admin', 'shop'] }),
  });
}

export function useUpdateProduct(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (patch: Partial<ProductInput>) => api.patch<{ product: ProductSummary }>(`/api/admin/products/${encodeURIComponent(id)}`, patch),
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
    mutationFn: () => api.delete<void>(`/api/admin/products/${encodeURIComponent(id)}`),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['admin', 'shop'] });
      void qc.invalidateQueries({ queryKey: ['shop'] });
    },
  });
}

export function useSavePack(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: PackInput) => api.put<AdminPackDetail>(`/api/admin/packs/${encodeURIComponent(id)}`, input),
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
  const r = await api.post<{ upload: Upload }>('/api/admin/uploads', fd);
  return r.upload;
}
