import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Heart } from 'lucide-react';
import { Badge, EmptyState, Money, Notice, Skeleton, buttonClasses } from '@web/components/ui';
import { wishlistQuery } from './api';
import { CollectionCard } from './card-renderer';
import { useWishlistHearts } from './wishlist-heart';

/** /collect, Wishlist: the cards the user hearted, newest first. */
export function WishlistPanel() {
  const q = useQuery(wishlistQuery());
  const heart = useWishlistHearts(true, 'absolute top-2 right-2');
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
        <li key={i.card.id} className="relative">
          <CollectionCard card={i.card} refs={q.data.refs} size="sm" />
          {heart(i.card)}
          <p className="mt-2 truncate text-sm font-medium text-white">{i.card.name}</p>
          <p className="flex flex-wrap items-center gap-2 text-xs text-zinc-400">
            <span>
              {i.card.setName} · #{i.card.number}
            </span>
            <Money cents={i.card.valueCents} />
            {i.owned ? <Badge tone="success">In your vault</Badge> : null}
          </p>
        </li>
      ))}
    </ul>
  );
}
