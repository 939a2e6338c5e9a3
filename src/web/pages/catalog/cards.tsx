import { CardActionProvider } from '@web/components/card-action';
import { useSession } from '@web/features/auth/session';
import { PublicCatalog } from '@web/features/catalog/public-catalog';
import { useWishlistHearts } from '@web/features/collection/wishlist-heart';

export { prefetchPublicCatalog as prefetch } from '@web/features/catalog/public-catalog';
/** The grid of cards is the page: draw it with the first paint when its data is already here. */
export const firstPaintWithData = true;

export default function CardsPage() {
  const { data: me } = useSession();
  const hearts = useWishlistHearts(Boolean(me?.user));
  return (
    <CardActionProvider value={hearts}>
      <PublicCatalog />
    </CardActionProvider>
  );
}
