import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Store } from 'lucide-react';
import type { MarketListing, MarketListingState } from '@shared/contracts/market';
import { EmptyState, Money, Pagination, Tabs, TabsContent, TabsList, TabsTrigger } from '@web/components/ui';
import { StatusChips } from '@web/components/ui/list-controls';
import { formatDateTime, plural } from '@web/lib/format';
import { myListingsQuery } from './api';
import { useMarketLiveUpdates } from './live';
import { ListingArt, RowsPending, STATE_LABEL, StateBadge } from './parts';
import { ListingActions } from './vault-actions';
import { OfferList } from './my-offers';
import { SwapList } from './swaps';
import type { MyMarketTab } from './search';

const PAGE_SIZE = 20;
const FILTERS: Array<{ value: '' | MarketListingState; label: string }> = [
  { value: '', label: 'All' },
  { value: 'active', label: STATE_LABEL.active },
  { value: 'sold', label: STATE_LABEL.sold },
  { value: 'delisted', label: STATE_LABEL.delisted },
  { value: 'expired', label: STATE_LABEL.expired },
];

/**
 * /profile/market: both sides of the market. The seller's listings (by state, with edit price and
 * delist) and sales; the offers the user made and those made to them; swaps proposed and received. The tab is in the URL
 * (`?tab=offers-received`), so a notification opens the list it is about.
 */
export function MyMarket({ userId, tab, onTabChange }: { userId: string | null; tab: MyMarketTab; onTabChange: (tab: MyMarketTab) => void }) {
  useMarketLiveUpdates();
  return (
    <Tabs value={tab} onValueChange={(t) => onTabChange(t as MyMarketTab)}>
      {/* Six tabs wrap on a phone rather than hide the last ones off the edge. */}
      <TabsList aria-label="Your market" className="flex-wrap">
        <TabsTrigger value="listings">Your listings</TabsTrigger>
        <TabsTrigger value="sales">Sales history</TabsTrigger>
        <TabsTrigger value="offers-received">Offers received</TabsTrigger>
        <TabsTrigger value="offers-made">Offers made</TabsTrigger>
        <TabsTrigger value="swaps-received">Swaps received</TabsTrigger>
        <TabsTrigger value="swaps-made">Swaps proposed</TabsTrigger>
      </TabsList>
      <TabsContent value="listings">
        <ListingList />
      </TabsContent>
      <TabsContent value="sales">
        <ListingList sales />
      </TabsContent>
      <TabsContent value="offers-received">
        <OfferList side="received" userId={userId} />
      </TabsContent>
      <TabsContent value="offers-made">
        <OfferList side="made" userId={userId} />
      </TabsContent>
      <TabsContent value="swaps-received">
        <SwapList side="received" userId={userId} />
      </TabsContent>
      <TabsContent value="swaps-made">
        <SwapList side="made" userId={userId} />
      </TabsContent>
    </Tabs>
  );
}

function ListingList({ sales = false }: { sales?: boolean }) {
  const [state, setState] = useState<'' | MarketListingState>(sales ? 'sold' : '');
  const [page, setPage] = useState(1);
  const q = useQuery(myListingsQuery({ ...(state ? { state } : {}), page, pageSize: PAGE_SIZE }));
  const data = q.data;
  return (
    <div className="mt-4 space-y-4">
      {sales ? (
        <p className="text-sm text-zinc-300">Cards you sold on the market: what the buyer paid, the fee, and what you received.</p>
      ) : (
        <StatusChips
          label="Filter by state"
          chips={FILTERS}
          value={state}
          onChange={(v) => {
            setState(v as '' | MarketListingState);
            setPage(1);
          }}
        />
      )}
      {!data ? (
        <RowsPending q={q} what="listings" />
      ) : data.items.length === 0 ? (
        <EmptyState
          icon={<Store />}
          title={sales ? 'No sales yet' : state ? `No ${STATE_LABEL[state].toLowerCase()} listings` : 'You have not listed anything yet'}
          description="List a card from your vault: open it there and choose “Sell on the market”."
          action={
            <Link to="/collect" className="text-violet-300 underline underline-offset-4">
              Go to your vault
            </Link>
          }
        />
      ) : (
        <>
          <p className="text-sm text-zinc-400" aria-live="polite">
            {plural(data.total, sales ? 'sale' : 'listing')}
            {q.isFetching ? ' · updating…' : ''}
          </p>
          <ul aria-label={sales ? 'Your sales' : 'Your listings'} className="space-y-3">
            {data.items.map((l) => (
              <ListingRow key={l.id} listing={l} />
            ))}
          </ul>
          <Pagination page={page} pageCount={Math.ceil(data.total / PAGE_SIZE)} onPageChange={setPage} label={sales ? 'Sales pages' : 'Listing pages'} />
        </>
      )}
    </div>
  );
}

function ListingRow({ listing: l }: { listing: MarketListing }) {
  return (
    <li className="flex flex-col gap-3 rounded-2xl border border-white/10 bg-surface/60 p-3 sm:flex-row sm:items-center">
      <div className="flex min-w-0 flex-1 items-center gap-4">
        <div className="w-14 shrink-0">
          <ListingArt listing={l} />
        </div>
        <div className="min-w-0 space-y-1">
          <p className="flex flex-wrap items-center gap-2">
            {l.state === 'active' ? (
              <Link to="/market/$id" params={{ id: l.id }} className="truncate font-medium text-white underline-offset-4 hover:underline">
                {l.name}
              </Link>
            ) : (
              <span className="truncate font-medium text-white">{l.name}</span>
            )}
            <StateBadge state={l.state} />
          </p>
          <p className="text-xs text-zinc-400">
            {l.setName} #{l.number} · listed {formatDateTime(l.createdAt)}
            {l.soldAt ? ` · sold ${formatDateTime(l.soldAt)}` : ''}
            {l.state === 'active' && l.expiresAt ? ` · ends ${formatDateTime(l.expiresAt)}` : ''}
          </p>
          <p className="text-sm text-zinc-200">
            <Money cents={l.priceCents} className="font-semibold text-white" /> · fee <Money cents={l.feeCents} /> ·{' '}
            {l.state === 'sold' ? 'you received' : 'you receive'} <Money cents={l.sellerReceivesCents} className="text-emerald-300" />
          </p>
        </div>
      </div>
      {l.state === 'active' ? (
        <div className="flex shrink-0 flex-wrap gap-2">
          <ListingActions listing={l} size="sm" />
        </div>
      ) : null}
    </li>
  );
}
