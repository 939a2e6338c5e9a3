import { lazy, Suspense, useState } from 'react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { PublicCard, LookRefs } from '@shared/contracts/catalog';
import { lookFromRefs, PUBLIC_PAGE_SIZE } from '@shared/contracts/catalog-look';
import { Button, EmptyState, GradeBadge, PageHeader } from '@web/components/ui';
import { publicCardsQuery, publicClassesQuery, publicSetsQuery, type PublicCardQuery } from './api';
import { CardAction } from '@web/components/card-action';
import { CardSkeleton, CardView } from './card-view';
import { useGridColumns, useShownCount } from '@web/hooks/use-grid-columns';
import { FilterSelect, ListFooter, QueryError, readUrlState, SearchBox, Toolbar, useUrlState } from './list-kit';

// The detail dialog (and Radix's dialog code) is fetched when a card is first pointed at,
// focused or opened, not with the list.
const loadCardDetail = () => import('./card-detail-dialog');
const CardDetailDialog = lazy(loadCardDetail);

const SORTS: Array<{ value: NonNullable<PublicCardQuery['sort']>; label: string }> = [
  { value: 'value_desc', label: 'Value: high to low' },
  { value: 'value_asc', label: 'Value: low to high' },
  { value: 'name', label: 'Name A–Z' },
  { value: 'newest', label: 'Newest first' },
];

// ?grading=graded|ungraded: words, since the router would quote "true" in the address bar.
const URL_DEFAULTS = { q: '', classId: '', set: '', grading: '', sort: 'value_desc', page: '1', card: '' };
type UrlState = typeof URL_DEFAULTS;

const pageOf = (s: UrlState) => Math.max(1, Number.parseInt(s.page, 10) || 1);
const listQuery = (s: UrlState) =>
  publicCardsQuery({
    q: s.q || undefined,
    classId: s.classId || undefined,
    set: s.set || undefined,
    graded: s.grading === 'graded' ? 'true' : s.grading === 'ungraded' ? 'false' : undefined,
    sort: SORTS.find((o) => o.value === s.sort)?.value,
    page: pageOf(s),
  });

/** Starts the list, class and set queries of /cards before the page first renders. */
export function prefetchPublicCatalog(queryClient: QueryClient, search: Record<string, unknown>) {
  return Promise.all([
    queryClient.prefetchQuery(listQuery(readUrlState(URL_DEFAULTS, search))),
    queryClient.prefetchQuery(publicClassesQuery),
    queryClient.prefetchQuery(publicSetsQuery),
  ]);
}

