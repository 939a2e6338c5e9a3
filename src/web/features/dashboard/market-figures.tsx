import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Money, Notice, Skeleton } from '@web/components/ui';
import { plural } from '@web/lib/format';
import { marketFiguresQuery } from './api';
import { loadErrorText } from './load-error';

/**
 * The marketplace over the dashboard's period: what collectors traded between themselves (volume)
 * and the house's fee revenue from it. Not part of the shop's revenue above: the card changed
 * hands between collectors, and only the fee is the house's.
 */
export function MarketFigures({ range }: { range: { from: string; to: string } }) {
  const q = useQuery(marketFiguresQuery(range));
  if (q.isError && !q.data) {
    return (
      <Notice tone="warning" title="The marketplace figures could not load">
        {loadErrorText(q.error)}
      </Notice>
    );
  }
  const d = q.data;
  if (!d) return <Skeleton className="h-24 w-full" />;
  const cell = 'rounded-2xl border border-white/10 bg-surface/70 p-4';
  return (
    <div className="space-y-2">
      <dl className="grid gap-3 sm:grid-cols-3">
        <div className={cell}>
          <dt className="text-sm text-zinc-400">Marketplace volume</dt>
          <dd className="mt-1 text-2xl font-semibold text-white tabular-nums">
            <Money cents={d.volumeCents} />
          </dd>
          <dd className="text-xs text-zinc-400">{plural(d.sales, 'sale')} between collectors</dd>
        </div>
        <div className={cell}>
          <dt className="text-sm text-zinc-400">Marketplace fee revenue</dt>
          <dd className="mt-1 text-2xl font-semibold text-white tabular-nums">
            <Money cents={d.feesCents} />
          </dd>
          <dd className="text-xs text-zinc-400">What the house kept from those sales</dd>
        </div>
        <div className={cell}>
          <dt className="text-sm text-zinc-400">On the market now</dt>
          <dd className="mt-1 text-2xl font-semibold text-white tabular-nums">{plural(d.activeListings, 'listing')}</dd>
          <dd className="text-xs text-zinc-400">
            {plural(d.openOffers, 'open offer')}, <Money cents={d.heldCents} /> held
          </dd>
        </div>
      </dl>
      <Link to="/admin/market" className="text-sm text-violet-300 underline underline-offset-4">
        Listings and trades
      </Link>
    </div>
  );
}
