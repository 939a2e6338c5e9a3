import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LookRefs } from '@shared/contracts/catalog';
import { lookFromRefs } from '@shared/contracts/catalog-look';
import type {
  OpenInput,
  Opening,
  PurchaseInput,
} from '@shared/contracts/shop';
import { api } from '@web/lib/api';
import { MAX_PURCHASE_QUANTITY } from '@shared/shop-limits';
import { rankTiers, type RevealPack } from './reveal/build-up';

/** Query keys of the shop (the realtime handlers and mutations invalidate by these prefixes). */
export const shopKeys = {
  all: ['shop'] as const,
  products: () => ['shop', 'products'] as const,
  product: (id: string) => ['shop', 'products', id] as const,
  inventory: () => ['shop', 'inventory'] as const,
  openings: (page: number) => ['shop', 'openings', page] as const,
  replay: (ids: string[]) => ['shop', 'replay', ids.join(',')] as const,
  topPulls: (window: string, limit: number) => ['top-pulls', window, limit] as const,
  classes: () => ['catalog', 'classes', 'public'] as const,
};

export const productsQuery = queryOptions({
  queryKey: shopKeys.products(),
  queryFn: () => api.get('/api/shop/products'),
  staleTime: 30_000,
});

export const productQuery = (id: string) =>
  queryOptions({
    queryKey: shopKeys.product(id),
    queryFn: () => api.get('/api/shop/products/{id}', { path: { id } }),
    staleTime: 15_000,
  });

export const inventoryQuery = queryOptions({
  queryKey: shopKeys.inventory(),
  queryFn: () => api.get('/api/shop/inventory'),
});

export const openingsQuery = (page = 1, pageSize = 10) =>
  queryOptions({
    queryKey: [...shopKeys.openings(page), pageSize],
    queryFn: () =>
      api.get('/api/shop/openings', { query: { page, pageSize } }),
    placeholderData: keepPreviousData,
  });

export type TopPullWindow = '24h' | '7d' | 'all';
export const topPullsQuery = (window: TopPullWindow, limit = 50) =>
  queryOptions({
    queryKey: shopKeys.topPulls(window, limit),
    queryFn: () => api.get('/api/top-pulls', { query: { window, limit } }),
    staleTime: 15_000,
    placeholderData: keepPreviousData,
  });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The openings a page is revealing, from its `?opening=a,b` (issue 41): the reveal lives in the
 * URL, so a refresh or Back and Forward replays it instead of losing it.
 */
export function openingIdsFrom(search: { opening?: unknown }): string[] {
  const raw = typeof search.opening === 'string' ? search.opening : '';
  const ids = [...new Set(raw.split(',').map((x) => x.trim()).filter((x) => UUID.test(x)))];
  return ids.slice(0, MAX_PURCHASE_QUANTITY);
}

/** The `opening` search value naming these openings. */
export const openingSearch = (result: { openings: Array<{ id: string }> }) => result.openings.map((o) => o.id).join(',');

/** Your own openings by id, to replay their reveal; they never change once settled. */
export const openingReplayQuery = (ids: string[]) =>
  queryOptions({
    queryKey: shopKeys.replay(ids),
    queryFn: () => api.get('/api/shop/openings/replay', { query: { ids: ids.join(',') } }),
    staleTime: Infinity,
    retry: false,
  });

/** Every class (not only those in a response), so rarity ranks the same on every reveal. */
export const classesQuery = queryOptions({
  queryKey: shopKeys.classes(),
  queryFn: () => api.get('/api/catalog/classes'),
  select: (d) => d.classes,
  staleTime: 5 * 60_000,
});

export function useClassTiers() {
  const { data } = useQuery(classesQuery);
  return data;
}

/** After money moves: balance, inventory, product stock/sold-out state and history all change. */
export function useInvalidateAfterPurchase() {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: shopKeys.all });
    void qc.invalidateQueries({ queryKey: ['wallet'] });
    void qc.invalidateQueries({ queryKey: ['top-pulls'] });
  };
}

/**
 * A refusal (too little credit after the balance moved elsewhere, sold out) means the page's view
 * is stale: refetch the balance so the buy panel offers the top-up of the real shortfall.
 */
function useRefreshAfterRefusal() {
  const qc = useQueryClient();
  return () => void qc.invalidateQueries({ queryKey: ['wallet'] });
}

export function usePurchase() {
  const done = useInvalidateAfterPurchase();
  const refresh = useRefreshAfterRefusal();
  return useMutation({
    mutationFn: ({ input, key }: { input: PurchaseInput; key: string }) =>
      api.post('/api/shop/purchases', { body: input, idempotencyKey: key }),
    onSuccess: done,
    onError: refresh,
  });
}

export function useOpen() {
  const done = useInvalidateAfterPurchase();
  const refresh = useRefreshAfterRefusal();
  return useMutation({
    mutationFn: ({ input, key }: { input: OpenInput; key: string }) =>
      api.post('/api/shop/open', { body: input, idempotencyKey: key }),
    onSuccess: done,
    onError: refresh,
  });
}

/**
 * Turns settled openings into what the reveal shows. `classes` (all classes) ranks rarity; the
 * response's own refs are the fallback. `prices` maps product id → price paid per pack.
 */
export function toRevealPacks(
  result: { openings: Opening[]; refs: LookRefs },
  opts: { classes?: Array<{ id: string; sortOrder: number }>; prices?: Record<string, number>; images?: Record<string, string | null> } = {},
): RevealPack[] {
  const classes = opts.classes?.length
    ? opts.classes
    : result.refs.classes.length
      ? result.refs.classes
      : result.openings.flatMap((o) => o.cards.map((c) => ({ id: c.classId, sortOrder: c.classSortOrder })));
  const tiers = rankTiers(dedupe(classes));
  return result.openings.map((o) => ({
    key: o.id,
    productId: o.productId,
    productName: o.productName,
    imageKey: opts.images?.[o.productId] ?? null,
    priceCents: opts.prices?.[o.productId] ?? 0,
    cards: o.cards.map((c) => {
      const look = lookFromRefs(c, result.refs);
      return {
        key: c.ownedCardId,
        slot: c.slot,
        tier: tiers.get(c.classId) ?? 0,
        look: { ...look, className: look.className || c.className, classColour: look.className ? look.classColour : c.classColour },
      };
    }),
  }));
}

function dedupe<T extends { id: string }>(list: T[]): T[] {
  const seen = new Map<string, T>();
  for (const x of list) if (!seen.has(x.id)) seen.set(x.id, x);
  return [...seen.values()];
}

/** The upload key inside a product image URL (/api/uploads/<key>-full.webp), for the pack art. */
export function imageKeyFromUrl(url: string | null | undefined): string | null {
  const m = url ? /\/api\/uploads\/([a-f0-9]{64})-/.exec(url) : null;
  return m ? m[1]! : null;
}
