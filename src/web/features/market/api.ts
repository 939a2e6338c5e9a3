import { keepPreviousData, queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { CreateListingInput, MarketListing, MarketListingPage } from '@shared/contracts/market';
import { api, ApiClientError, type ApiQuery } from '@web/lib/api';
import { balanceQuery } from '@web/lib/balance-query';

export type MarketBrowseQuery = ApiQuery<'/api/market'>;
export type MyListingsQuery = ApiQuery<'/api/market/mine'>;

export const marketKeys = {
  all: ['market'] as const,
  browse: (q: MarketBrowseQuery) => ['market', 'browse', q] as const,
  listing: (id: string) => ['market', 'listing', id] as const,
  mine: (q: MyListingsQuery) => ['market', 'mine', q] as const,
  mineAll: ['market', 'mine'] as const,
  quote: (priceCents: number) => ['market', 'quote', priceCents] as const,
};

/** The vault's queries (features/collection/api.ts), by key: features do not import each other. */
const COLLECTION_KEY = ['collection'] as const;

export const marketBrowseQuery = (q: MarketBrowseQuery) =>
  queryOptions({
    queryKey: marketKeys.browse(q),
    queryFn: ({ signal }) => api.get('/api/market', { query: q, signal }),
    placeholderData: keepPreviousData,
  });

export const marketListingQuery = (id: string) =>
  queryOptions({
    queryKey: marketKeys.listing(id),
    queryFn: ({ signal }) => api.get('/api/market/{id}', { path: { id }, signal }),
    // A listing that has ended never changes again (and a visitor would now get a 404 for it).
    staleTime: (q) => (q.state.data && q.state.data.state !== 'active' ? Infinity : 0),
    // An unknown or ended listing is a 404: asking again will not change it.
    retry: (n, err) => n < 2 && !(err instanceof ApiClientError && err.status === 404),
  });

export const myListingsQuery = (q: MyListingsQuery) =>
  queryOptions({
    queryKey: marketKeys.mine(q),
    queryFn: ({ signal }) => api.get('/api/market/mine', { query: q, signal }),
    placeholderData: keepPreviousData,
  });

/** The catalog's public classes (the rarity tiers) and sets, for the filters. */
export const marketClassesQuery = queryOptions({
  queryKey: ['market', 'classes'],
  queryFn: () => api.get('/api/catalog/classes'),
  staleTime: 5 * 60_000,
});
export const marketSetsQuery = queryOptions({
  queryKey: ['market', 'sets'],
  queryFn: () => api.get('/api/catalog/sets'),
  staleTime: 5 * 60_000,
});

/** The fee and what the seller receives at this price (400 outside the bounds: the field says why). */
export const marketQuoteQuery = (priceCents: number | null) =>
  queryOptions({
    queryKey: marketKeys.quote(priceCents ?? 0),
    queryFn: ({ signal }) => api.post('/api/market/quote', { body: { priceCents: priceCents ?? 0 }, signal }),
    enabled: priceCents !== null && priceCents > 0,
    staleTime: 30_000,
    retry: false,
  });

/**
 * The seller's active listing of one vault copy, or null. The API has no lookup by copy, so this
 * reads the seller's active listings (100 a page) until it finds it.
 */
export const listingOfCopyQuery = (ownedCardId: string) =>
  queryOptions({
    queryKey: ['market', 'copy', ownedCardId] as const,
    queryFn: async ({ signal }): Promise<MarketListing | null> => {
      for (let page = 1; page <= 10; page++) {
        const r: MarketListingPage = await api.get('/api/market/mine', { query: { state: 'active', page, pageSize: 100 }, signal });
        const hit = r.items.find((l) => l.ownedCardId === ownedCardId);
        if (hit) return hit;
        if (page * r.pageSize >= r.total) break;
      }
      return null;
    },
  });

function afterListingChange(qc: QueryClient, listing?: MarketListing) {
  if (listing) qc.setQueryData(marketKeys.listing(listing.id), listing);
  return Promise.all([qc.invalidateQueries({ queryKey: marketKeys.all }), qc.invalidateQueries({ queryKey: COLLECTION_KEY })]);
}

export function useCreateListing() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateListingInput) => api.post('/api/market', { body: input }),
    onSuccess: (l) => afterListingChange(qc, l),
  });
}

