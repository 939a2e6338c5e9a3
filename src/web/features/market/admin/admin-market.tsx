import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Ban } from 'lucide-react';
import { MARKET_LISTING_STATES } from '@shared/contracts/market';
import { adminRemoveListingSchema, type AdminMarketListing, type AdminRemoveListingInput } from '@shared/contracts/market-admin';
import {
  Badge,
  Button,
  Dialog,
  EmptyState,
  FormField,
  Money,
  Notice,
  Pagination,
  Skeleton,
  SkeletonText,
  TBody,
  THead,
  Table,
  Tabs,
  TabsContent,
  TabsList,
  TabsTrigger,
  Td,
  Textarea,
  Th,
  Tr,
  toast,
} from '@web/components/ui';
import { SearchBox, StatusChips } from '@web/components/ui/list-controls';
import { applyServerFields, errorText } from '@web/lib/api-errors';
import { formatDateTime, plural } from '@web/lib/format';
import { STATE_LABEL, STATE_TONE } from '../parts';
import { adminListingsQuery, adminSummaryQuery, adminTradesQuery, useRemoveListing } from './api';

const PAGE_SIZE = 25;
const PERIODS = [
  { value: '7', label: 'Last 7 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '90', label: 'Last 90 days' },
] as const;
const dayAgo = (days: number) => new Date(Date.now() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
const userLink = 'text-violet-300 underline-offset-4 hover:underline';

/** /admin/market: the market's figures, every listing (remove with a reason) and every trade. */
export function AdminMarket({ viewerId }: { viewerId: string | null }) {
  const [tab, setTab] = useState('listings');
  return (
    <div className="space-y-6">
      <MarketFigures />
      <Tabs value={tab} onValueChange={setTab}>
        <TabsList aria-label="Marketplace records">
          <TabsTrigger value="listings">Listings</TabsTrigger>
          <TabsTrigger value="trades">Trades</TabsTrigger>
        </TabsList>
        <TabsContent value="listings">
          <Listings viewerId={viewerId} />
        </TabsContent>
        <TabsContent value="trades">
          <Trades />
        </TabsContent>
      </Tabs>
    </div>
  );
}

function MarketFigures() {
  const [days, setDays] = useState('30');
  const q = useQuery(adminSummaryQuery({ from: dayAgo(Number(days)) }));
  const d = q.data;
  const tile = (label: string, value: React.ReactNode, hint?: React.ReactNode) => (
    <div className="rounded-2xl border border-white/10 bg-surface/70 p-4">
      <dt className="text-sm text-zinc-400">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold text-white tabular-nums">{value}</dd>
      {hint ? <dd className="mt-0.5 text-xs text-zinc-400">{hint}</dd> : null}
    </div>
  );
  return (
    <section aria-labelledby="market-figures" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="market-figures" className="text-lg font-semibold text-white">
          The market
        </h2>
        <StatusChips label="Period of the sales figures" chips={PERIODS} value={days} onChange={setDays} />
      </div>
      {q.isError ? (
        <Notice tone="danger" title="We could not load the figures">
          {errorText(q.error)}
        </Notice>
      ) : !d ? (
        <Skeleton className="h-24 w-full" />
      ) : (
        <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          {tile('Volume', <Money cents={d.volumeCents} />, `${plural(d.sales, 'sale')}, ${d.from} to ${d.to}`)}
          {tile('Fee revenue', <Money cents={d.feesCents} />, 'What the house kept from those sales')}
          {tile('Active listings', d.activeListings.toLocaleString('en-US'), <>Listed at <Money cents={d.activeListingsCents} /> in all</>)}
          {tile('Open offers', d.openOffers.toLocaleString('en-US'), <><Money cents={d.heldCents} /> held from buyers</>)}
        </dl>
      )}
    </section>
  );
}

const STATE_CHIPS = [{ value: 'all', label: 'All' }, ...MARKET_LISTING_STATES.map((s) => ({ value: s, label: STATE_LABEL[s] }))];

function Listings({ viewerId }: { viewerId: string | null }) {
  const [state, setState] = useState<'all' | (typeof MARKET_LISTING_STATES)[number]>('active');
  const [card, setCard] = useState('');
  const [seller, setSeller] = useState('');
  const [page, setPage] = useState(1);
  const [removing, setRemoving] = useState<AdminMarketListing | null>(null);
  const q = useQuery(adminListingsQuery({ state, page, pageSize: PAGE_SIZE, ...(card ? { card } : {}), ...(seller ? { seller } : {}) }));
  const data = q.data;
  return (
    <div className="mt-4 space-y-4">
      <div className="flex flex-wrap items-end gap-3">
        <SearchBox label="Card" placeholder="Card name" value={card} onChange={(v) => (setCard(v), setPage(1))} />
        <SearchBox label="Seller" placeholder="Username or email" value={seller} onChange={(v) => (setSeller(v), setPage(1))} />
      </div>
      <StatusChips label="Filter by state" chips={STATE_CHIPS} value={state} onChange={(v) => (setState(v as typeof state), setPage(1))} />
      {q.isError && !data ? (
        <Notice
          tone="danger"
          title="We could not load the listings"
          action={
            <Button size="sm" variant="secondary" onClick={() => void q.refetch()}>
              Try again
            </Button>
          }
        >
          {errorText(q.error)}
        </Notice>
      ) : !data ? (
        <SkeletonText lines={8} label="Loading listings" />
      ) : data.items.length === 0 ? (
        <EmptyState title="No listings match" description="Clear a filter or pick another state." />
      ) : (
        <>
          <Table caption={`Listings (${data.total})`}>
            <THead>
              <Tr>
                <Th>Card</Th>
                <Th>Seller</Th>
                <Th className="text-right">Price</Th>
                <Th>State</Th>
                <Th>Listed</Th>
                <Th className="text-right">Open offers</Th>
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              </Tr>
            </THead>
            <TBody>
              {data.items.map((l) => (
                <Tr key={l.id}>
                  <Td>
                    <Link to="/admin/cards/$id" params={{ id: l.cardId }} className="font-medium text-white hover:underline">
                      {l.name}
                    </Link>
                    <span className="block text-xs text-zinc-400">
                      {l.setName} #{l.number} · value <Money cents={l.valueCents} />
                    </span>
                  </Td>
                  <Td>
                    <Link to="/admin/users/$id" params={{ id: l.sellerId }} className={userLink}>
                      {l.sellerUsername ?? l.sellerId}
                    </Link>
                    {l.sellerEmail ? <span className="block text-xs text-zinc-400">{l.sellerEmail}</span> : null}
                  </Td>
                  <Td className="text-right">
                    <Money cents={l.soldPriceCents ?? l.priceCents} />
                    <span className="block text-xs text-zinc-400">
                      fee <Money cents={l.feeCents} />
                    </span>
                  </Td>
                  <Td>
                    <Badge tone={STATE_TONE[l.state]}>{l.removedReason ? 'Removed' : STATE_LABEL[l.state]}</Badge>
                    {l.removedReason ? <span className="mt-1 block max-w-48 text-xs text-zinc-400">{l.removedReason}</span> : null}
                    {l.buyerId ? (
                      <span className="mt-1 block text-xs text-zinc-400">
                        to{' '}
                        <Link to="/admin/users/$id" params={{ id: l.buyerId }} className={userLink}>
                          {l.buyerUsername ?? l.buyerId}
                        </Link>
                      </span>
                    ) : null}
                  </Td>
                  <Td className="whitespace-nowrap text-sm">{formatDateTime(l.createdAt)}</Td>
                  <Td className="text-right tabular-nums">{l.openOffers}</Td>
                  <Td>
                    {l.state !== 'active' ? null : l.sellerId === viewerId ? (
                      <span className="text-xs text-zinc-400">Your listing: another admin can remove it</span>
                    ) : (
                      <Button size="sm" variant="ghost" onClick={() => setRemoving(l)} aria-label={`Remove the listing of ${l.name} by ${l.sellerUsername ?? 'this seller'}`}>
                        <Ban aria-hidden="true" className="size-4" />
                        Remove
                      </Button>
                    )}
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
          <Pagination page={page} pageCount={Math.ceil(data.total / PAGE_SIZE)} onPageChange={setPage} label="Listing pages" />
        </>
      )}
      {removing ? <RemoveDialog listing={removing} onClose={() => setRemoving(null)} /> : null}
    </div>
  );
}

function RemoveDialog({ listing, onClose }: { listing: AdminMarketListing; onClose: () => void }) {
  const remove = useRemoveListing();
  const [error, setError] = useState<unknown>(null);
  const form = useForm<AdminRemoveListingInput>({ resolver: zodResolver(adminRemoveListingSchema), defaultValues: { reason: '' } });
  const submit = form.handleSubmit(async ({ reason }) => {
    setError(null);
    try {
      await remove.mutateAsync({ id: listing.id, reason });
      toast.success('Listing removed', `${listing.name} is back in the seller's vault, and they were told why.`);
      onClose();
    } catch (err) {
      if (!applyServerFields(err, form.setError, ['reason'])) setError(err);
    }
  });
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && !remove.isPending && onClose()}
      title={`Remove the listing of ${listing.name}?`}
      description={
        <>
          Listed by {listing.sellerUsername ?? 'this seller'} at <Money cents={listing.priceCents} />. The card goes back to their vault,{' '}
          {listing.openOffers ? `${plural(listing.openOffers, 'open offer')} close and their money is released,` : 'no offer is open,'} and the seller is told the
          reason below. It is recorded in the audit log.
        </>
      }
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        <FormField label="Reason (the seller reads it)" error={form.formState.errors.reason?.message} required>
          <Textarea rows={3} {...form.register('reason')} />
        </FormField>
        {error ? (
          <Notice tone="danger" title="The listing was not removed">
            {errorText(error)}
          </Notice>
        ) : null}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={remove.isPending}>
            Keep it
          </Button>
          <Button type="submit" variant="danger" loading={remove.isPending} loadingText="Removing…">
            Remove the listing
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function Trades() {
  const [card, setCard] = useState('');
  const [who, setWho] = useState('');
  const [page, setPage] = useState(1);
  const q = useQuery(adminTradesQuery({ page, pageSize: PAGE_SIZE, ...(card ? { card } : {}), ...(who ? { user: who } : {}) }));
  const data = q.data;
  return (
    <div className="mt-4 space-y-4">
      <div className="flex flex-wrap items-end gap-3">
        <SearchBox label="Card" placeholder="Card name" value={card} onChange={(v) => (setCard(v), setPage(1))} />
        <SearchBox label="Buyer or seller" placeholder="Username or email" value={who} onChange={(v) => (setWho(v), setPage(1))} />
      </div>
      {q.isError && !data ? (
        <Notice tone="danger" title="We could not load the trades">
          {errorText(q.error)}
        </Notice>
      ) : !data ? (
        <SkeletonText lines={8} label="Loading trades" />
      ) : data.items.length === 0 ? (
        <EmptyState title="No trades match" description="Sales between collectors show here: listings bought and card offers accepted." />
      ) : (
        <>
          <Table caption={`Trades (${data.total})`}>
            <THead>
              <Tr>
                <Th>When</Th>
                <Th>Card</Th>
                <Th>How</Th>
                <Th>Seller</Th>
                <Th>Buyer</Th>
                <Th className="text-right">Price</Th>
                <Th className="text-right">Fee</Th>
              </Tr>
            </THead>
            <TBody>
              {data.items.map((x) => (
                <Tr key={`${x.via}:${x.id}`}>
                  <Td className="whitespace-nowrap text-sm">{formatDateTime(x.at)}</Td>
                  <Td>
                    <Link to="/admin/cards/$id" params={{ id: x.cardId }} className="font-medium text-white hover:underline">
                      {x.name}
                    </Link>
                  </Td>
                  <Td className="text-sm text-zinc-300">{x.via === 'listing' ? 'Listing' : x.via === 'card_offer' ? 'Card offer' : `Swap (${x.cards} cards)`}</Td>
                  <Td>
                    {x.sellerId ? (
                      <Link to="/admin/users/$id" params={{ id: x.sellerId }} className={userLink}>
                        {x.sellerUsername ?? x.sellerId}
                      </Link>
                    ) : (
                      '—'
                    )}
                  </Td>
                  <Td>
                    {x.buyerId ? (
                      <Link to="/admin/users/$id" params={{ id: x.buyerId }} className={userLink}>
                        {x.buyerUsername ?? x.buyerId}
                      </Link>
                    ) : (
                      'a deleted account'
                    )}
                  </Td>
                  <Td className="text-right">
                    <Money cents={x.priceCents} />
                  </Td>
                  <Td className="text-right">
                    <Money cents={x.feeCents} />
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
          <Pagination page={page} pageCount={Math.ceil(data.total / PAGE_SIZE)} onPageChange={setPage} label="Trade pages" />
        </>
      )}
    </div>
  );
}
