import { useEffect, useId, useRef, useState } from 'react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useRouter } from '@tanstack/react-router';
import { SlidersHorizontal, Store } from 'lucide-react';
import { parseMoney } from '@shared/money';
import { Badge, Button, EmptyState, Input, Label, Notice, PageHeader, Pagination, Select, cn } from '@web/components/ui';
import { SearchBox } from '@web/components/ui/list-controls';
import { useGridColumns } from '@web/hooks/use-grid-columns';
import { ApiClientError } from '@web/lib/api';
import { formatCount, plural } from '@web/lib/format';
import { marketBrowseQuery, marketClassesQuery, marketSetsQuery } from './api';
import { useMarketLiveUpdates } from './live';
import { ListingTile, ListingTileSkeleton } from './parts';
import { browseQueryOf, dollarsOf, MARKET_PAGE_SIZE, parseMarketSearch, type MarketSearch } from './search';

const SORTS = [
  { value: 'newest', label: 'Newest first' },
  { value: 'price_asc', label: 'Price: low to high' },
  { value: 'price_desc', label: 'Price: high to low' },
] as const;
const MIN_GRADES = [6, 7, 8, 9, 9.5, 10];

/**
 * The filters as the API reads them. validateSearch already keeps each one within the API's schema
 * (search.test.ts checks every parsed search against marketBrowseQuerySchema, which the page does
 * not load: zod would put a public page over its JavaScript budget); what is left is a range
 * upside down, which the API would refuse with this message.
 */
function checkedQuery(s: MarketSearch) {
  if (s.minPrice !== undefined && s.maxPrice !== undefined && s.minPrice > s.maxPrice) {
    return { query: null, problems: ['The lowest price must not be above the highest.'] };
  }
  return { query: browseQueryOf(s), problems: [] as string[] };
}

/** Starts the listings, classes and sets of /market before the page first renders (and on the server, draws from them). */
export function prefetchMarket(queryClient: QueryClient, search: Record<string, unknown>) {
  const { query } = checkedQuery(parseMarketSearch(search));
  return Promise.all([
    query ? queryClient.prefetchQuery(marketBrowseQuery(query)) : null,
    queryClient.prefetchQuery(marketClassesQuery),
    queryClient.prefetchQuery(marketSetsQuery),
  ]);
}

