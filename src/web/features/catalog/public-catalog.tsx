import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { lookFromRefs, PUBLIC_PAGE_SIZE, type PublicCard, type LookRefs } from '@shared/contracts/catalog';
import { Badge, Button, Dialog, EmptyState, Money, PageHeader, Skeleton } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { FilterSelect, ListFooter, QueryError, SearchBox, Toolbar, useUrlState } from './admin-kit';
import { cardPacksQuery, publicCardQuery, publicCardsQuery, publicClassesQuery, publicSetsQuery } from './api';
import { CardSkeleton, CardView } from './card-view';

const SORTS = [
  { value: 'value_desc', label: 'Value: high to low' },
  { value: 'value_asc', label: 'Value: low to high' },
  { value: 'name', label: 'Name A–Z' },
  { value: 'newest', label: 'Newest first' },
];

/** /cards — every card on sale, as cards. */
export function PublicCatalog() {
  const [s, set] = useUrlState({ q: '', classId: '', set: '', sort: 'value_desc', page: '1', card: '' });
  const page = Math.max(1, Number.parseInt(s.page, 10) || 1);
  const list = useQuery(publicCardsQuery({ q: s.q || undefined, classId: s.classId || undefined, set: s.set || undefined, sort: s.sort, page }));
  const classes = useQuery(publicClassesQuery);
  const sets = useQuery(publicSetsQuery);
  const filtered = Boolean(s.q || s.classId || s.set);

  return (
    <div>
      <PageHeader
        title="Cards"
        description="Every card in the vault that a pack can give you. Move your pointer over a card to catch the foil; open one to see it up close."
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
              <Button variant="secondary" onClick={() => set({ q: '', classId: '', set: '' })}>
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
            {list.data.items.map((card, i) => (
              <CardTile key={card.id} card={card} refs={list.data.refs} priority={i < 6} onOpen={() => set({ card: card.id }, { keepPage: true })} />
            ))}
          </ul>
          <ListFooter page={page} pageSize={list.data.pageSize || PUBLIC_PAGE_SIZE} total={list.data.total} onPage={(p) => set({ page: String(p) })} noun="cards" />
        </>
      )}

      <CardDetailDialog id={s.card} onClose={() => set({ card: '' }, { keepPage: true })} />
    </div>
  );
}

function CardTile({ card, refs, priority, onOpen }: { card: PublicCard; refs: LookRefs; priority: boolean; onOpen: () => void }) {
  const look = lookFromRefs(card, refs);
  return (
    <li>
      <button
        type="button"
        onClick={onOpen}
        className="group block w-full rounded-xl text-left focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-violet-400"
        aria-label={`${card.name}, ${look.className}. Open details`}
      >
        <CardView look={look} size="sm" fluid priority={priority} />
        <span className="mt-2 block truncate text-xs text-zinc-400">
          {card.setName} · #{card.number}
        </span>
      </button>
    </li>
  );
}

function CardDetailDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const q = useQuery({ ...publicCardQuery(id), enabled: Boolean(id) });
  const data = q.data;
  const look = data ? lookFromRefs(data.card, data.refs) : null;
  const notFound = q.error instanceof ApiClientError && (q.error.status === 404 || q.error.status === 400);
  return (
    <Dialog
      open={Boolean(id)}
      onOpenChange={(o) => !o && onClose()}
      title={data?.card.name ?? (notFound ? 'Card not found' : 'Card')}
      description={data ? `${data.card.setName} · #${data.card.number}` : undefined}
      className="sm:max-w-3xl"
    >
      {q.isPending ? (
        <div className="flex flex-col gap-6 sm:flex-row" role="status" aria-label="Loading card">
          <CardSkeleton size="lg" />
          <div className="flex-1 space-y-3">
            <Skeleton className="h-6 w-32" />
            <Skeleton className="h-4 w-full" />
          </div>
        </div>
      ) : q.isError ? (
        <p className="text-zinc-300">
          {notFound ? 'This card is not in the catalog any more. Close this and pick another.' : 'We could not load this card. Close this and try again.'}
        </p>
      ) : data && look ? (
        <div className="flex flex-col items-center gap-6 sm:flex-row sm:items-start">
          <CardView look={look} size="lg" priority />
          <dl className="w-full flex-1 space-y-4">
            <div>
              <dt className="text-xs font-semibold tracking-widest text-zinc-400 uppercase">Market value</dt>
              <dd className="text-3xl font-bold text-white">
                <Money cents={data.card.valueCents} />
              </dd>
            </div>
            <div>
              <dt className="text-xs font-semibold tracking-widest text-zinc-400 uppercase">Class</dt>
              <dd className="mt-1 flex items-center gap-2 text-zinc-100">
                <span aria-hidden="true" className="size-3 rounded-full" style={{ background: look.classColour, boxShadow: `0 0 10px ${look.classColour}` }} />
                {look.className}
              </dd>
            </div>
            <div>
              <dt className="text-xs font-semibold tracking-widest text-zinc-400 uppercase">Availability</dt>
              <dd className="mt-1">
                {data.card.inStock ? <Badge tone="success">In the vault — can be pulled</Badge> : <Badge tone="neutral">All copies pulled for now</Badge>}
              </dd>
            </div>
            <div>
              <dt className="text-xs font-semibold tracking-widest text-zinc-400 uppercase">Found in</dt>
              <dd className="mt-1">
                <CardPacks cardId={data.card.id} />
              </dd>
            </div>
            {data.card.description ? (
              <div>
                <dt className="text-xs font-semibold tracking-widest text-zinc-400 uppercase">About</dt>
                <dd className="mt-1 text-zinc-200">{data.card.description}</dd>
              </div>
            ) : null}
          </dl>
        </div>
      ) : null}
    </Dialog>
  );
}

/** "1 in N packs" reads better than a tiny percentage. */
function chanceText(expectedPerPack: number): string {
  if (expectedPerPack <= 0) return 'cannot be pulled right now';
  if (expectedPerPack >= 1) return `${expectedPerPack.toFixed(2)} per pack on average`;
  const n = 1 / expectedPerPack;
  return `about 1 in ${n < 10 ? n.toFixed(1) : Math.round(n).toLocaleString('en-US')} packs`;
}

function CardPacks({ cardId }: { cardId: string }) {
  const q = useQuery(cardPacksQuery(cardId));
  if (q.isPending) return <Skeleton className="h-4 w-48" />;
  if (q.isError) return <p className="text-sm text-zinc-400">Pack odds could not be loaded. Try again in a moment.</p>;
  if (!q.data.items.length) return <p className="text-sm text-zinc-300">No pack on sale can give this card right now.</p>;
  return (
    <ul className="space-y-1 text-sm text-zinc-200">
      {q.data.items.map((p) => (
        <li key={p.productId}>
          <Link to="/shop/$id" params={{ id: p.productId }} className="text-violet-300 underline underline-offset-2">
            {p.productName}
          </Link>{' '}
          (<Money cents={p.priceCents} />) — {chanceText(p.expectedPerPack)}
        </li>
      ))}
    </ul>
  );
}
