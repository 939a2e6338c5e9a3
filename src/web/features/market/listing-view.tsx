import { lazy, Suspense, useEffect, useState } from 'react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ArrowLeft, CheckCircle2 } from 'lucide-react';
import { GRADING_COMPANY_NAME } from '@shared/contracts/grading';
import type { MarketPurchase } from '@shared/contracts/market';
import { Badge, Button, GradeBadge, Money, Notice, Skeleton, SkeletonText, buttonClasses } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { marketListingQuery } from './api';
import { useMarketLiveUpdates } from './live';
import { gradingOf, ListingArt, StateBadge } from './parts';

export function prefetchListing(queryClient: QueryClient, id: string) {
  return queryClient.prefetchQuery(marketListingQuery(id));
}

// Buying (its confirm dialog, Radix's dialog code, the money action) loads for signed-in buyers
// only, never for a visitor's first page.
const loadBuy = () => import('./buy');
const BuyNow = lazy(() => loadBuy().then((m) => ({ default: m.BuyNow })));
const loadOffer = () => import('./offers');
const MakeOffer = lazy(() => loadOffer().then((m) => ({ default: m.MakeOffer })));

const back = (
  <Link to="/market" className="mb-4 inline-flex items-center gap-1.5 text-sm text-zinc-300 underline-offset-4 hover:text-white hover:underline">
    <ArrowLeft aria-hidden="true" className="size-4" />
    Back to the market
  </Link>
);

/**
 * /market/{id}: one listing, and buy now. `viewer` is who is signed in (undefined while that is
 * still being asked, null for a visitor): the seller sees their own terms instead of a buy button.
 */