/** /market: every active listing, with search, filters, sort and pages held in the URL. */
export function MarketBrowse({ search }: { search: MarketSearch }) {
  useMarketLiveUpdates();
  const navigate = useNavigate();
  const router = useRouter();
  // A search box applies its text after a pause: by then the user may have followed a link away
  // (its page still loading); the filter must not pull them back.
  const set = (patch: Partial<MarketSearch>, keepPage = false) =>
    router.latestLocation.pathname === '/market' &&
    void navigate({
      to: '/market',
      search: parseMarketSearch({ ...search, ...patch, ...(keepPage ? {} : { page: undefined }) }),
      replace: true,
      resetScroll: false,
    });
  const { query, problems } = checkedQuery(search);
  const list = useQuery({ ...marketBrowseQuery(query ?? browseQueryOf({})), enabled: query !== null });
  const classes = useQuery(marketClassesQuery);
  const sets = useQuery(marketSetsQuery);
  const columns = useGridColumns();
  const filterCount = [search.q, search.set, search.classId, search.graded, search.minGrade, search.minPrice, search.maxPrice].filter((v) => v !== undefined).length;
  const [filtersOpen, setFiltersOpen] = useState(false);
  const filtersId = useId();
  const page = search.page ?? 1;
  const data = list.data;

  return (
    <div>
      <PageHeader
        eyebrow="Marketplace"
        title="Market"
        description="Cards other collectors are selling from their vaults. Buy one and it moves straight into your vault: nothing is shipped until you ask."
      />
      <div className="grid gap-6 md:grid-cols-[15rem_minmax(0,1fr)] lg:grid-cols-[16rem_minmax(0,1fr)]">
        <div>
          <div className="flex items-end gap-2">
            <div className="min-w-0 flex-1">
              <SearchBox label="Search by card name" value={search.q ?? ''} onChange={(q) => set({ q: q || undefined })} placeholder="e.g. Kraken" />
            </div>
            <Button
              variant="secondary"
              className="shrink-0 md:hidden"
              aria-expanded={filtersOpen}
              aria-controls={filtersId}
              onClick={() => setFiltersOpen((o) => !o)}
            >
              <SlidersHorizontal aria-hidden="true" className="size-4" />
              Filters
              {filterCount ? <Badge tone="info">{filterCount}</Badge> : null}
            </Button>
          </div>
          <form
            id={filtersId}
            role="search"
            aria-label="Filter listings"
            onSubmit={(e) => e.preventDefault()}
            className={cn('mt-4 gap-4 rounded-2xl border border-white/10 bg-surface/70 p-4', filtersOpen ? 'grid' : 'hidden', 'md:grid')}
          >
            <Field label="Set">
              {(id) => (
                <Select id={id} value={search.set ?? ''} onChange={(e) => set({ set: e.target.value || undefined })}>
                  <option value="">All sets</option>
                  {(sets.data?.sets ?? []).map((x) => (
                    <option key={x.name} value={x.name}>
                      {x.name}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Field label="Class (rarity)">
              {(id) => (
                <Select id={id} value={search.classId ?? ''} onChange={(e) => set({ classId: e.target.value || undefined })}>
                  <option value="">All classes</option>
                  {(classes.data?.classes ?? []).map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.name}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Field label="Grading">
              {(id) => (
                <Select
                  id={id}
                  value={search.graded ?? ''}
                  onChange={(e) => {
                    const v = e.target.value;
                    set({ graded: v === 'graded' || v === 'raw' ? v : undefined, ...(v === 'raw' ? { minGrade: undefined } : {}) });
                  }}
                >
                  <option value="">Graded and raw</option>
                  <option value="graded">Graded only</option>
                  <option value="raw">Raw only</option>
                </Select>
              )}
            </Field>
            <Field label="Lowest grade">
              {(id) => (
                <Select
                  id={id}
                  value={search.minGrade === undefined ? '' : String(search.minGrade)}
                  disabled={search.graded === 'raw'}
                  onChange={(e) => set({ minGrade: e.target.value ? Number(e.target.value) : undefined })}
                >
                  <option value="">Any grade</option>
                  {MIN_GRADES.map((g) => (
                    <option key={g} value={String(g)}>
                      {g === 10 ? '10 only' : `${g} or better`}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <fieldset className="grid grid-cols-2 gap-2">
              <legend className="mb-1.5 text-sm font-medium text-zinc-200">Price (dollars)</legend>
              <PriceBox label="Lowest price" value={search.minPrice} onChange={(minPrice) => set({ minPrice })} />
              <PriceBox label="Highest price" value={search.maxPrice} onChange={(maxPrice) => set({ maxPrice })} />
            </fieldset>
            <Field label="Sort by">
              {(id) => (
                <Select
                  id={id}
                  value={search.sort ?? 'newest'}
                  onChange={(e) => set({ sort: e.target.value === 'price_asc' || e.target.value === 'price_desc' ? e.target.value : undefined })}
                >
                  {SORTS.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            {filterCount ? (
              <Button variant="ghost" onClick={() => void navigate({ to: '/market', search: search.sort ? { sort: search.sort } : {}, replace: true })}>
                Clear filters
              </Button>
            ) : null}
          </form>
        </div>

        <section aria-label="Listings" className="min-w-0">
          {problems.length ? (
            <Notice tone="warning" title="Check the filters">
              {problems.join(' ')} Change them to see listings.
            </Notice>
          ) : list.isError && !data ? (
            <Notice
              tone="danger"
              title="We could not load the market"
              action={
                <Button variant="secondary" size="sm" onClick={() => void list.refetch()}>
                  Try again
                </Button>
              }
            >
              {list.error instanceof ApiClientError ? list.error.message : 'Something went wrong.'} Check your connection and try again.
            </Notice>
          ) : !data ? (
            <ul role="status" aria-label="Loading listings" className="grid grid-cols-2 gap-4 sm:grid-cols-3 xl:grid-cols-4">
              {Array.from({ length: 8 }, (_, i) => (
                <ListingTileSkeleton key={i} />
              ))}
            </ul>
          ) : data.items.length === 0 ? (
            <EmptyState
              icon={<Store />}
              title={filterCount ? 'No listings match' : 'Nothing on sale yet'}
              description={
                filterCount
                  ? 'Try another name or a wider price range, or clear the filters to see every listing.'
                  : 'When collectors list cards from their vaults, they show up here. You can list one of yours from your vault.'
              }
              action={
                filterCount ? (
                  <Button variant="secondary" onClick={() => void navigate({ to: '/market', search: {}, replace: true })}>
                    Clear filters
                  </Button>
                ) : (
                  <Link to="/collect" className="text-violet-300 underline underline-offset-4">
                    Go to your vault
                  </Link>
                )
              }
            />
          ) : (
            <>
              <p className="mb-3 text-sm text-zinc-400" aria-live="polite">
                {data.totalIsCapped ? `More than ${plural(data.total, 'listing')}` : plural(data.total, 'listing')}
                {list.isFetching ? ' · updating…' : ''}
              </p>
              <ul aria-label="Listings on sale" aria-busy={list.isFetching} className="grid grid-cols-2 gap-4 sm:grid-cols-3 xl:grid-cols-4">
                {data.items.map((l, i) => (
                  <ListingTile key={l.id} listing={l} priority={i < columns} />
                ))}
              </ul>
              <div className="mt-4 flex flex-col items-center justify-between gap-3 sm:flex-row">
                <p className="text-sm text-zinc-400">
                  Showing {formatCount((page - 1) * MARKET_PAGE_SIZE + 1)}–{formatCount(Math.min(data.total, page * MARKET_PAGE_SIZE))} of {data.totalIsCapped ? 'more than ' : ''}
                  {formatCount(data.total)}
                </p>
                <Pagination
                  page={page}
                  pageCount={Math.max(1, Math.ceil(data.total / MARKET_PAGE_SIZE))}
                  onPageChange={(p) => set({ page: p }, true)}
                  label="Listing pages"
                />
              </div>
            </>
          )}
        </section>
      </div>
    </div>
  );
}

function Field({ label, children }: { label: string; children: (id: string) => React.ReactNode }) {
  const id = useId();
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      <div className="mt-1">{children(id)}</div>
    </div>
  );
}

/** A price in dollars, applied when the user pauses typing; what is not an amount is said and not applied. */
function PriceBox({ label, value, onChange }: { label: string; value: number | undefined; onChange: (v: number | undefined) => void }) {
  const id = useId();
  const errorId = `${id}-error`;
  const [text, setText] = useState(value === undefined ? '' : String(value));
  const last = useRef(value);
  useEffect(() => {
    if (value !== last.current) {
      last.current = value;
      setText(value === undefined ? '' : String(value));
    }
  }, [value]);
  const cents = text.trim() === '' ? undefined : parseMoney(text);
  const invalid = cents === null;
  useEffect(() => {
    if (cents === null) return;
    const next = cents === undefined ? undefined : dollarsOf(cents);
    if (next === last.current) return;
    const t = setTimeout(() => {
      last.current = next;
      onChange(next);
    }, 400);
    return () => clearTimeout(t);
  }, [cents, onChange]);
  return (
    <div>
      <Label htmlFor={id} className="sr-only">
        {label}
      </Label>
      <Input
        id={id}
        inputMode="decimal"
        autoComplete="off"
        placeholder={label === 'Lowest price' ? 'Min' : 'Max'}
        value={text}
        onChange={(e) => setText(e.target.value)}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? errorId : undefined}
      />
      {invalid ? (
        <p id={errorId} className="mt-1 text-xs text-red-300">
          Enter an amount like 12.50
        </p>
      ) : null}
    </div>
  );
}
