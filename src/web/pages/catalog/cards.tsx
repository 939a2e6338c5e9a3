import { lazy, Suspense, useCallback } from 'react';
import { Link } from '@tanstack/react-router';
import { CardActionProvider, CardOfferProvider, type CardActionTarget } from '@web/components/card-action';
import { buttonClasses, Skeleton } from '@web/components/ui';
import { useSession } from '@web/features/auth/session';
import { PublicCatalog } from '@web/features/catalog/public-catalog';
import { useWishlistHearts } from '@web/features/collection/wishlist-heart';

export { prefetchPublicCatalog as prefetch } from '@web/features/catalog/public-catalog';
/** The grid of cards is the page: draw it with the first paint when its data is already here. */
export const firstPaintWithData = true;

// The offer dialog (the market's, with its form code) loads when a card dialog first shows it.
const MakeCardOffer = lazy(() => import('@web/features/market/offers').then((m) => ({ default: m.MakeCardOffer })));
// Who trades the card (the market's binders and swap proposal), loaded the same way.
const CardTraders = lazy(() => import('@web/features/market/swaps').then((m) => ({ default: m.CardTraders })));

export default function CardsPage() {
  const { data: me } = useSession();
  const signedIn = Boolean(me?.user);
  const hearts = useWishlistHearts(signedIn);
  const offer = useCallback(
    (card: CardActionTarget) =>
      signedIn ? (
        <Suspense fallback={<Skeleton className="h-9 w-52" />}>
          <MakeCardOffer card={card} />
          <CardTraders card={card} />
        </Suspense>
      ) : (
        <Link to="/sign-in" search={{ redirect: `/cards?card=${card.id}` }} className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
          Sign in to make an offer on this card
        </Link>
      ),
    [signedIn],
  );
  return (
    <CardActionProvider value={hearts}>
      <CardOfferProvider value={offer}>
        <PublicCatalog />
      </CardOfferProvider>
    </CardActionProvider>
  );
}
