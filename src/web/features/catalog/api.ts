
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

import type { ClientErrorCode } from '@shared/api-error';

import type { ArchitectInput, CardInput, ClassInput, CsvImportResult, Slab, SlabInput, TextureInput } from '@shared/contracts/catalog';
import { api, untypedApi, ApiClientError, type ApiQuery, type ApiResponse } from '@web/lib/api';
import { qs } from '@web/lib/query-string';

// ───────────── public ─────────────

export type PublicCardQuery = ApiQuery<'/api/cards'>;

export const publicCardsQuery = (p: PublicCardQuery) =>
  queryOptions({
    queryKey: ['catalog', 'public-cards', p],
    queryFn: ({ signal }) => api.get('/api/cards', { query: { ...p }, signal }),
    placeholderData: keepPreviousData,
  });

export const publicCardQuery = (id: string) =>
  queryOptions({
    queryKey: ['catalog', 'public-card', id],
    queryFn: ({ signal }) => api.get('/api/cards/{id}', { path: { id }, signal }),
  });

/** A card's market value over time (the card view's price chart). */
export const valueHistoryQuery = (id: string) =>
  queryOptions({
    queryKey: ['catalog', 'value-history', id],
    queryFn: ({ signal }) => api.get('/api/cards/{id}/value-history', { path: { id }, signal }),
    staleTime: 60_000,
  });

/**
 * A card's price comps (served by the market): collectors' recent sales, the lowest listing, the
 * shop's buyback quote and the reference a listing is checked against.
 */
export const cardCompsQuery = (id: string) =>
  queryOptions({
    queryKey: ['catalog', 'comps', id],
    queryFn: ({ signal }) => api.get('/api/market/cards/{id}/comps', { path: { id }, signal }),
    staleTime: 30_000,
  });

/** The live packs that can give a card, with the odds the draw uses (served by the shop). */
export const cardPacksQuery = (id: string) =>
  queryOptions({
    queryKey: ['catalog', 'card-packs', id],
    queryFn: ({ signal }) => api.get('/api/cards/{id}/packs', { path: { id }, signal }),
  });

export const publicClassesQuery = queryOptions({
  queryKey: ['catalog', 'public-classes'],
  queryFn: () => api.get('/api/catalog/classes'),
  staleTime: 5 * 60_000,
});

export const publicSetsQuery = queryOptions({
  queryKey: ['catalog', 'public-sets'],
  queryFn: () => api.get('/api/catalog/sets'),
  staleTime: 5 * 60_000,
});

// ───────────── admin ─────────────

const A = '/api/admin/catalog';

export type Entity = 'classes' | 'textures' | 'architects' | 'cards';

/*
 * The four catalog entities share one editor kit, generic over the entity. Reading one record and
 * the archive/restore/delete actions go through a typed table per entity. The list and the save
 * take loose params and form values, so they go through `untypedApi`, but their answers' types are
 * read from the generated schema per entity (ADR 0029): a renamed field still fails the build.
 */
/** What the list of each entity answers. */
export type AdminLists = { [E in Entity]: ApiResponse<`/api/admin/catalog/${E}`> };

export const adminListQuery = <E extends Entity>(entity: E, params: Record<string, string | number | undefined>) =>
  queryOptions({
    queryKey: ['catalog', 'admin', entity, 'list', params],
    queryFn: ({ signal }) => untypedApi.get<AdminLists[E]>(`${A}/${entity}${qs(params)}`, { signal }),
    placeholderData: keepPreviousData,
  });

/** What the API answers for one record, per entity. */
export type AdminRecords = { [E in Entity]: ApiResponse<`/api/admin/catalog/${E}/{id}`> };
export type AdminCard = AdminRecords['cards']['card'];

type EntityAction = 'archive' | 'restore' | 'delete';
/** Per entity, so that `entityCalls[entity].one(id)` answers `AdminRecords[E]` for a generic E. */
type EntityCalls = { [E in Entity]: { one: (id: string) => Promise<AdminRecords[E]>; act: (id: string, action: EntityAction) => Promise<unknown> } };
const entityCalls: EntityCalls = {
  classes: {
    one: (id) => api.get('/api/admin/catalog/classes/{id}', { path: { id } }),
    act: (id, action) =>
      action === 'delete'
        ? api.delete('/api/admin/catalog/classes/{id}', { path: { id } })
        : action === 'archive'
          ? api.post('/api/admin/catalog/classes/{id}/archive', { path: { id } })
          : api.post('/api/admin/catalog/classes/{id}/restore', { path: { id } }),
  },
  textures: {
    one: (id) => api.get('/api/admin/catalog/textures/{id}', { path: { id } }),
    act: (id, action) =>
      action === 'delete'
        ? api.delete('/api/admin/catalog/textures/{id}', { path: { id } })
        : action === 'archive'
          ? api.post('/api/admin/catalog/textures/{id}/archive', { path: { id } })
          : api.post('/api/admin/catalog/textures/{id}/restore', { path: { id } }),
  },
  architects: {
    one: (id) => api.get('/api/admin/catalog/architects/{id}', { path: { id } }),
    act: (id, action) =>
      action === 'delete'
        ? api.delete('/api/admin/catalog/architects/{id}', { path: { id } })
        : action === 'archive'
          ? api.post('/api/admin/catalog/architects/{id}/archive', { path: { id } })
          : api.post('/api/admin/catalog/architects/{id}/restore', { path: { id } }),
  },
  cards: {
    one: (id) => api.get('/api/admin/catalog/cards/{id}', { path: { id } }),
    act: (id, action) =>
      action === 'delete'
        ? api.delete('/api/admin/catalog/cards/{id}', { path: { id } })
        : action === 'archive'
          ? api.post('/api/admin/catalog/cards/{id}/archive', { path: { id } })
          : api.post('/api/admin/catalog/cards/{id}/restore', { path: { id } }),
  },
};