export function useUpdatePrice() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, priceCents, confirmFarPrice }: { id: string; priceCents: number; confirmFarPrice?: boolean }) =>
      api.patch('/api/market/{id}', { path: { id }, body: { priceCents, ...(confirmFarPrice ? { confirmFarPrice } : {}) } }),
    onSuccess: (l) => afterListingChange(qc, l),
  });
}

export function useDelist() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete('/api/market/{id}', { path: { id } }),
    onSuccess: (l) => afterListingChange(qc, l),
    onError: () => afterListingChange(qc),
  });
}

export interface BuyInput {
  id: string;
  expectedPriceCents: number;
  expectedVersion: number;
}

/**
 * Buys a listing, with the Idempotency-Key of the user's intent (the confirm dialog's
 * useMoneyAction: a retry of the same purchase reuses it, so the server answers the first result).
 */
export function useBuyListing() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ input, key }: { input: BuyInput; key: string }) =>
      api.post('/api/market/{id}/buy', {
        path: { id: input.id },
        body: { expectedPriceCents: input.expectedPriceCents, expectedVersion: input.expectedVersion },
        idempotencyKey: key,
      }),
    onSuccess: (r) => {
      qc.setQueryData(balanceQuery.queryKey, (old) => (old ? { ...old, balanceCents: r.balanceCents } : old));
      qc.setQueryData(marketKeys.listing(r.listing.id), r.listing);
      return Promise.all([
        qc.invalidateQueries({ queryKey: ['market', 'browse'] }),
        qc.invalidateQueries({ queryKey: COLLECTION_KEY }),
      ]);
    },
  });
}

// ───────────────────────── offers (ADR 0028 part 2) ─────────────────────────

export type OffersQuery = ApiQuery<'/api/market/offers/mine'>;
export type OfferSide = 'made' | 'received';
const OFFER_PATH = { made: '/api/market/offers/mine', received: '/api/market/offers/received' } as const;

export const offersQuery = (side: OfferSide, q: OffersQuery) =>
  queryOptions({
    queryKey: ['market', 'offers', side, q] as const,
    queryFn: ({ signal }) => api.get(OFFER_PATH[side], { query: q, signal }),
    placeholderData: keepPreviousData,
  });

/** The signed-in user's vaulted copies of one card that a card offer could take (found by its name, then matched by id). */
export const copiesOfCardQuery = (card: { cardId: string; name: string }) =>
  queryOptions({
    queryKey: ['collection', 'copies-of', card.cardId] as const,
    queryFn: async ({ signal }) => {
      const r = await api.get('/api/collection', { query: { q: card.name.slice(0, 100), status: 'in_vault', pageSize: 200 }, signal });
      return r.items.filter((c) => c.card.id === card.cardId);
    },
  });

/** Money held or released, a sale made: the balance, the market's lists and the vault change together. */
function afterOfferChange(qc: QueryClient) {
  return Promise.all([
    qc.invalidateQueries({ queryKey: marketKeys.all }),
    qc.invalidateQueries({ queryKey: balanceQuery.queryKey }),
    qc.invalidateQueries({ queryKey: COLLECTION_KEY }),
  ]);
}

/** What an offer is on: one listing, or a card (any holder of a vaulted, unlisted copy may accept). */
export type OfferTarget = { listingId: string; cardId?: never } | { cardId: string; listingId?: never };

export type MakeOfferInput = OfferTarget & { amountCents: number; expiresInHours?: number };

/** An offer on a listing or a card; the Idempotency-Key is the offer dialog's intent (useMoneyAction). */
export function useMakeOffer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ input, key }: { input: MakeOfferInput; key: string }) => {
      const terms = { amountCents: input.amountCents, ...(input.expiresInHours ? { expiresInHours: input.expiresInHours } : {}) };
      return input.listingId !== undefined
        ? api.post('/api/market/{id}/offers', { path: { id: input.listingId }, body: terms, idempotencyKey: key })
        : api.post('/api/market/offers', { body: { cardId: input.cardId, ...terms }, idempotencyKey: key });
    },
    onSuccess: () => afterOfferChange(qc),
  });
}

export function useAcceptOffer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ offerId, ownedCardId, key }: { offerId: string; ownedCardId?: string; key: string }) =>
      api.post('/api/market/offers/{offerId}/accept', { path: { offerId }, body: ownedCardId ? { ownedCardId } : {}, idempotencyKey: key }),
    onSettled: () => afterOfferChange(qc),
  });
}

