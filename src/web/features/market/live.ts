import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { MarketListing, MarketListingPage, MarketListingState } from '@shared/contracts/market';
import { useRealtimeEvent } from '@web/lib/realtime';
import { marketKeys } from './api';

/**
 * A sale anywhere (`market.listing.sold` on the public topic, ADR 0028), or a listing the back
 * office removed (`market.listing.ended`): open /market pages drop the tile at once and an open
 * /market/{id} shows it ended. The browse pages are marked stale rather than read again on every
 * sale (many viewers, many sales): the next filter, page or visit reads them afresh.
 */
export function useMarketLiveUpdates() {
  const qc = useQueryClient();
  useRealtimeEvent<{ listingId?: string }>('market.listing.sold', (e) => dropListing(qc, e?.listingId, 'sold'));
  useRealtimeEvent<{ listingId?: string; state?: MarketListingState }>('market.listing.ended', (e) => dropListing(qc, e?.listingId, e?.state ?? 'delisted'));
  // An offer of this user's changed (made to them, answered, expired): their offer lists are read
  // again (the balance follows from its own event).
  useRealtimeEvent('market.offer.changed', () => void qc.invalidateQueries({ queryKey: ['market', 'offers'] }));
  // A swap of this user's changed (proposed to them, answered, expired, closed because a card moved).
  useRealtimeEvent('market.swap.changed', () => void qc.invalidateQueries({ queryKey: ['market', 'swaps'] }));
}

function dropListing(qc: QueryClient, id: string | undefined, state: MarketListingState) {
  if (!id) return;
  qc.setQueriesData<MarketListingPage>({ queryKey: ['market', 'browse'] }, (page) => {
    if (!page || !page.items.some((l) => l.id === id)) return page;
    return { ...page, items: page.items.filter((l) => l.id !== id), total: Math.max(0, page.total - 1) };
  });
  qc.setQueryData<MarketListing>(marketKeys.listing(id), (l) => (l && l.state === 'active' ? { ...l, state } : l));
  void qc.invalidateQueries({ queryKey: ['market', 'browse'], refetchType: 'none' });
  // The seller's own lists, when this listing is on one of them.
  const mine = qc.getQueriesData<MarketListingPage>({ queryKey: marketKeys.mineAll });
  if (mine.some(([, page]) => page?.items?.some((l) => l.id === id))) void qc.invalidateQueries({ queryKey: marketKeys.mineAll });
}
