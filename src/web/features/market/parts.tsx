import { Fragment, type ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { imageUrl } from '@shared/contracts/catalog-look';
import { GRADING_COMPANIES, type Grading, type GradingCompany } from '@shared/contracts/grading';
import type { MarketListing, MarketListingState } from '@shared/contracts/market';
import { Badge, Button, GradeBadge, Money, Notice, Pagination, Skeleton, cn, type BadgeTone } from '@web/components/ui';
import { StatusChips } from '@web/components/ui/list-controls';
import { errorText } from '@web/lib/api-errors';
import { plural } from '@web/lib/format';

/** The slab of a listed copy, when it is graded (the listing carries no certificate number). */
export function gradingOf(l: Pick<MarketListing, 'gradingCompany' | 'grade'>): Grading | null {
  if (!l.gradingCompany || l.grade === null || !(GRADING_COMPANIES as readonly string[]).includes(l.gradingCompany)) return null;
  return { company: l.gradingCompany as GradingCompany, grade: l.grade, certNumber: null };
}

export const STATE_LABEL: Record<MarketListingState, string> = {
  active: 'On sale',
  sold: 'Sold',
  delisted: 'Delisted',
  expired: 'Expired',
};
export const STATE_TONE: Record<MarketListingState, BadgeTone> = {
  active: 'success',
  sold: 'info',
  delisted: 'neutral',
  expired: 'warning',
};

/** The card's art in a card-shaped box framed in its class colour (the listing carries no full card look). */
export function ListingArt({
  listing,
  size = 'sm',
  priority = false,
  className,
}: {
  listing: Pick<MarketListing, 'imageKey' | 'name' | 'classColour'>;
  size?: 'sm' | 'lg';
  priority?: boolean;
  className?: string;
}) {
  return (
    <div
      className={cn('relative aspect-[5/7] w-full overflow-hidden rounded-xl border-4 bg-zinc-900 shadow-lg shadow-black/40', className)}
      style={{ borderColor: listing.classColour }}
    >
      {listing.imageKey ? (
        <img
          src={imageUrl(listing.imageKey, size === 'sm' ? 'thumb' : 'full')}
          alt={listing.name}
          loading={priority ? 'eager' : 'lazy'}
          decoding="async"
          className="size-full object-cover"
        />
      ) : (
        <span role="img" aria-label={listing.name} className="flex size-full items-center justify-center p-3 text-center text-sm text-zinc-400">
          {listing.name}
        </span>
      )}
    </div>
  );
}

/** One listing in the /market grid: art, name, set, grade, price; the whole tile links to the listing. */
export function ListingTile({ listing, priority }: { listing: MarketListing; priority: boolean }) {
  const grading = gradingOf(listing);
  return (
    <li>
      <Link
        to="/market/$id"
        params={{ id: listing.id }}
        className="group flex h-full flex-col gap-2 rounded-2xl border border-white/10 bg-surface/60 p-2 transition-colors hover:border-violet-400/50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400"
      >
        <ListingArt listing={listing} priority={priority} />
        <span className="flex min-w-0 flex-1 flex-col gap-1 px-1">
          <span className="truncate text-sm font-medium text-white">{listing.name}</span>
          <span className="truncate text-xs text-zinc-400">
            {listing.setName} · #{listing.number} · {listing.className}
          </span>
          <span className="mt-auto flex items-center justify-between gap-2">
            {grading ? <GradeBadge grading={grading} /> : <span className="text-xs text-zinc-400">Raw</span>}
            <Money cents={listing.priceCents} className="font-semibold text-white" />
          </span>
        </span>
      </Link>
    </li>
  );
}

export function ListingTileSkeleton() {
  return (
    <li aria-hidden="true" className="flex flex-col gap-2 rounded-2xl border border-white/10 bg-surface/60 p-2">
      <Skeleton className="aspect-[5/7] w-full rounded-xl" />
      <Skeleton className="h-4 w-3/4" />
      <Skeleton className="h-3 w-1/2" />
      <Skeleton className="h-5 w-1/3 self-end" />
    </li>
  );
}

export function StateBadge({ state }: { state: MarketListingState }) {
  return <Badge tone={STATE_TONE[state]}>{STATE_LABEL[state]}</Badge>;
}

/**
 * A personal market list before it has rows: the load failed (with a retry), or it is loading
 * (three row skeletons). Null once there is data, so the caller draws its empty state or rows.
 */
export function RowsPending({ q, what }: { q: { data: unknown; isError: boolean; error: unknown; refetch: () => unknown }; what: string }) {
  if (q.data) return null;
  if (q.isError) {
    return (
      <Notice
        tone="danger"
        title={`We could not load your ${what}`}
        action={
          <Button variant="secondary" size="sm" onClick={() => void q.refetch()}>
            Try again
          </Button>
        }
      >
        {errorText(q.error)}
      </Notice>
    );
  }
  return (
    <ul role="status" aria-label={`Loading your ${what}`} className="space-y-3">
      {Array.from({ length: 3 }, (_, i) => (
        <li key={i} className="flex gap-4 rounded-2xl border border-white/10 p-3">
          <Skeleton className="aspect-[5/7] w-14 rounded-lg" />
          <div className="flex-1 space-y-2">
            <Skeleton className="h-4 w-1/2" />
            <Skeleton className="h-3 w-1/3" />
          </div>
        </li>
      ))}
    </ul>
  );
}

/**
 * The shell of a personal market list (offers, swaps): what it is, a state filter, then the rows
 * (or loading, a failed load, an empty state) with their count and pages. The caller keeps the
 * query, the filter and the page, and draws each row.
 */
export function PersonalList<S extends string, T extends { id: string }>(p: {
  intro: ReactNode;
  filters: Array<{ value: '' | S; label: string }>;
  state: '' | S;
  onStateChange: (s: '' | S) => void;
  q: { data: { items: T[]; total: number } | undefined; isFetching: boolean; isError: boolean; error: unknown; refetch: () => unknown };
  /** Plural noun for the count and the loading words ("offers", "swaps"). */
  what: string;
  empty: ReactNode;
  label: string;
  row: (item: T) => ReactNode;
  page: number;
  onPageChange: (page: number) => void;
  pageSize: number;
}) {
  const data = p.q.data;
  return (
    <div className="mt-4 space-y-4">
      <p className="text-sm text-zinc-300">{p.intro}</p>
      <StatusChips
        label="Filter by state"
        chips={p.filters}
        value={p.state}
        onChange={(v) => {
          p.onStateChange(v as '' | S);
          p.onPageChange(1);
        }}
      />
      {!data ? (
        <RowsPending q={p.q} what={p.what} />
      ) : data.items.length === 0 ? (
        p.empty
      ) : (
        <>
          <p className="text-sm text-zinc-400" aria-live="polite">
            {plural(data.total, p.what.replace(/s$/, ''))}
            {p.q.isFetching ? ' · updating…' : ''}
          </p>
          <ul aria-label={p.label} className="space-y-3">
            {data.items.map((item) => (
              <Fragment key={item.id}>{p.row(item)}</Fragment>
            ))}
          </ul>
          <Pagination page={p.page} pageCount={Math.ceil(data.total / p.pageSize)} onPageChange={p.onPageChange} label={`${p.what[0]!.toUpperCase()}${p.what.slice(1, -1)} pages`} />
        </>
      )}
    </div>
  );
}