/** /cards — every card on sale, as cards. */
export function PublicCatalog() {
  const [s, set] = useUrlState(URL_DEFAULTS);
  const page = pageOf(s);
  const list = useQuery(listQuery(s));
  const classes = useQuery(publicClassesQuery);
  const sets = useQuery(publicSetsQuery);
  const filtered = Boolean(s.q || s.classId || s.set || s.grading);
  // Once shown, the dialog stays mounted so closing it behaves exactly as before.
  const [detailShown, setDetailShown] = useState(false);
  if (s.card && !detailShown) setDetailShown(true);

  return (
    <div>
      <PageHeader
        title="Cards"
        description={
          <>
            Every card in the vault that a pack can give you.{' '}
            {/* Only where there is a pointer to move: CSS decides, so the server's drawing and the browser's agree. */}
            <span className="hidden [@media(hover:hover)_and_(pointer:fine)]:inline">Move your pointer over a card to catch the foil; open</span>
            <span className="[@media(hover:hover)_and_(pointer:fine)]:hidden">Open</span> one to see it up close.
          </>
        }
      />
      <Toolbar>
        <SearchBox label="Search by name" value={s.q} onChange={(q) => set({ q })} placeholder="e.g. Kraken" />
        <FilterSelect
          label="Class"
          value={s.classId}
          onChange={(classId) => set({ classId })}
          options={[{ value: '', label: 'All classes' }, ...(classes.data?.classes ?? []).map((c) => ({ value: c.id, label: c.name }))]}
        />
        <FilterSelect
          label="Set"
          value={s.set}
          onChange={(v) => set({ set: v })}
          options={[{ value: '', label: 'All sets' }, ...(sets.data?.sets ?? []).map((x) => ({ value: x.name, label: `${x.name} (${x.cardCount})` }))]}
        />
        <FilterSelect
          label="Grading"
          value={s.grading}
          onChange={(grading) => set({ grading })}
          options={[
            { value: '', label: 'All cards' },
            { value: 'graded', label: 'Graded only' },
            { value: 'ungraded', label: 'Ungraded only' },
          ]}
        />
        <FilterSelect label="Sort" value={s.sort} onChange={(sort) => set({ sort })} options={SORTS} />
      </Toolbar>

      {list.isError && !list.data ? (
        <QueryError error={list.error} retry={() => void list.refetch()} what="the cards" />
      ) : list.isPending ? (
        <div role="status" aria-label="Loading cards" className="grid grid-cols-2 gap-4 sm:grid-cols-3 md:grid-cols-4 lg:grid-cols-6">
          {Array.from({ length: 12 }, (_, i) => (
            <CardSkeleton key={i} fluid />
          ))}
        </div>
      ) : list.data.items.length === 0 ? (
        <EmptyState
          title={filtered ? 'No cards match' : 'No cards yet'}
          description={filtered ? 'Try another name, or clear the filters to see every card.' : 'The vault is being stocked. Check back soon.'}
          action={
            filtered ? (
              <Button variant="secondary" onClick={() => set({ q: '', classId: '', set: '', grading: '' })}>
                Clear filters
              </Button>
            ) : undefined
          }
        />
      ) : (
        <>
          <ul
            aria-label="Cards"
            aria-busy={list.isFetching}
            className="grid grid-cols-2 gap-x-4 gap-y-6 sm:grid-cols-3 md:grid-cols-4 lg:grid-cols-6"
          >
            <CardTiles items={list.data.items} refs={list.data.refs} onOpen={(id) => set({ card: id }, { keepPage: true })} />
          </ul>
          <ListFooter page={page} pageSize={list.data.pageSize || PUBLIC_PAGE_SIZE} total={list.data.total} onPage={(p) => set({ page: String(p) })} noun="cards" />
        </>
      )}

      {s.card || detailShown ? (
        <Suspense fallback={null}>
          <CardDetailDialog id={s.card} onClose={() => set({ card: '' }, { keepPage: true })} />
        </Suspense>
      ) : null}
    </div>
  );
}

function CardTiles({ items, refs, onOpen }: { items: PublicCard[]; refs: LookRefs; onOpen: (id: string) => void }) {
  // Two rows' worth at once (about the first screen at any width), then the rest in the background
  // (hooks/use-grid-columns.ts): a page drawn in one go was one long task on a phone. Only the
  // first row's images are asked for first (the page's largest paint, and what the HTML
  // preloads); the rest load lazily, not competing with it on a phone's connection.
  const columns = useGridColumns();
  const shown = useShownCount(items.length, columns * 2);
  return items.map((card, i) =>
    i < shown ? (
      <CardTile key={card.id} card={card} refs={refs} priority={i < columns} onOpen={() => onOpen(card.id)} />
    ) : (
      <li key={card.id} aria-hidden="true">
        <CardSkeleton fluid />
        <span className="mt-2 block h-9" />
      </li>
    ),
  );
}

function preloadCardDetail() {
  void loadCardDetail();
}

function CardTile({ card, refs, priority, onOpen }: { card: PublicCard; refs: LookRefs; priority: boolean; onOpen: () => void }) {
  const look = lookFromRefs(card, refs);
  return (
    <li className="relative">
      <button
        type="button"
        onClick={onOpen}
        onPointerEnter={preloadCardDetail}
        onFocus={preloadCardDetail}
        className="group block w-full rounded-xl text-left focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-violet-400"
        // Named by its content (the card's image label, the set line, then what it does), not by an
        // aria-label: the name then always holds the visible text (WCAG 2.5.3, label in name).
      >
        <CardView look={look} size="sm" fluid priority={priority} />
        {/* Room on the right for the card's action (the heart), which sits beside this line. */}
        <span className="mt-2 flex min-h-9 min-w-0 items-center gap-1.5 pr-10 text-xs text-zinc-400">
          {card.grading ? <GradeBadge grading={card.grading} className="shrink-0" /> : null}
          <span className="truncate">
            {card.setName} · #{card.number}
          </span>
        </span>
        <span className="sr-only">. Open details</span>
      </button>
      {/* Beside the tile's button, not in it: one control may not hold another. On the caption's
          line, not on the art, where it covered the rarity badge. */}
      <CardAction card={card} className="absolute right-0 bottom-0 z-10" />
    </li>
  );
}
