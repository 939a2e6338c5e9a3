import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  BuybackInput,
  GrantCardInput,
  Wishlist,
  UpdateBuybackRatesInput,
} from '@shared/contracts/collection';

import { MAX_CARD_ODDS_IDS } from '@shared/shop-limits';
import { api, type ApiQuery } from '@web/lib/api';
import { balanceQuery } from '@web/lib/balance-query';

type AdminBuybackQuery = ApiQuery<'/api/admin/buybacks'>;
type AdminOwnedQuery = ApiQuery<'/api/admin/owned'>;

export const collectionKeys = {
  all: ['collection'] as const,
  list: (q: CollectionParams) => ['collection', 'list', q] as const,
  card: (id: string) => ['collection', 'card', id] as const,
  sets: ['collection', 'sets'] as const,
  missing: (set: string) => ['collection', 'sets', 'missing', set] as const,
  adminBuybacks: (q: AdminBuybackQuery) => ['admin', 'buybacks', q] as const,
  rates: ['admin', 'buyback-rates'] as const,
  adminOwned: (q: AdminOwnedQuery) => ['admin', 'owned', q] as const,
};

export type CollectionParams = ApiQuery<'/api/collection'>;

export const collectionQuery = (q: CollectionParams) =>
  queryOptions({
    queryKey: collectionKeys.list(q),
    queryFn: ({ signal }) => api.get('/api/collection', { query: q, signal }),
    placeholderData: keepPreviousData,
  });

export const ownedCardQuery = (id: string) =>
  queryOptions({
    queryKey: collectionKeys.card(id),
    queryFn: ({ signal }) => api.get('/api/collection/{ownedCardId}', { path: { ownedCardId: id }, signal }),
  });

export const quoteQuery = (input: BuybackInput, enabled = true) =>
  queryOptions({
    queryKey: ['buyback-quote', input],
    queryFn: ({ signal }) => api.post('/api/buyback/quote', { body: input, signal }),
    enabled,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });

/**
 * Sells cards back, with the Idempotency-Key of the user's intent (the dialog's useMoneyAction:
 * a retry of the same sale reuses it, so the server answers the first result).
 */
export function useSellBack() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ input, key }: { input: BuybackInput; key: string }) => api.post('/api/buyback', { body: input, idempotencyKey: key }),
    onSuccess: (r) => {
      // A sale's answer carries the new balance: the header and the shop show it at once.
      qc.setQueryData(balanceQuery.queryKey, (old) => (old ? { ...old, balanceCents: r.balanceCents } : old));
    },
    onSettled: () => qc.invalidateQueries({ queryKey: collectionKeys.all }),
  });
}

// ───────────── collecting: sets and the wishlist ─────────────

export const setCompletionQuery = queryOptions({
  queryKey: collectionKeys.sets,
  queryFn: ({ signal }) => api.get('/api/collection/sets', { signal }),
});

export const missingCardsQuery = (set: string) =>
  queryOptions({
    queryKey: collectionKeys.missing(set),
    queryFn: ({ signal }) => api.get('/api/collection/sets/missing', { query: { set }, signal }),
  });

/** Not under ['collection']: a sale or a shipment does not change what the user wishes for. */
export const WISHLIST_KEY = ['wishlist'] as const;

export const wishlistQuery = (enabled = true) =>
  queryOptions({
    queryKey: WISHLIST_KEY,
    queryFn: ({ signal }) => api.get('/api/wishlist', { signal }),
    enabled,
  });

/** Adds or removes a card; the hearts change at once and go back if the server says no. */
export function useToggleWish() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ cardId, wished }: { cardId: string; wished: boolean }) =>
      wished
        ? api.put('/api/wishlist/{cardId}', { path: { cardId } })
        : api.delete('/api/wishlist/{cardId}', { path: { cardId } }),
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
    queryFn: ({ signal }) => api.get('/api/admin/buybacks', { query: q, signal }),
    placeholderData: keepPreviousData,
  });

export const ratesQuery = queryOptions({
  queryKey: collectionKeys.rates,
  queryFn: () => api.get('/api/admin/buyback/rates'),
});

export function useSaveRates() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateBuybackRatesInput) => api.put('/api/admin/buyback/rates', { body: input }),
    onSuccess: (r) => qc.setQueryData(collectionKeys.rates, r),
  });
}

export const adminOwnedQuery = (q: AdminOwnedQuery) =>
  queryOptions({
    queryKey: collectionKeys.adminOwned(q),
    queryFn: ({ signal }) => api.get('/api/admin/owned', { query: q, signal }),
    placeholderData: keepPreviousData,
  });

export function useGrantCard() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: GrantCardInput) => api.post('/api/admin/owned/grant', { body: input }),
    onSettled: () => qc.invalidateQueries({ queryKey: ['admin', 'owned'] }),
  });
}

export function useRevokeCard() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      api.post('/api/admin/owned/{id}/revoke', { path: { id }, body: { reason } }),
    onSettled: () => qc.invalidateQueries({ queryKey: ['admin', 'owned'] }),
  });
}

/** Cards for the grant dialog's picker (the admin catalog list, searched by name). */
export const cardSearchQuery = (q: string) =>
  queryOptions({
    queryKey: ['admin', 'owned', 'card-search', q],
    queryFn: ({ signal }) =>
      api.get('/api/admin/catalog/cards', { query: { q, pageSize: 20, archived: 'active' }, signal }),
    enabled: q.trim().length > 0,
    placeholderData: keepPreviousData,
  });

/**
 * Where each of these cards can be pulled (the live packs and the chance per pack): one request
 * per MAX_CARD_ODDS_IDS cards, so a full wishlist is a few requests, not one per card.
 */
export const cardOddsQuery = (ids: readonly string[]) =>
  queryOptions({
    queryKey: ['catalog', 'card-odds', [...ids].sort()] as const,
    queryFn: async ({ signal }) => {
      const chunks: string[][] = [];
      for (let i = 0; i < ids.length; i += MAX_CARD_ODDS_IDS) chunks.push(ids.slice(i, i + MAX_CARD_ODDS_IDS));
      const answers = await Promise.all(chunks.map((c) => api.get('/api/shop/card-odds', { query: { ids: c.join(',') }, signal })));
      // A plain object, not a Map: a page drawn on the server sends its queries' data to the
      // browser as JSON (entry-server.tsx), where a Map would arrive as {}.
      const byCard: Partial<Record<string, (typeof answers)[number]['cards'][number]['packs']>> = {};
      for (const a of answers) for (const c of a.cards) byCard[c.cardId] = c.packs;
      return byCard;
    },
    enabled: ids.length > 0,
    staleTime: 60_000,
  });
