import type { QueryClient } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useSession } from '@web/features/auth/session';
import { ListingView, prefetchListing } from '@web/features/market/listing-view';

export function prefetch(queryClient: QueryClient, _search: Record<string, unknown>, params: Record<string, string>) {
  return params.id ? prefetchListing(queryClient, params.id) : undefined;
}

/** /market/{id}: one listing and buy now. */
export default function MarketListingPage() {
  const { id } = useParams({ from: '/chrome/site/market/$id' });
  const session = useSession();
  const viewer = session.isPending ? undefined : session.data ? { id: session.data.user.id } : null;
  return <ListingView id={id} viewer={viewer} />;
}