/** Decline an offer made to you, or withdraw your own: the hold goes back to the buyer. */
export function useCloseOffer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ offerId, action }: { offerId: string; action: 'reject' | 'cancel' }) =>
      action === 'reject'
        ? api.post('/api/market/offers/{offerId}/reject', { path: { offerId } })
        : api.post('/api/market/offers/{offerId}/cancel', { path: { offerId } }),
    onSettled: () => afterOfferChange(qc),
  });
}

export function useCounterOffer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ offerId, amountCents }: { offerId: string; amountCents: number }) =>
      api.post('/api/market/offers/{offerId}/counter', { path: { offerId }, body: { amountCents } }),
    onSettled: () => afterOfferChange(qc),
  });
}

// ───────────────────────── trade binders and swaps (ADR 0032) ─────────────────────────

export const binderKeys = {
  copy: (ownedCardId: string) => ['market', 'binder', 'copy', ownedCardId] as const,
  ofCard: (cardId: string) => ['market', 'binder', 'card', cardId] as const,
};

/** Whether one of the user's copies is in their trade binder (a list of at most one). */
export const binderCopyQuery = (ownedCardId: string) =>
  queryOptions({
    queryKey: binderKeys.copy(ownedCardId),
    queryFn: ({ signal }) => api.get('/api/market/binder', { query: { ownedCardId, pageSize: 1 }, signal }),
  });

/** Other collectors' copies of one card open to trade. */
export const cardTradersQuery = (cardId: string) =>
  queryOptions({
    queryKey: binderKeys.ofCard(cardId),
    queryFn: ({ signal }) => api.get('/api/market/binders', { query: { cardId, pageSize: 24 }, signal }),
  });

/** The signed-in user's vault copies a swap may give: in the vault, unlisted (first 200, by name when searched). */
export const swappableCopiesQuery = (q: string) =>
  queryOptions({
    queryKey: ['collection', 'swappable', q] as const,
    queryFn: ({ signal }) => api.get('/api/collection', { query: { status: 'in_vault', pageSize: 200, ...(q ? { q: q.slice(0, 100) } : {}) }, signal }),
    placeholderData: keepPreviousData,
  });

/** Open a copy to trade, or take it out of the binder. */
export function useBinderToggle() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ ownedCardId, open }: { ownedCardId: string; open: boolean }) =>
      open
        ? api.put('/api/market/binder/{ownedCardId}', { path: { ownedCardId } }).then(() => undefined)
        : api.delete('/api/market/binder/{ownedCardId}', { path: { ownedCardId } }).then(() => undefined),
    onSettled: () => qc.invalidateQueries({ queryKey: ['market', 'binder'] }),
  });
}

export type SwapsQuery = ApiQuery<'/api/market/swaps/mine'>;
const SWAP_PATH = { made: '/api/market/swaps/mine', received: '/api/market/swaps/received' } as const;

export const swapsQuery = (side: OfferSide, q: SwapsQuery) =>
  queryOptions({
    queryKey: ['market', 'swaps', side, q] as const,
    queryFn: ({ signal }) => api.get(SWAP_PATH[side], { query: q, signal }),
    placeholderData: keepPreviousData,
  });

export interface ProposeSwapInput {
  give: string[];
  want: string[];
  cashCents: number;
  expiresInHours?: number;
}

/** A swap proposal; the Idempotency-Key is the dialog's intent (useMoneyAction): cash is held once. */
export function useProposeSwap() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ input, key }: { input: ProposeSwapInput; key: string }) => api.post('/api/market/swaps', { body: input, idempotencyKey: key }),
    onSuccess: () => afterOfferChange(qc),
  });
}

export function useAcceptSwap() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ swapId, key }: { swapId: string; key: string }) => api.post('/api/market/swaps/{swapId}/accept', { path: { swapId }, idempotencyKey: key }),
    onSettled: () => afterOfferChange(qc),
  });
}

/** Decline a swap proposed to you, or withdraw your own: any held cash goes back to the proposer. */
export function useCloseSwap() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ swapId, action }: { swapId: string; action: 'decline' | 'cancel' }) =>
      action === 'decline'
        ? api.post('/api/market/swaps/{swapId}/decline', { path: { swapId } })
        : api.post('/api/market/swaps/{swapId}/cancel', { path: { swapId } }),
    onSettled: () => afterOfferChange(qc),
  });
}
