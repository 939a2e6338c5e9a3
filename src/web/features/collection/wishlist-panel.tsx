import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Heart } from 'lucide-react';
import { Badge, EmptyState, Money, Notice, Skeleton, buttonClasses } from '@web/components/ui';
import { cardOddsQuery, wishlistQuery } from './api';
import { CollectionCard } from './card-renderer';
import { useWishlistHearts } from './wishlist-heart';
import { WhereToPull } from './where-to-pull';

/** /collect, Wishlist: the cards the user hearted, newest first. */
export function WishlistPanel() {
  const q = useQuery(wishlistQuery());
  // Beside the card's caption, not on the art: there it covered the rarity badge.
  const heart = useWishlistHearts(true, 'shrink-0');
  const odds = useQuery(cardOddsQuery(q.data?.cardIds ?? []));
  if (q.isPending) {
    return (
      <div role="status" aria-label="Loading your wishlist" className="grid grid-cols-2 gap-4 sm:grid-cols-3 md:grid-cols-4 xl:grid-cols-6">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="aspect-[5/7] w-full rounded-xl" />
        ))}
      </div>
    );
  }
  if (q.isError) return <Notice tone="danger" title="Your wishlist could not be loaded">Reload the page to try again.</Notice>;
  if (!q.data.items.length) {
    return (
      <EmptyState
        icon={<Heart />}
        title="Your wishlist is empty"
        description="Tap the heart on any card: we tell you when one you want can be pulled from a pack on sale."
        action={
          <Link to="/cards" className={buttonClasses({ variant: 'secondary' })}>
            Browse cards
          </Link>
        }
      />
    );
  }
  return (
    <ul aria-label="Wishlist" className="grid grid-cols-2 gap-x-4 gap-y-6 sm:grid-cols-3 md:grid-cols-4 xl:grid-cols-6">
      {q.data.items.map((i) => (
        <li key={i.card.id} className="min-w-0">
          {/* The tile opens the card: its value, history and every pack that gives it (/cards). */}
          <Link
            to="/cards"
            search={{ card: i.card.id }}
            className="block rounded-xl focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-violet-400"
          >
            <CollectionCard card={i.card} refs={q.data.refs} size="sm" />
            <span className="sr-only">. Open the card</span>
          </Link>
          <div className="mt-2 flex items-start justify-between gap-2">
            <div className="min-w-0">
              <p className="truncate text-sm font-medium text-white">{i.card.name}</p>
              <p className="flex flex-wrap items-center gap-x-2 text-xs text-zinc-400">
                <span>
                  {i.card.setName} · #{i.card.number}
                </span>
                <Money cents={i.card.valueCents} />
              </p>
            </div>
            {heart(i.card)}
          </div>
          {i.owned ? <Badge tone="success" className="mt-1">In your vault</Badge> : null}
          <WhereToPull packs={odds.data?.[i.card.id]} pending={odds.isPending} className="mt-1" />
        </li>
      ))}
    </ul>
  );
}
