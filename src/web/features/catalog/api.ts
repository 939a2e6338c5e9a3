import type { Paged } from '@shared/contracts/paging';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CardPackOdds } from '@shared/contracts/shop';
import type { ClientErrorCode } from '@shared/api-error';
import type { Architect, ArchitectInput, Card, CardClass, CardValueHistory, CardInput, ClassInput, CsvImportResult, LookClass, LookRefs, PublicCardDetail, PublicCardPage, PublicSet, StockAdjustment, Texture, TextureInput, Upload } from '@shared/contracts/catalog';
import { api, ApiClientError } from '@web/lib/api';

/** Builds ?a=1&b=2 from defined, non-empty values. */
export function qs(params: Record<string, string | number | boolean | undefined | null>): string {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') u.set(k, String(v));
  const s = u.toString();
  return s ? `?${s}` : '';
}

// ───────────── public ─────────────

export interface PublicCardQuery {
  q?: string;
  classId?: string;
  set?: string;
  graded?: string;
  sort?: string;
  page?: number;
}

export const publicCardsQuery = (p: PublicCardQuery) =>
  queryOptions({
    queryKey: ['catalog', 'public-cards', p],
    queryFn: ({ signal }) => api.get<PublicCardPage>(`/api/cards${qs({ ...p })}`, { signal }),
    placeholderData: keepPreviousData,
  });

export const publicCardQuery = (id: string) =>
  queryOptions({
    queryKey: ['catalog', 'public-card', id],
    queryFn: ({ signal }) => api.get<PublicCardDetail>(`/api/cards/${encodeURIComponent(id)}`, { signal }),
  });

/** A card's market value over time (the card view's price chart). */
export const valueHistoryQuery = (id: string) =>
  queryOptions({
    queryKey: ['catalog', 'value-history', id],
    queryFn: ({ signal }) => api.get<CardValueHistory>(`/api/cards/${encodeURIComponent(id)}/value-history`, { signal }),
    staleTime: 60_000,
  });

/** The live packs that can give a card, with the odds the draw uses (served by the shop). */
export const cardPacksQuery = (id: string) =>
  queryOptions({
    queryKey: ['catalog', 'card-packs', id],
    queryFn: ({ signal }) => api.get<CardPackOdds>(`/api/cards/${encodeURIComponent(id)}/packs`, { signal }),
  });

export const publicClassesQuery = queryOptions({
  queryKey: ['catalog', 'public-classes'],
  queryFn: () => api.get<{ classes: LookClass[] }>('/api/catalog/classes'),
  staleTime: 5 * 60_000,
});

export const publicSetsQuery = queryOptions({
  queryKey: ['catalog', 'public-sets'],
  queryFn: () => api.get<{ sets: PublicSet[] }>('/api/catalog/sets'),
  staleTime: 5 * 60_000,
});

// ───────────── admin ─────────────

const A = '/api/admin/catalog';

export type Entity = 'classes' | 'textures' | 'architects' | 'cards';

export const adminListQuery = <T>(entity: Entity, params: Record<string, string | number | undefined>) =>
  queryOptions({
    queryKey: ['catalog', 'admin', entity, 'list', params],
    queryFn: ({ signal }) => api.get<Paged<T> & { refs?: LookRefs }>(`${A}/${entity}${qs(params)}`, { signal }),
    placeholderData: keepPreviousData,
  });

export type AdminCard = Card & { effectiveTextureId: string | null };

/** What the API answers for one record, per entity. */
export interface AdminRecords {
  classes: { class: CardClass };
  textures: { texture: Texture };
  architects: { architect: Architect };
  cards: { card: AdminCard; refs: LookRefs; adjustments: Paged<StockAdjustment> };
}

export const adminRecordQuery = <E extends Entity>(entity: E, id: string) =>
  queryOptions({
    queryKey: ['catalog', 'admin', entity, 'one', id],
    queryFn: () => api.get<AdminRecords[E]>(`${A}/${entity}/${id}`),
  });

export interface CatalogOptions {
  classes: CardClass[];
  architects: Architect[];
  textures: Texture[];
  sets: PublicSet[];
  sampleImageKey: string | null;
}
export const adminOptionsQuery = queryOptions({
  queryKey: ['catalog', 'admin', 'options'],
  queryFn: () => api.get<CatalogOptions>(`${A}/options`),
});

export type SaveInputs = { classes: ClassInput; textures: TextureInput; architects: ArchitectInput; cards: CardInput };
type Outputs = { classes: { class: CardClass }; textures: { texture: Texture }; architects: { architect: Architect }; cards: { card: Card } };

/** Create (id = undefined) or update one catalog record; refreshes every catalog query. */
export function useSaveEntity<E extends Entity>(entity: E) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, values }: { id?: string; values: Partial<SaveInputs[E]> }) =>
      id ? api.patch<Outputs[E]>(`${A}/${entity}/${id}`, values) : api.post<Outputs[E]>(`${A}/${entity}`, values),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['catalog'] }),
  });
}

export function useEntityAction(entity: Entity) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'archive' | 'restore' | 'delete' }) =>
      action === 'delete' ? api.delete(`${A}/${entity}/${id}`) : api.post(`${A}/${entity}/${id}/${action}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['catalog'] }),
  });
}

export function useAdjustStock(cardId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { delta: number; reason: string }) =>
      api.post<{ card: Card; adjustment: StockAdjustment }>(`${A}/cards/${cardId}/stock`, v),
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
      return (await api.post<{ upload: Upload }>('/api/admin/uploads', form)).upload;
    },
  });
}
