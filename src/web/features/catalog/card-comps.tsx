import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { CardOffer } from '@web/components/card-action';
import { Money, Skeleton } from '@web/components/ui';
import { formatDate } from '@web/lib/format';
import { cardCompsQuery } from './api';
import { LazyValueChart } from './lazy-value-chart';

const heading = 'mb-2 text-xs font-semibold tracking-widest text-zinc-400 uppercase';
const link = 'text-violet-300 underline underline-offset-2 hover:text-violet-200';

/** How many of the recent sales the dialog lists (the chart plots all the comps carry). */
const LISTED_SALES = 5;

/**
 * What a copy of this card goes for, each figure with its source: collectors' recent sales and
 * the lowest listing on the market, what the shop pays back for it now, and the price history
 * (the shop's value as a line, market sales as dots).
 */
export function CardComps({ cardId, name }: { cardId: string; name: string }) {
  const q = useQuery(cardCompsQuery(cardId));
  const c = q.data;
  return (
    <>
      <section aria-labelledby="comps-title" className="mt-6 min-w-0">
        <h3 id="comps-title" className={heading}>
          What it goes for
        </h3>
        {q.isPending ? (
          <Skeleton className="h-20 w-full" />
        ) : q.isError || !c ? (
          <p className="text-sm text-zinc-400">Market prices could not be loaded. Try again in a moment.</p>
        ) : (
          <div className="grid gap-4 sm:grid-cols-3">
            <dl className="rounded-xl border border-white/10 bg-white/[0.03] p-3 text-sm">
              <dt className="text-zinc-400">Lowest listing (collectors)</dt>
              <dd className="mt-1">
                {c.lowestListing ? (
                  <>
                    <Link to="/market/$id" params={{ id: c.lowestListing.id }} className="text-lg font-semibold text-white underline-offset-4 hover:underline">
                      <Money cents={c.lowestListing.priceCents} />
                    </Link>
                    <span className="block text-xs text-zinc-400">
                      <Link to="/market" search={{ q: name }} className={link}>
                        {c.activeListings === 1 ? '1 listing' : `${c.activeListings} listings`} on the market
                      </Link>
                    </span>
                  </>
                ) : (
                  <span className="text-zinc-300">Nobody is selling one right now.</span>
                )}
              </dd>
            </dl>
            <dl className="rounded-xl border border-white/10 bg-white/[0.03] p-3 text-sm">
              <dt className="text-zinc-400">Last sale (collectors)</dt>
              <dd className="mt-1">
                {c.sales[0] ? (
                  <>
                    <Money cents={c.sales[0].priceCents} className="text-lg font-semibold text-white" />
                    <span className="block text-xs text-zinc-400">{formatDate(c.sales[0].soldAt)}</span>
                  </>
                ) : (
                  <span className="text-zinc-300">No sales on the market in the last year.</span>
                )}
              </dd>
            </dl>
            <dl className="rounded-xl border border-white/10 bg-white/[0.03] p-3 text-sm">
              <dt className="text-zinc-400">The shop buys it back for</dt>
              <dd className="mt-1">
                <Money cents={c.buyback.amountCents} className="text-lg font-semibold text-white" />
                <span className="block text-xs text-zinc-400">
                  {(c.buyback.rateBp / 100).toString()}% of its value of <Money cents={c.valueCents} />, at once
                </span>
              </dd>
            </dl>
          </div>
        )}
        {c?.sales.length ? (
          <div className="mt-3">
            <h4 className="text-sm font-medium text-zinc-200">Recent sales between collectors</h4>
            <ul className="mt-1 divide-y divide-white/10 text-sm">
              {c.sales.slice(0, LISTED_SALES).map((s, i) => (
                <li key={`${s.soldAt}-${i}`} className="flex justify-between gap-4 py-1.5">
                  <span className="text-zinc-300">
                    {formatDate(s.soldAt)} · {s.via === 'listing' ? 'a listing' : 'an offer on the card'}
                  </span>
                  <Money cents={s.priceCents} className="font-medium text-white tabular-nums" />
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <CardOffer card={{ id: cardId, name }} className="mt-3" />
        {c ? (
          <p className="mt-2 text-xs text-zinc-400">
            {c.reference.basis === 'sales'
              ? `A new listing far from ${c.reference.sales === 1 ? 'the last sale' : `the middle of the last ${c.reference.sales} sales`} asks its seller to confirm the price.`
              : 'Until the card has three sales in 90 days, listings are compared with the shop’s value.'}
          </p>
        ) : null}
      </section>
      <section aria-labelledby="price-history-title" className="mt-6 min-w-0">
        <h3 id="price-history-title" className={heading}>
          Price history
        </h3>
        <LazyValueChart cardId={cardId} name={name} sales={c?.sales} />
      </section>
    </>
  );
}
