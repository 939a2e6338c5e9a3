import { Link } from '@tanstack/react-router';
import type { CardPackOdds } from '@shared/contracts/shop';
import { Money, Skeleton, cn } from '@web/components/ui';
import { chanceText, plural } from '@web/lib/format';

type Packs = CardPackOdds['items'];

/**
 * Where a wanted card can be pulled: the live pack most likely to give it, with its price and the
 * chance, and how many other packs can. A card no pack gives says so, rather than leaving the
 * collector to search the shop.
 */
export function WhereToPull({ packs, pending, className }: { packs: Packs | undefined; pending: boolean; className?: string }) {
  if (pending) return <Skeleton className={cn('h-4 w-3/4', className)} />;
  if (!packs) return null;
  if (!packs.length) return <p className={cn('text-xs text-zinc-400', className)}>No pack on sale gives it right now.</p>;
  const best = packs.reduce((a, b) => (b.expectedPerPack > a.expectedPerPack ? b : a));
  const others = packs.length - 1;
  return (
    <p className={cn('text-xs text-zinc-300', className)}>
      In{' '}
      <Link to="/shop/$id" params={{ id: best.productId }} className="font-medium text-violet-300 underline underline-offset-2">
        {best.productName}
      </Link>{' '}
      (<Money cents={best.priceCents} />), {chanceText(best.expectedPerPack)}
      {others > 0 ? `, and ${plural(others, 'other pack')}` : ''}.
    </p>
  );
}
