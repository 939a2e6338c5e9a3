import type { UseQueryResult } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { Paged } from '@shared/contracts/paging';
import { buttonClasses, EmptyState, SkeletonText } from '@web/components/ui';
import { ARCHIVED_OPTIONS, FilterSelect, ListFooter, QueryError, SearchBox, StatusBadge, Toolbar, useUrlState } from './admin-kit';
import { Header } from './admin-layout-parts';
import type { Entity } from './api';
import { ENTITY_META } from './entity-meta';

/**
 * The page around a catalog admin list: title with "New …", the filters, and the list's states
 * (could not load, loading, nothing here, the rows with paging). The list draws only its rows.
 */
/** What every catalog list keeps in the URL; a list may keep more filters beside these. */
// A type, not an interface, so that it is a Record<string, string> as useUrlState wants.
export type ListUrlState = {
  q: string;
  archived: string;
  sort: string;
  page: string;
};

/** The list's URL state, and its page as a number for the query. */
export function useListState<T extends ListUrlState>(defaults: T) {
  const [s, set] = useUrlState(defaults);
  return { s, set, page: Number(s.page) || 1 };
}

export function ListShell<P extends Paged<unknown>>({
  entity,
  list,
  state,
  sorts,
  filters,
  filtered,
  emptyHint,
  filteredHint = 'Nothing matches that search.',
  actions,
  children,
  after,
}: {
  entity: Entity;
  list: UseQueryResult<P>;
  state: { s: ListUrlState; set: (patch: Partial<ListUrlState>) => void; page: number };
  sorts: ReadonlyArray<{ value: string; label: string }>;
  /** The list's own filters, between the search box and the status filter. */
  filters?: ReactNode;
  /** Whether the admin narrowed the list, which changes what an empty list means; by default, a search. */
  filtered?: boolean;
  /** What to do when there is nothing yet at all. */
  emptyHint: string;
  filteredHint?: string;
  /** Header buttons before "New …". */
  actions?: ReactNode;
  children: (data: P) => ReactNode;
  /** After the list, e.g. a dialog its header opens. */
  after?: ReactNode;
}) {
  const meta = ENTITY_META[entity];
  const { s, set, page } = state;
  return (
    <div>
      <Header
        title={meta.plural}
        kind={meta.kind}
        actions={
          <>
            {actions}
            <Link to={meta.detail} params={{ id: 'new' }} className={buttonClasses({ variant: 'primary' })}>
              New {meta.noun}
            </Link>
          </>
        }
      />
      <Toolbar>
        <SearchBox label={`Search ${entity}`} value={s.q} onChange={(q) => set({ q })} />
        {filters}
        <FilterSelect label="Status" value={s.archived} onChange={(archived) => set({ archived })} options={ARCHIVED_OPTIONS} />
        <FilterSelect label="Sort" value={s.sort} onChange={(sort) => set({ sort })} options={[...sorts]} />
      </Toolbar>
      {list.isError && !list.data ? (
        <QueryError error={list.error} retry={() => void list.refetch()} what={entity} />
      ) : !list.data ? (
        <SkeletonText lines={6} label={`Loading ${entity}`} />
      ) : list.data.items.length === 0 ? (
        <EmptyState title={`No ${entity} here`} description={(filtered ?? Boolean(s.q)) ? filteredHint : emptyHint} />
      ) : (
        <>
          {children(list.data)}
          <ListFooter page={page} pageSize={list.data.pageSize} total={list.data.total} onPage={(p) => set({ page: String(p) })} noun={entity} />
        </>
      )}
      {after}
    </div>
  );
}

/** The picture tiles of the texture and architect lists, each opening its record. */
export function TileGrid<T extends { id: string; name: string; archivedAt: string | null }>({
  entity,
  items,
  image,
  details,
}: {
  entity: 'textures' | 'architects';
  items: T[];
  image: (item: T) => ReactNode;
  details: (item: T) => ReactNode;
}) {
  const meta = ENTITY_META[entity];
  return (
    <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4" aria-label={meta.plural}>
      {items.map((item) => (
        <li key={item.id} className="overflow-hidden rounded-xl border border-white/10 bg-surface/80">
          <Link to={meta.detail} params={{ id: item.id }} className="block focus-visible:outline-2 focus-visible:outline-violet-400">
            {image(item)}
            <div className="space-y-1 p-3">
              <p className="truncate font-medium text-white">{item.name}</p>
              <p className="text-xs text-zinc-400">{details(item)}</p>
              <StatusBadge archivedAt={item.archivedAt} />
            </div>
          </Link>
        </li>
      ))}
    </ul>
  );
}
