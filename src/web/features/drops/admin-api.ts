import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Card, Upload } from '@shared/contracts/catalog';
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
  dropTemplateListSchema,
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

const qs = (params: object) => {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '' && v !== null) u.set(k, String(v));
  const s = u.toString();
  return s ? `?${s}` : '';
};
const enc = encodeURIComponent;

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
    queryFn: ({ signal }) => api.get<AdminDropList>(`/api/admin/drops${qs(p)}`, { signal }),
    placeholderData: keepPreviousData,
  });

/** Live-ish while it runs: entries keep coming in and the status moves on its own (the job queue). */
export const adminDropQuery = (id: string) =>
  queryOptions({
    queryKey: adminDropKeys.one(id),
    queryFn: ({ signal }) => api.get<AdminDropDetail>(`/api/admin/drops/${enc(id)}`, { signal }),
    refetchInterval: (q) => {
      const s = q.state.data?.drop.status;
      return s === 'open' || s === 'drawing' || s === 'scheduled' ? 15_000 : false;
    },
  });

export const ENTRIES_PAGE_SIZE = 50;

export const adminDropEntriesQuery = (id: string, page: number) =>
  queryOptions({
    queryKey: adminDropKeys.entries(id, page),
    queryFn: ({ signal }) => api.get<AdminDropEntries>(`/api/admin/drops/${enc(id)}/entries${qs({ page, pageSize: ENTRIES_PAGE_SIZE })}`, { signal }),
    placeholderData: keepPreviousData,
  });

export const dropTemplatesQuery = queryOptions({
  queryKey: adminDropKeys.templates,
  queryFn: ({ signal }) => api.get<z.infer<typeof dropTemplateListSchema>>('/api/admin/drop-templates', { signal }),
});

/** Active cards with stock matching a search, for the prize picker (the admin card list API). */
export const prizeCardSearchQuery = (q: string) =>
  queryOptions({
    queryKey: adminDropKeys.cardSearch(q),
    queryFn: ({ signal }) =>
      api.get<{ items: Card[]; total: number }>(
        `/api/admin/catalog/cards${qs({ q: q || undefined, active: 'true', stock: 'in', sort: q ? 'name' : 'value_desc', pageSize: 8 })}`,
        { signal },
      ),
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
    mutationFn: (input: CreateDropInput) => api.post<AdminDropDetail>('/api/admin/drops', input),
    onSuccess: invalidate,
  });
}

export function useUpdateDrop(id: string) {
  const qc = useQueryClient();
  const invalidate = useInvalidateDrops();
  return useMutation({
    mutationFn: (patch: UpdateDropInput) => api.patch<AdminDropDetail>(`/api/admin/drops/${enc(id)}`, patch),
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
    mutationFn: () => api.post<AdminDropDetail>(`/api/admin/drops/${enc(id)}/cancel`, {}),
    onSuccess: (r) => {
      qc.setQueryData(adminDropKeys.one(id), r);
      invalidate();
    },
  });
}

export function useCreateTemplate() {
  const invalidate = useInvalidateDrops();
  return useMutation({
    mutationFn: (input: CreateDropTemplateInput) => api.post<{ template: DropTemplate }>('/api/admin/drop-templates', input),
    onSuccess: invalidate,
  });
}

export function useUpdateTemplate() {
  const invalidate = useInvalidateDrops();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: UpdateDropTemplateInput }) =>
      api.patch<{ template: DropTemplate }>(`/api/admin/drop-templates/${enc(id)}`, patch),
    onSuccess: invalidate,
  });
}

export function useDeleteTemplate() {
  const invalidate = useInvalidateDrops();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/api/admin/drop-templates/${enc(id)}`),
    onSuccess: invalidate,
  });
}

export async function uploadDropImage(file: File): Promise<Upload> {
  const fd = new FormData();
  fd.append('file', file);
  return (await api.post<{ upload: Upload }>('/api/admin/uploads', fd)).upload;
}