export function ListingView({ id, viewer }: { id: string; viewer: { id: string } | null | undefined }) {
  useMarketLiveUpdates();
  const q = useQuery(marketListingQuery(id));
  const [bought, setBought] = useState<MarketPurchase | null>(null);
  const l = q.data;
  const signedIn = Boolean(viewer);
  useEffect(() => {
    if (signedIn) {
      void loadBuy();
      void loadOffer();
    }
  }, [signedIn]);

  if (q.isPending) {
    return (
      <div>
        {back}
        <div role="status" aria-label="Loading the listing" className="grid gap-8 md:grid-cols-[minmax(0,20rem)_minmax(0,1fr)]">
          <Skeleton className="mx-auto aspect-[5/7] w-64 rounded-xl md:w-full" />
          <div className="space-y-4">
            <h1 className="sr-only">Listing</h1>
            <Skeleton className="h-9 w-2/3" />
            <SkeletonText lines={4} label="Loading the listing" />
          </div>
        </div>
      </div>
    );
  }
  if (q.isError || !l) {
    const gone = q.error instanceof ApiClientError && q.error.status === 404;
    return (
      <div>
        {back}
        <h1 className="mb-4 text-2xl font-bold text-white">{gone ? 'Listing not found' : 'Listing'}</h1>
        <Notice
          tone={gone ? 'warning' : 'danger'}
          title={gone ? 'This listing is not on the market' : 'We could not load this listing'}
          action={
            gone ? undefined : (
              <Button variant="secondary" size="sm" onClick={() => void q.refetch()}>
                Try again
              </Button>
            )
          }
        >
          {gone ? 'It may have sold, been delisted or expired. Other collectors may be selling the same card: ' : `${q.error?.message ?? ''} `}
          <Link to="/market" className="font-semibold text-white underline underline-offset-4">
            browse the market
          </Link>
          .
        </Notice>
      </div>
    );
  }

  const grading = gradingOf(l);
  const mine = viewer ? viewer.id === l.sellerId : false;
  return (
    <div>
      {back}
      <div className="grid gap-8 md:grid-cols-[minmax(0,20rem)_minmax(0,1fr)]">
        <div className="mx-auto w-64 md:w-full">
          <ListingArt listing={l} size="lg" priority />
        </div>
        <div className="min-w-0 space-y-5">
          <div>
            <p className="text-xs font-semibold tracking-widest text-violet-300 uppercase">Market listing</p>
            <h1 className="mt-1 text-3xl font-bold break-words text-white">{l.name}</h1>
            <div className="mt-3 flex flex-wrap items-center gap-2">
              <StateBadge state={l.state} />
              <Badge tone="violet">{l.className}</Badge>
              {grading ? <GradeBadge grading={grading} size="md" /> : <Badge>Raw</Badge>}
            </div>
          </div>
          <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-6 gap-y-2 text-sm break-words">
            <dt className="text-zinc-400">Set</dt>
            <dd className="text-zinc-100">
              {l.setName} #{l.number}
            </dd>
            <dt className="text-zinc-400">Condition</dt>
            <dd className="text-zinc-100">
              {grading ? `Graded by ${GRADING_COMPANY_NAME[grading.company]}, grade ${grading.grade}` : 'Raw (ungraded), kept in the vault'}
            </dd>
            <dt className="text-zinc-400">Seller</dt>
            <dd className="text-zinc-100">{mine ? 'You' : (l.sellerUsername ?? 'A collector')}</dd>
            <dt className="text-zinc-400">Market value</dt>
            <dd className="text-zinc-100">
              <Money cents={l.valueCents} />
            </dd>
          </dl>
          <div className="rounded-2xl border border-white/10 bg-surface/70 p-5">
            <dl>
              <dt className="text-sm text-zinc-300">Price</dt>
              <dd className="text-3xl font-bold text-white">
                <Money cents={l.priceCents} />
              </dd>
            </dl>
            {mine ? (
              <p className="mt-1 text-sm text-zinc-300">
                Fee <Money cents={l.feeCents} />; you receive <Money cents={l.sellerReceivesCents} className="font-semibold text-emerald-300" /> when it sells.
              </p>
            ) : (
              <p className="mt-1 text-sm text-zinc-300">What you pay, nothing more: the marketplace fee comes out of the seller&apos;s share.</p>
            )}
            <div className="mt-4">
              {bought ? (
                <Notice tone="success" title="It is yours">
                  <span className="inline-flex items-center gap-1.5">
                    <CheckCircle2 aria-hidden="true" className="size-4" />
                    {l.name} is in your vault. Your balance is now <Money cents={bought.balanceCents} />.
                  </span>{' '}
                  <Link to="/collect" search={{ card: bought.ownedCardId }} className="font-semibold text-white underline underline-offset-4">
                    See it in your vault
                  </Link>
                </Notice>
              ) : l.state !== 'active' ? (
                <Notice tone="warning" title={l.state === 'sold' ? 'Sold' : 'No longer for sale'}>
                  {l.state === 'sold' ? 'Someone bought this card.' : `This listing was ${l.state}.`}{' '}
                  <Link to="/market" className="font-semibold text-white underline underline-offset-4">
                    Find another listing
                  </Link>
                  .
                </Notice>
              ) : mine ? (
                <p className="text-sm text-zinc-300">
                  This is your listing. Change its price or delist it on{' '}
                  <Link to="/profile/market" className="font-semibold text-white underline underline-offset-4">
                    your market page
                  </Link>
                  .
                </p>
              ) : viewer === null ? (
                <Link to="/sign-in" search={{ redirect: `/market/${l.id}` }} className={buttonClasses({ size: 'lg' })}>
                  Sign in to buy
                </Link>
              ) : viewer === undefined ? (
                <Skeleton className="h-11 w-48" />
              ) : (
                <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-start">
                  <Suspense fallback={<Skeleton className="h-11 w-48" />}>
                    <BuyNow listing={l} onBought={setBought} />
                  </Suspense>
                  <div>
                    <Suspense fallback={<Skeleton className="h-11 w-40" />}>
                      <MakeOffer listing={l} />
                    </Suspense>
                  </div>
                </div>
              )}
            </div>
          </div>
        </div>
      </div>
    </div>
  );
}
