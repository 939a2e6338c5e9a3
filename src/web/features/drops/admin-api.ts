import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Upload } from '@shared/contracts/catalog';
import type {
  AdminDrop,
  CreateDropInput,
  CreateDropTemplateInput,
  DropStatus,
  DropTemplate,
  UpdateDropInput,
  UpdateDropTemplateInput,
  adminDropDetailSchema,
  adminDropEntriesSchema,
  adminDropListSchema,
} from '@shared/contracts/drops';
import { api } from '@web/lib/api';

/** The back office's side of daily drops (issue 16): /api/admin/drops and /api/admin/drop-templates. */

export type AdminDropList = z.infer<typeof adminDropListSchema>;
export type AdminDropDetail = z.infer<typeof adminDropDetailSchema>;
export type AdminDropEntries = z.infer<typeof adminDropEntriesSchema>;
export type { AdminDrop, DropTemplate };

export interface AdminDropListParams {
  status?: DropStatus | undefined;
  page: number;
  pageSize: number;
}


export const adminDropKeys = {
  all: ['admin', 'drops'] as const,
  list: (p: AdminDropListParams) => ['admin', 'drops', 'list', p] as const,
  one: (id: string) => ['admin', 'drops', 'one', id] as const,
  entries: (id: string, page: number) => ['admin', 'drops', 'entries', id, page] as const,
  templates: ['admin', 'drops', 'templates'] as const,
  cardSearch: (q: string) => ['admin', 'drops', 'card-search', q] as const,
};

export const adminDropsQuery = (p: AdminDropListParams) =>
  queryOptions({
    queryKey: adminDropKeys.list(p),
    queryFn: ({ signal }) => api.get('/api/admin/drops', { query: p, signal }),
    placeholderData: keepPreviousData,
  });

/** Live-ish while it runs: entries keep coming in and the status moves on its own (the job queue). */
export const adminDropQuery = (id: string) =>
  queryOptions({
    queryKey: adminDropKeys.one(id),
    queryFn: ({ signal }) => api.get('/api/admin/drops/{id}', { path: { id }, signal }),
    refetchInterval: (q) => {
      const s = q.state.data?.drop.status;
      return s === 'open' || s === 'drawing' || s === 'scheduled' ? 15_000 : false;
    },
  });

export const ENTRIES_PAGE_SIZE = 50;

export const adminDropEntriesQuery = (id: string, page: number) =>
  queryOptions({
    queryKey: adminDropKeys.entries(id, page),
    queryFn: ({ signal }) => api.get('/api/admin/drops/{id}/entries', { path: { id }, query: { page, pageSize: ENTRIES_PAGE_SIZE }, signal }),
    placeholderData: keepPreviousData,
  });

export const dropTemplatesQuery = queryOptions({
  queryKey: adminDropKeys.templates,
  queryFn: ({ signal }) => api.get('/api/admin/drop-templates', { signal }),
});

/** Active cards with stock matching a search, for the prize picker (the admin card list API). */
export const prizeCardSearchQuery = (q: string) =>
  queryOptions({
    queryKey: adminDropKeys.cardSearch(q),
    queryFn: ({ signal }) =>
      api.get('/api/admin/catalog/cards', { query: { q: q || undefined, active: 'true', stock: 'in', sort: q ? 'name' : 'value_desc', pageSize: 8 }, signal }),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });

function useInvalidateDrops() {
  const qc = useQueryClient();
  // Prize stock moves with a drop, so the catalog's card lists are stale too.
  return () => {
    void qc.invalidateQueries({ queryKey: adminDropKeys.all });
    void qc.invalidateQueries({ queryKey: ['catalog', 'admin'] });
    void qc.invalidateQueries({ queryKey: ['drops'] });
  };
}

export function useCreateDrop() {
  const invalidate = useInvalidateDrops();
  return useMutation({
    mutationFn: (input: CreateDropInput) => api.post('/api/admin/drops', { body: input }),
    onSuccess: invalidate,
  });
}

export function useUpdateDrop(id: string) {
  const qc = useQueryClient();
  const invalidate = useInvalidateDrops();
  return useMutation({
    mutationFn: (patch: UpdateDropInput) => api.patch('/api/admin/drops/{id}', { path: { id }, body: patch }),
    onSuccess: (r) => {
      qc.setQueryData(adminDropKeys.one(id), r);
      invalidate();
    },
  });
}

export function useCancelDrop(id: string) {
  const qc = useQueryClient();
  const invalidate = useInvalidateDrops();
  return useMutation({
    mutationFn: () => api.post('/api/admin/drops/{id}/cancel', { path: { id } }),
    onSuccess: (r) => {
      qc.setQueryData(adminDropKeys.one(id), r);
      invalidate();
    },
  });
}

export function useCreateTemplate() {
  const invalidate = useInvalidateDrops();
  return useMutation({
    mutationFn: (input: CreateDropTemplateInput) => api.post('/api/admin/drop-templates', { body: input }),
    onSuccess: invalidate,
  });
}

export function useUpdateTemplate() {
  const invalidate = useInvalidateDrops();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: UpdateDropTemplateInput }) =>
      api.patch('/api/admin/drop-templates/{id}', { path: { id }, body: patch }),
    onSuccess: invalidate,
  });
}

export function useDeleteTemplate() {
  const invalidate = useInvalidateDrops();
  return useMutation({
    mutationFn: (id: string) => api.delete('/api/admin/drop-templates/{id}', { path: { id } }),
    onSuccess: invalidate,
  });
}

export async function uploadDropImage(file: File): Promise<Upload> {
  const fd = new FormData();
  fd.append('file', file);
  return (await api.post('/api/admin/uploads', { body: fd })).upload;
}
