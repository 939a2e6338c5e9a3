import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { PackageOpen, Search, SlidersHorizontal, X } from 'lucide-react';
import type { BuybackInput, CollectionPage, OwnedCard } from '@shared/contracts/collection';
import { VAULT_PAGE_SIZE } from '@shared/early-requests';
import { COLLECTION_SORTS, COLLECTION_STATUS_FILTERS, STATUS_LABEL } from '@shared/contracts/owned-cards';
import {
  Badge,
  Button,
  Checkbox,
  EmptyState,
  FormField,
  GradeBadge,
  Input,
  Money,
  Notice,
  Pagination,
  Select,
  Skeleton,
  buttonClasses,
  cn,
  toast,
} from '@web/components/ui';
import { collectionQuery, type CollectionParams } from './api';
import { CollectionCard } from './card-renderer';
import type { OwnedCardExtras } from './owned-card-dialog';
import { STATUS_TONE } from './format';
import { plural } from '@web/lib/format';
import { useLazyDialog } from '@web/hooks/use-lazy-dialog';
import { useDebounced } from '@web/hooks/use-debounced';
import { useGridColumns, useShownCount } from '@web/hooks/use-grid-columns';

// The card's detail and the sell-back dialogs (and Radix's dialog code) load when first wanted:
// pointing at or focusing a tile starts the detail's, a selection starts the sale's. The vault's
// first screen does not wait for them.
const loadOwnedCardDialog = () => import('./owned-card-dialog');
const loadSellBackDialog = () => import('./sell-back-dialog');
const OwnedCardDialog = lazy(() => loadOwnedCardDialog().then((m) => ({ default: m.OwnedCardDialog })));
const SellBackDialog = lazy(() => loadSellBackDialog().then((m) => ({ default: m.SellBackDialog })));
const preloadOwnedCardDialog = () => void loadOwnedCardDialog();

// The phone's filter sheet (Radix's dialog with its scroll lock and aria-hidden: 14 KB gzip) loads on
// the Filters button's first press; pointing at or focusing the button starts the download.
const loadSheet = () => import('@web/components/ui/dialog');
const Sheet = lazy(() => loadSheet().then((m) => ({ default: m.Sheet })));

const SORT_LABEL: Record<(typeof COLLECTION_SORTS)[number], string> = {
  acquired_desc: 'Newest first',
  acquired_asc: 'Oldest first',
  value_desc: 'Value: high to low',
  value_asc: 'Value: low to high',
  name: 'Name',
};

const PAGE_SIZE = VAULT_PAGE_SIZE;
/** "Select all" takes at most this many cards (a shipment holds 500), fetched this many a page. */
const SELECT_ALL_MAX = 500;
const SELECT_ALL_PAGE = 200;

function statusOptionLabel(s: (typeof COLLECTION_STATUS_FILTERS)[number], counts: CollectionPage['statusCounts'] | undefined) {
  if (s === 'all') return 'All statuses';
  const n = counts?.[s];
  return `${STATUS_LABEL[s]}${n ? ` (${n})` : ''}`;
}

export interface VaultProps {
  /**
   * More actions on the selected cards, next to "Sell back" (the page composes other features
   * here, e.g. shipping). `clear` unselects the given cards, or all of them.
   */
  selectionActions?: (selected: OwnedCard[], clear: (ids?: string[]) => void) => React.ReactNode;
  /** What the page adds to one card's dialog: more actions (shipping) and the price chart. */
  cardExtras?: OwnedCardExtras;
  /**
   * The copy whose dialog is open, when the page keeps it in the URL (`/collect?card=…`, where a
   * purchase on the market links to), and how to change it. Without them the vault keeps it itself.
   */
  openCard?: string | null;
  onOpenCardChange?: (id: string | null) => void;
}

