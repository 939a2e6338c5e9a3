import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import type {
  AdminBuybackList,
  AdminBuybackQuery,
  AdminOwnedList,
  AdminOwnedQuery,
  BuybackInput,
  BuybackQuote,
  BuybackRates,
  BuybackResult,
  CollectionPage,
  CollectionQuery,
  GrantCardInput,
  MissingCards,
  OwnedCardDetail,
  SetCompletionList,
  Wishlist,
  WishlistChange,
  UpdateBuybackRatesInput,
} from '@shared/contracts/collection';
import { api, newIdempotencyKey } from '@web/lib/api';

/** Builds ?a=1&b=2 from defined, non-empty values. */
export function qs(params: object): string {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === '') continue;
    u.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  const s = u.toString();
  return s ? `?${s}` : '';
}

export const collectionKeys = {
  all: ['collection'] as const,
  list: (q: CollectionQuery & { ids?: string }) => ['collection', 'list', q] as const,
  card: (id: string) => ['collection', 'card', id] as const,
  sets: ['collection', 'sets'] as const,
  missing: (set: string) => ['collection', 'sets', 'missing', set] as const,
  adminBuybacks: (q: AdminBuybackQuery) => ['admin', 'buybacks', q] as const,
  rates: ['admin', 'buyback-rates'] as const,
  adminOwned: (q: AdminOwnedQuery) => ['admin', 'owned', q] as const,
};

/** The wallet's balance query key (shared by the header): a sale's answer carries the new balance. */
const BALANCE_KEY = ['wallet', 'balance'] as const;

export type CollectionParams = Omit<CollectionQuery, 'ids'> & { ids?: string };

export const collectionQuery = (q: CollectionParams) =>
  queryOptions({
    queryKey: collectionKeys.list(q),
    queryFn: ({ signal }) => api.get<CollectionPage>(`/api/collection${qs(q)}`, { signal }),
    placeholderData: keepPreviousData,
  });

export const ownedCardQuery = (id: string) =>
  queryOptions({
    queryKey: collectionKeys.card(id),
    queryFn: ({ signal }) => api.get<OwnedCardDetail>(`/api/collection/${encodeURIComponent(id)}`, { signal }),
  });

export const quoteQuery = (input: BuybackInput, enabled = true) =>
  queryOptions({
    queryKey: ['buyback-quote', input],
    queryFn: ({ signal }) => api.post<BuybackQuote>('/api/buyback/quote', input, { signal }),
    enabled,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });

/**
 * Sells cards back. One idempotency key per intent: a retry after a network failure reuses it
 * (the server answers the first result), a new sale gets a fresh one.
 */
export function useSellBack() {
  const qc = useQueryClient();
  const pending = useRef<{ body: string; key: string } | null>(null);
  return useMutation({
    mutationFn: (input: BuybackInput) => {
      const body = JSON.stringify(input);
      if (pending.current?.body !== body) pending.current = { body, key: newIdempotencyKey() };
      return api.post<BuybackResult>('/api/buyback', input, { idempotencyKey: pending.current.key });
    },
    onSuccess: (r) => {
      pending.current = null;
      qc.setQueryData<{ balanceCents: number }>(BALANCE_KEY, (old) => (old ? { ...old, balanceCents: r.balanceCents } : old));
    },
    onSettled: () => qc.invalidateQueries({ queryKey: collectionKeys.all }),
  });
}

// ───────────── collecting: sets and the wishlist ─────────────

export const setCompletionQuery = queryOptions({
  queryKey: collectionKeys.sets,
  queryFn: ({ signal }) => api.get<SetCompletionList>('/api/collection/sets', { signal }),
});

export const missingCardsQuery = (set: string) =>
  queryOptions({
    queryKey: collectionKeys.missing(set),
    queryFn: ({ signal }) => api.get<MissingCards>(`/api/collection/sets/missing${qs({ set })}`, { signal }),
  });

/** Not under ['collection']: a sale or a shipment does not change what the user wishes for. */
export const WISHLIST_KEY = ['wishlist'] as const;

export const wishlistQuery = (enabled = true) =>
  queryOptions({
    queryKey: WISHLIST_KEY,
    queryFn: ({ signal }) => api.get<Wishlist>('/api/wishlist', { signal }),
    enabled,
  });

/** Adds or removes a card; the hearts change at once and go back if the server says no. */
export function useToggleWish() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ cardId, wished }: { cardId: string; wished: boolean }) =>
      wished
        ? api.put<WishlistChange>(`/api/wishlist/${encodeURIComponent(cardId)}`)
        : api.delete<WishlistChange>(`/api/wishlist/${encodeURIComponent(cardId)}`),
    onMutate: async ({ cardId, wished }) => {
      await qc.cancelQueries({ queryKey: WISHLIST_KEY });
      const before = qc.getQueryData<Wishlist>(WISHLIST_KEY);
      if (before) {
        qc.setQueryData<Wishlist>(WISHLIST_KEY, {
          ...before,
          cardIds: wished ? [cardId, ...before.cardIds.filter((id) => id !== cardId)] : before.cardIds.filter((id) => id !== cardId),
        });
      }
      return { before };
    },
    onError: (_e, _v, ctx) => {
      if (ctx?.before) qc.setQueryData(WISHLIST_KEY, ctx.before);
    },
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: WISHLIST_KEY }), qc.invalidateQueries({ queryKey: ['collection', 'sets', 'missing'] })]),
  });
}

// ───────────── admin ─────────────

export const adminBuybacksQuery = (q: AdminBuybackQuery) =>
  queryOptions({
    queryKey: collectionKeys.adminBuybacks(q),
    queryFn: ({ signal }) => api.get<AdminBuybackList>(`/api/admin/buybacks${qs(q)}`, { signal }),
    placeholderData: keepPreviousData,
  });

export const ratesQuery = queryOptions({
  queryKey: collectionKeys.rates,
  queryFn: () => api.get<BuybackRates>('/api/admin/buyback/rates'),
});

export function useSaveRates() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateBuybackRatesInput) => api.put<BuybackRates>('/api/admin/buyback/rates', input),
    onSuccess: (r) => qc.setQueryData(collectionKeys.rates, r),
  });
}

export const adminOwnedQuery = (q: AdminOwnedQuery) =>
  queryOptions({
    queryKey: collectionKeys.adminOwned(q),
    queryFn: ({ signal }) => api.get<AdminOwnedList>(`/api/admin/owned${qs(q)}`, { signal }),
    placeholderData: keepPreviousData,
  });

export function useGrantCard() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: GrantCardInput) => api.post<{ ownedCard: { id: string }; stock: number }>('/api/admin/owned/grant', input),
    onSettled: () => qc.invalidateQueries({ queryKey: ['admin', 'owned'] }),
  });
}

export function useRevokeCard() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      api.post<{ ownedCard: { id: string }; stock: number }>(`/api/admin/owned/${encodeURIComponent(id)}/revoke`, { reason }),
    onSettled: () => qc.invalidateQueries({ queryKey: ['admin', 'owned'] }),
  });
}

/** Cards for the grant dialog's picker (the admin catalog list, searched by name). */
export const cardSearchQuery = (q: string) =>
  queryOptions({
    queryKey: ['admin', 'owned', 'card-search', q],
    queryFn: ({ signal }) =>
      api.get<{ items: Array<{ id: string; name: string; setName: string; number: number; stock: number; valueCents: number }> }>(
        `/api/admin/catalog/cards${qs({ q, pageSize: 20, archived: 'active' })}`,
        { signal },
      ),
    enabled: q.trim().length > 0,
    placeholderData: keepPreviousData,
  });