export const adminRecordQuery = <E extends Entity>(entity: E, id: string) =>
  queryOptions({
    queryKey: ['catalog', 'admin', entity, 'one', id],
    queryFn: () => entityCalls[entity].one(id),
  });

export type CatalogOptions = ApiResponse<'/api/admin/catalog/options'>;
export const adminOptionsQuery = queryOptions({
  queryKey: ['catalog', 'admin', 'options'],
  queryFn: () => api.get('/api/admin/catalog/options'),
});

export type SaveInputs = { classes: ClassInput; textures: TextureInput; architects: ArchitectInput; cards: CardInput };
/** What a save answers; a card's with `valueProposal` when its value change waits for the owner (ADR 0024). */
export type SaveOutputs = { [E in Entity]: ApiResponse<`/api/admin/catalog/${E}/{id}`, 'patch'> | ApiResponse<`/api/admin/catalog/${E}`, 'post'> };
type Outputs = SaveOutputs;

/** Create (id = undefined) or update one catalog record; refreshes every catalog query. */
export function useSaveEntity<E extends Entity>(entity: E) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, values }: { id?: string; values: Partial<SaveInputs[E]> }) =>
      id ? untypedApi.patch<Outputs[E]>(`${A}/${entity}/${id}`, values) : untypedApi.post<Outputs[E]>(`${A}/${entity}`, values),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['catalog'] }),
  });
}

export function useEntityAction(entity: Entity) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: EntityAction }) => entityCalls[entity].act(id, action),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['catalog'] }),
  });
}

export function useAdjustStock(cardId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { delta: number; reason: string }) =>
      api.post('/api/admin/catalog/cards/{id}/stock', { path: { id: cardId }, body: v }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['catalog'] }),
  });
}

export function useImportCsv() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (v: { csv: string; dryRun: boolean }): Promise<CsvImportResult> => {
      // 422 carries the row-by-row report, so this call reads the body itself.
      let res: Response;
      try {
        res = await fetch(`${A}/cards/import`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
          body: JSON.stringify(v),
          credentials: 'same-origin',
        });
      } catch {
        throw new ApiClientError(0, 'network_error', 'We could not reach the server. Check your connection and try again.');
      }
      const body = (await res.json().catch(() => null)) as
        | (CsvImportResult & { error?: { code: string; message: string; fields?: Record<string, string[]> } })
        | null;
      if (res.ok || res.status === 422) return body as CsvImportResult;
      throw new ApiClientError(
        res.status,
        (body?.error?.code as ClientErrorCode | undefined) ?? 'http_error',
        body?.error?.message ?? `The server answered ${res.status}. Try again in a moment.`,
        body?.error?.fields,
      );
    },
    onSuccess: (r) => {
      if (r.ok && !r.dryRun) void qc.invalidateQueries({ queryKey: ['catalog'] });
    },
  });
}

export function exportCsvUrl(params: Record<string, string | number | undefined>) {
  return `${A}/cards/export${qs(params)}`;
}

/** Uploads one image file; answers the stored upload (key + variants). */
export function useUploadImage() {
  return useMutation({
    mutationFn: async (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return (await api.post('/api/admin/uploads', { body: form })).upload;
    },
  });
}

// Slabs of a graded card (issue 38): each physical copy with its own certificate.
export const adminSlabsQuery = (cardId: string) =>
  queryOptions({
    queryKey: ['catalog', 'admin', 'slabs', cardId],
    queryFn: () => api.get('/api/admin/catalog/cards/{id}/slabs', { path: { id: cardId } }),
  });

export function useSlabMutations(cardId: string) {
  const qc = useQueryClient();
  const onSuccess = () => qc.invalidateQueries({ queryKey: ['catalog'] });
  return {
    add: useMutation({
      mutationFn: (slabs: SlabInput[]) => api.post('/api/admin/catalog/cards/{id}/slabs', { path: { id: cardId }, body: { slabs } }),
      onSuccess,
    }),
    update: useMutation({
      mutationFn: (v: { slabId: string; patch: Partial<Pick<Slab, 'grader' | 'grade' | 'certNumber' | 'frontPhotoKey' | 'backPhotoKey'>> }) =>
        api.patch('/api/admin/catalog/cards/{id}/slabs/{slabId}', { path: { id: cardId, slabId: v.slabId }, body: v.patch }),
      onSuccess,
    }),
    remove: useMutation({
      mutationFn: (slabId: string) => api.delete('/api/admin/catalog/cards/{id}/slabs/{slabId}', { path: { id: cardId, slabId } }),
      onSuccess,
    }),
  };
}