/** /collect: the signed-in user's vault with filters, totals, multi-select and selling back. */
export function Vault({ selectionActions, cardExtras, openCard, onOpenCardChange }: VaultProps = {}) {
  const [search, setSearch] = useState('');
  const [classId, setClassId] = useState('');
  const [set, setSet] = useState('');
  const [graded, setGraded] = useState<'' | 'true' | 'false'>('');
  const [status, setStatus] = useState<(typeof COLLECTION_STATUS_FILTERS)[number]>('in_vault');
  const [sort, setSort] = useState<(typeof COLLECTION_SORTS)[number]>('acquired_desc');
  const [page, setPage] = useState(1);
  const q = useDebounced(search.trim());
  const params: CollectionParams = {
    status,
    sort,
    page,
    pageSize: PAGE_SIZE,
    ...(q ? { q } : {}),
    ...(classId ? { classId } : {}),
    ...(set ? { set } : {}),
    ...(graded ? { graded } : {}),
  };
  const list = useQuery(collectionQuery(params));
  const data = list.data;
  // Two rows at once, then the rest in the background: a full page drawn in one go was one long
  // task on a phone (hooks/use-grid-columns.ts).
  const columns = useGridColumns(1280);
  const shown = useShownCount(data?.items.length ?? 0, columns * 2);

  // Selection survives paging; cards that left the vault drop out when the list refreshes.
  const [selected, setSelected] = useState<Map<string, OwnedCard>>(new Map());
  useEffect(() => {
    if (!data) return;
    setSelected((prev) => {
      let changed = false;
      const next = new Map(prev);
      for (const item of data.items) {
        if (next.has(item.id) && item.status !== 'in_vault') {
          next.delete(item.id);
          changed = true;
        }
      }
      return changed ? next : prev;
    });
  }, [data]);

  const [ownDetail, setOwnDetail] = useState<string | null>(null);
  const detail = onOpenCardChange ? (openCard ?? null) : ownDetail;
  const setDetail = onOpenCardChange ?? setOwnDetail;
  // Once shown, the detail dialog stays mounted, so closing it behaves as a dialog always has.
  const [detailShown, setDetailShown] = useState(false);
  if (detail && !detailShown) setDetailShown(true);
  const [sale, setSale] = useState<BuybackInput | null>(null);
  const selecting = selected.size > 0;
  useEffect(() => {
    if (selecting) void loadSellBackDialog();
  }, [selecting]);

  useEffect(() => setPage(1), [q, classId, set, graded, status, sort]);

  const sellable = useMemo(() => data?.items.filter((i) => i.status === 'in_vault') ?? [], [data]);
  const allOnPage = sellable.length > 0 && sellable.every((i) => selected.has(i.id));
  const toggle = (item: OwnedCard, on: boolean) =>
    setSelected((prev) => {
      const next = new Map(prev);
      if (on) next.set(item.id, item);
      else next.delete(item.id);
      return next;
    });
  const togglePage = (on: boolean) =>
    setSelected((prev) => {
      const next = new Map(prev);
      for (const i of sellable) {
        if (on) next.set(i.id, i);
        else next.delete(i.id);
      }
      return next;
    });
  // "Select all" across pages: every card in the vault matching the filters, up to a cap.
  const queryClient = useQueryClient();
  const [selectingAll, setSelectingAll] = useState(false);
  const selectAllMatching = async () => {
    setSelectingAll(true);
    try {
      const all: OwnedCard[] = [];
      for (let p = 1; all.length < SELECT_ALL_MAX; p++) {
        const r = await queryClient.fetchQuery(collectionQuery({ ...params, status: 'in_vault', page: p, pageSize: SELECT_ALL_PAGE }));
        all.push(...r.items.filter((i) => i.status === 'in_vault'));
        if (r.items.length < SELECT_ALL_PAGE) break;
      }
      setSelected(new Map(all.slice(0, SELECT_ALL_MAX).map((i) => [i.id, i])));
    } catch {
      toast.error('Could not select every card', 'Try again, or select them page by page.');
    } finally {
      setSelectingAll(false);
    }
  };
  const selectedTotal = [...selected.values()].reduce((s, i) => s + i.buybackCents, 0);
  const filtered = Boolean(q || classId || set || graded || status !== 'in_vault');
  const activeFilters = [q, classId, set, graded, status !== 'in_vault', sort !== 'acquired_desc'].filter(Boolean).length;
  const filters = useLazyDialog(loadSheet);

  const statsAndFilters = (
    <>
      <section aria-label="Vault summary" className="grid gap-3 sm:grid-cols-3">
        <Stat label="Cards in your vault" value={data ? String(data.vault.count) : null} />
        <Stat label="Vault value" value={data ? <Money cents={data.vault.valueCents} /> : null} />
        <Stat label="Sells back for" value={data ? <Money cents={data.vault.buybackCents} /> : null} tone="emerald" />
      </section>

      <form
        role="search"
        aria-label="Filter your cards"
        className="grid gap-3 rounded-2xl border border-white/10 bg-surface/70 p-4 sm:grid-cols-2 lg:grid-cols-6"
        onSubmit={(e) => e.preventDefault()}
      >
        <FormField label="Search">
          <div className="relative">
            <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-zinc-500" />
            <Input type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="Card name" className="pl-9" />
          </div>
        </FormField>
        <FormField label="Class">
          <Select value={classId} onChange={(e) => setClassId(e.target.value)}>
            <option value="">All classes</option>
            {data?.classes.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </Select>
        </FormField>
        <FormField label="Set">
          <Select value={set} onChange={(e) => setSet(e.target.value)}>
            <option value="">All sets</option>
            {data?.sets.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </Select>
        </FormField>
        <FormField label="Grading">
          <Select value={graded} onChange={(e) => setGraded(e.target.value as typeof graded)}>
            <option value="">All cards</option>
            <option value="true">Graded only</option>
            <option value="false">Ungraded only</option>
          </Select>
        </FormField>
        <FormField label="Status">
          <Select value={status} onChange={(e) => setStatus(e.target.value as typeof status)}>
            {COLLECTION_STATUS_FILTERS.map((s) => (
              <option key={s} value={s}>
                {statusOptionLabel(s, data?.statusCounts)}
              </option>
            ))}
          </Select>
        </FormField>
        <FormField label="Sort by">
          <Select value={sort} onChange={(e) => setSort(e.target.value as typeof sort)}>
            {COLLECTION_SORTS.map((s) => (
              <option key={s} value={s}>
                {SORT_LABEL[s]}
              </option>
            ))}
          </Select>
        </FormField>
      </form>
    </>
  );

  return (
    <div className="space-y-6 pb-24">
      {/* Phones: stats and filters fold into a bottom sheet so the first cards start above the fold. */}
      <div className="flex items-center justify-between gap-3 md:hidden">
        {data ? (
          <p className="min-w-0 text-sm text-zinc-300">
            <strong className="text-white">{data.vault.count}</strong> in your vault ·{' '}
            <Money cents={data.vault.valueCents} className="font-semibold text-white" />
          </p>
        ) : (
          <Skeleton className="h-5 w-40" />
        )}
        <Button {...filters.triggerProps} variant="secondary" className="shrink-0">
          <SlidersHorizontal aria-hidden="true" className="size-4" />
          Filters
          {activeFilters ? <Badge tone="info">{activeFilters}</Badge> : null}
        </Button>
        {filters.wanted ? (
          <Suspense fallback={null}>
            <Sheet
              side="bottom"
              title="Your vault"
              closeLabel="Close filters"
              open={filters.open}
              onOpenChange={filters.setOpen}
              returnFocus={filters.trigger}
              id={filters.id}
            >
              <div className="space-y-4">
                {statsAndFilters}
                <Button className="w-full" onClick={() => filters.setOpen(false)}>
                  {data ? `Show ${plural(data.total, 'card')}` : 'Done'}
                </Button>
              </div>
            </Sheet>
          </Suspense>
        ) : null}
      </div>
      <div className="hidden space-y-6 md:block">{statsAndFilters}</div>

      {list.isError ? (
        <Notice
          tone="danger"
          title="We could not load your vault"
          action={
            <Button variant="secondary" size="sm" onClick={() => void list.refetch()}>
              Try again
            </Button>
          }
        >
          {list.error.message}
        </Notice>
      ) : !data ? (
        <div className="grid grid-cols-2 gap-4 sm:grid-cols-3 md:grid-cols-4 xl:grid-cols-6" aria-busy="true" aria-label="Loading your cards">
          {Array.from({ length: 12 }, (_, i) => (
            <Skeleton key={i} className="aspect-[5/7] rounded-xl" />
          ))}
        </div>
      ) : data.items.length === 0 ? (
        filtered ? (
          <EmptyState
            icon={<Search />}
            title="No cards match"
            description="Try another search, class, set, grading or status."
            action={
              <Button
                variant="secondary"
                onClick={() => {
                  setSearch('');
                  setClassId('');
                  setSet('');
                  setGraded('');
                  setStatus('in_vault');
                }}
              >
                Clear filters
              </Button>
            }
          />
        ) : (
          <EmptyState
            icon={<PackageOpen />}
            title="Your vault is empty"
            description="Every card you pull from a pack lands here. Open a pack to start your collection."
            action={
              <Link to="/shop" className={buttonClasses()}>
                Browse packs
              </Link>
            }
          />
        )
      ) : (
        <>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="text-sm text-zinc-400" aria-live="polite">
              {plural(data.total, 'card')}
              {list.isFetching ? ' · updating…' : ''}
            </p>
            <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
              {sellable.length ? (
                <label className="flex cursor-pointer items-center gap-2 text-sm text-zinc-200">
                  <Checkbox checked={allOnPage} onChange={(e) => togglePage(e.target.checked)} />
                  Select all in your vault on this page
                </label>
              ) : null}
              {status === 'in_vault' && data.total > sellable.length && selected.size < Math.min(data.total, SELECT_ALL_MAX) ? (
                <Button variant="ghost" size="sm" loading={selectingAll} loadingText="Selecting…" onClick={() => void selectAllMatching()}>
                  Select all {Math.min(data.total, SELECT_ALL_MAX)}
                  {data.total > SELECT_ALL_MAX ? ' (the first)' : ''}
                </Button>
              ) : null}
            </div>
          </div>
          <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 md:grid-cols-4 xl:grid-cols-6" aria-label="Your cards">
            {data.items.map((item, i) =>
              i < shown ? (
                <VaultTile
                  key={item.id}
                  // The first row's images first (the largest paint); the rest lazily.
                  priority={i < columns}
                  item={item}
                  refs={data.refs}
                  selected={selected.has(item.id)}
                  onToggle={(on) => toggle(item, on)}
                  onOpen={() => setDetail(item.id)}
                />
              ) : (
                <TilePlaceholder key={item.id} />
              ),
            )}
          </ul>
          <Pagination page={page} pageCount={Math.ceil(data.total / PAGE_SIZE)} onPageChange={setPage} label="Vault pages" />
        </>
      )}

      {selected.size > 0 ? (
        <div
          role="region"
          aria-label="Selected cards"
          className="fixed inset-x-0 bottom-0 z-30 border-t border-white/10 bg-zinc-950/95 px-4 py-3 backdrop-blur"
        >
          <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3">
            <p className="text-sm text-zinc-200">
              <strong className="text-white">{selected.size}</strong> selected · sells for{' '}
              <Money cents={selectedTotal} className="font-semibold text-emerald-300" />
            </p>
            <div className="flex flex-wrap gap-2">
              <Button variant="ghost" onClick={() => setSelected(new Map())}>
                <X aria-hidden="true" className="size-4" />
                Clear
              </Button>
              {selectionActions?.([...selected.values()], (ids) =>
                setSelected((prev) => {
                  if (!ids) return new Map();
                  const next = new Map(prev);
                  for (const id of ids) next.delete(id);
                  return next;
                }),
              )}
              <Button onClick={() => setSale({ ownedCardIds: [...selected.keys()] })}>Sell back {selected.size}</Button>
            </div>
          </div>
        </div>
      ) : null}

      {detailShown ? (
        <Suspense fallback={null}>
          <OwnedCardDialog
            ownedCardId={detail}
            extras={cardExtras}
            onOpenChange={(o) => !o && setDetail(null)}
            onSell={(id) => {
              setDetail(null);
              setSale({ ownedCardIds: [id] });
            }}
          />
        </Suspense>
      ) : null}
      {sale ? (
        <Suspense fallback={null}>
          <SellBackDialog
            open
            input={sale}
            onOpenChange={(o) => !o && setSale(null)}
            onSold={(r) =>
              setSelected((prev) => {
                const next = new Map(prev);
                for (const l of r.lines) next.delete(l.ownedCardId);
                return next;
              })
            }
          />
        </Suspense>
      ) : null}
    </div>
  );
}

function Stat({ label, value, tone }: { label: string; value: React.ReactNode; tone?: 'emerald' }) {
  return (
    <div className="rounded-2xl border border-white/10 bg-gradient-to-br from-violet-500/10 to-fuchsia-500/5 p-4">
      <p className="text-xs font-semibold tracking-widest text-zinc-400 uppercase">{label}</p>
      <p className={cn('mt-1 text-2xl font-bold text-white', tone === 'emerald' && 'text-emerald-300')}>
        {value ?? <Skeleton className="h-8 w-24" />}
      </p>
    </div>
  );
}

/** A tile's box while its card is still to be drawn: the tile's frame, the card's shape and two text lines. */
function TilePlaceholder() {
  return (
    <li aria-hidden="true" className="flex flex-col gap-2 rounded-2xl border border-white/10 bg-surface/60 p-2">
      <Skeleton className="aspect-[5/7] w-full rounded-xl" />
      <span className="block h-9" />
    </li>
  );
}

function VaultTile({
  item,
  refs,
  selected,
  onToggle,
  onOpen,
  priority,
}: {
  item: OwnedCard;
  priority: boolean;
  refs: CollectionPage['refs'];
  selected: boolean;
  onToggle: (on: boolean) => void;
  onOpen: () => void;
}) {
  const sellable = item.status === 'in_vault';
  return (
    <li
      className={cn(
        'group relative flex flex-col gap-2 rounded-2xl border border-white/10 bg-surface/60 p-2 transition-colors',
        selected && 'border-fuchsia-400/70 bg-fuchsia-500/10',
      )}
    >
      <button
        type="button"
        onClick={onOpen}
        onPointerEnter={preloadOwnedCardDialog}
        onFocus={preloadOwnedCardDialog}
        className="rounded-xl focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400"
      >
        {/* Named by the card's image label plus "details" (no aria-label, so the name holds the card's visible text). */}
        <CollectionCard card={item.card} refs={refs} size="sm" priority={priority} className={cn(!sellable && 'opacity-60')} />
        <span className="sr-only">: details</span>
      </button>
      <div className="flex items-start justify-between gap-2 px-1">
        <div className="min-w-0">
          <p className="truncate text-sm font-medium text-white">{item.card.name}</p>
          {item.card.grading ? <GradeBadge grading={item.card.grading} className="my-0.5" /> : null}
          <p className="text-xs text-zinc-400">
            <Money cents={item.valueCents} />
            {sellable ? (
              <>
                {' '}
                · sells <Money cents={item.buybackCents} className="text-emerald-300" />
              </>
            ) : null}
          </p>
        </div>
        {sellable ? (
          <Checkbox
            value={item.id}
            checked={selected}
            onChange={(e) => onToggle(e.target.checked)}
            aria-label={`Select ${item.card.name}`}
          />
        ) : null}
      </div>
      {!sellable ? (
        <Badge tone={STATUS_TONE[item.status]} className="absolute top-3 left-3">
          {STATUS_LABEL[item.status]}
        </Badge>
      ) : null}
    </li>
  );
}
