import type { QueryClient } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { MarketBrowse, prefetchMarket } from '@web/features/market/browse';

export function prefetch(queryClient: QueryClient, search: Record<string, unknown>) {
  return prefetchMarket(queryClient, search);
}
/** The listings are the page: draw them with the first paint when their data is already here. */
export const firstPaintWithData = true;

/** /market: collectors' listings, filtered and sorted from the URL. */
export default function MarketPage() {
  const search = useSearch({ from: '/chrome/site/market' });
  return <MarketBrowse search={search} />;
}
