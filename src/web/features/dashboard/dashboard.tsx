import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { lazy, Suspense, type ReactNode } from 'react';
import { RefreshCw } from 'lucide-react';
import { Button, Notice, Skeleton, SkeletonText, useCurrency } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { dashboardQuery } from './api';
import { loadErrorText } from './load-error';
import { MarketFigures } from './market-figures';
import { AttentionLists } from './attention';
import { FigureCards, FigureCardsSkeleton } from './figure-cards';
import { ProductMargins, ProductReturns } from './product-returns';
import { ResultStatement } from './result-statement';
import { checkRange, parseDashboardSearch, PRESET_LABEL, serverRangeErrors, type DashboardSearch } from './range';
import { RangePicker } from './range-picker';

// recharts is a few hundred KB: its own chunk, fetched only once the dashboard shows data.
const DashboardCharts = lazy(() => import('./charts'));

const time = new Intl.DateTimeFormat('en-US', { timeStyle: 'short' });
const dayFmt = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

function Section({ id, title, description, children }: { id: string; title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="min-w-0 space-y-3">
      <div>
        <h2 id={id} className="text-lg font-semibold text-white">
          {title}
        </h2>
        {description ? <p className="mt-0.5 text-sm text-zinc-400">{description}</p> : null}
      </div>
      {children}
    </section>
  );
}

/** The period the figures cover, as the server resolved it (`to` exclusive). */
function periodText(range: { from: string; to: string; preset: string }): string {
  const from = new Date(range.from);
  const lastMs = Date.parse(range.to) - 1;
  const a = dayFmt.format(from);
  const b = dayFmt.format(new Date(lastMs));
  return a === b ? `${a} (UTC)` : `${a} – ${b} (UTC)`;
}

export { loadErrorText };

export function AdminDashboard() {
  // Not strict: the route's id carries the trailing slash of its router path (router.tsx), and
  // its validateSearch already ran; reading through parseDashboardSearch keeps the type exact.
  const search = parseDashboardSearch(useSearch({ strict: false }));
  const navigate = useNavigate();
  const currency = useCurrency();
  const checked = checkRange(search);
  const q = useQuery({ ...dashboardQuery(checked.query ?? { range: '7d' }), enabled: checked.query !== null });

  const setSearch = (next: DashboardSearch) => void navigate({ to: '/admin', search: next });

  const badRequest = q.error instanceof ApiClientError && q.error.status === 400 ? q.error : null;
  const fieldErrors = checked.errors ?? (badRequest ? serverRangeErrors(badRequest.fields) : null);
  // A 400 that named none of the range fields still needs saying somewhere.
  const unplacedBadRequest = badRequest && Object.keys(serverRangeErrors(badRequest.fields)).length === 0 ? badRequest.message : null;
  const data = checked.query && !badRequest ? q.data : undefined;
  const updating = q.isFetching && q.isPlaceholderData;

  return (
    <div className="space-y-8">
      <div className="flex flex-col gap-4 md:flex-row md:items-start md:justify-between">
        <RangePicker search={search} errors={fieldErrors} onChange={setSearch} />
        <div className="flex flex-wrap items-center gap-3 text-sm text-zinc-400 md:justify-end md:pt-7">
          {data ? (
            <span>
              {PRESET_LABEL[data.range.preset]}: {periodText(data.range)} · updated {time.format(new Date(data.generatedAt))}
              {updating ? ' · updating…' : ''}
            </span>
          ) : null}
          <Button
            variant="ghost"
            size="sm"
            onClick={() => void q.refetch()}
            disabled={!checked.query || q.isFetching}
            aria-label="Refresh the figures"
          >
            <RefreshCw aria-hidden="true" className={q.isFetching ? 'size-4 animate-spin' : 'size-4'} />
            Refresh
          </Button>
        </div>
      </div>

      {unplacedBadRequest ? <Notice tone="danger" title="Those dates were refused">{unplacedBadRequest}</Notice> : null}
      {fieldErrors && !data ? (
        <Notice tone="info" live={false}>
          Fix the dates above to see the figures.
        </Notice>
      ) : null}

      {q.isError && !badRequest ? (
        q.data ? (
          <Notice tone="warning" title="Could not refresh">
            {loadErrorText(q.error)} Showing the figures from {time.format(new Date(q.data.generatedAt))}.
          </Notice>
        ) : (
          <Notice
            tone="danger"
            title="The dashboard could not load"
            action={
              <Button variant="secondary" size="sm" onClick={() => void q.refetch()}>
                Try again
              </Button>
            }
          >
            {loadErrorText(q.error)}
          </Notice>
        )
      ) : null}

      {!data && q.isPending && checked.query ? <DashboardSkeleton /> : null}

      {data ? (
        <div className={updating ? 'space-y-8 opacity-70 transition-opacity' : 'space-y-8'} aria-busy={updating || undefined}>
          <Section id="dash-figures" title="Key figures" description="Each against the period of the same length just before it.">
            <FigureCards figures={data.figures} />
          </Section>

          <Section
            id="dash-result"
            title="Result"
            description="Revenue, the cost of the cards handed out and the margin left, against the previous period. Each line says what it counts."
          >
            <ResultStatement result={data.result} />
          </Section>

          <Section id="dash-margins" title="Margin by product" description="What each product’s packs sold for, against the cards they handed out.">
            <ProductMargins products={data.products} />
          </Section>

          <Section
            id="dash-market"
            title="Marketplace"
            description="Sales between collectors over the same period: not the shop’s revenue, except the fee the house keeps."
          >
            <MarketFigures range={data.range} />
          </Section>

          <Section id="dash-attention" title="Needs attention">
            <AttentionLists attention={data.attention} />
          </Section>

          <Section id="dash-charts" title="Over time" description={data.range.bucket === 'hour' ? 'By hour (UTC).' : 'By day (UTC).'}>
            <Suspense fallback={<ChartsSkeleton />}>
              <DashboardCharts series={data.series} bucket={data.range.bucket} currency={currency} />
            </Suspense>
          </Section>

          <Section
            id="dash-returns"
            title="Return to players"
            description="What each product’s openings paid out in card value, against what its odds promise."
          >
            <ProductReturns products={data.products} />
          </Section>
        </div>
      ) : null}
    </div>
  );
}

function ChartsSkeleton() {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Skeleton className="h-72 lg:col-span-2" />
      <Skeleton className="h-72" />
      <Skeleton className="h-72" />
    </div>
  );
}

function DashboardSkeleton() {
  return (
    <div className="space-y-8" aria-busy="true">
      <SkeletonText lines={1} label="Loading the dashboard" className="w-40" />
      <FigureCardsSkeleton />
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        <Skeleton className="h-40" />
        <Skeleton className="h-40" />
        <Skeleton className="h-40" />
      </div>
      <ChartsSkeleton />
    </div>
  );
}
