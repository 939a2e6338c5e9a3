import type { UseQueryResult } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { Paged } from '@shared/contracts/paging';
import { buttonClasses, EmptyState, SkeletonText } from '@web/components/ui';
import { ListFooter, QueryError, Toolbar } from './admin-kit';
import { Header } from './admin-layout-parts';
import type { Entity } from './api';
import { ENTITY_META } from './entity-meta';

/**
 * The page around a catalog admin list: title with "New …", the filters, and the list's states
 * (could not load, loading, nothing here, the rows with paging). The list draws only its rows.
 */
export function ListShell<P extends Paged<unknown>>({
  entity,
  list,
  page,
  onPage,
  filtered,
  emptyHint,
  filteredHint = 'Nothing matches that search.',
  actions,
  toolbar,
  children,
  after,
}: {
  entity: Entity;
  list: UseQueryResult<P>;
  page: number;
  onPage: (page: number) => void;
  /** Whether the admin narrowed the list, which changes what an empty list means. */
  filtered: boolean;
  /** What to do when there is nothing yet at all. */
  emptyHint: string;
  filteredHint?: string;
  /** Header buttons before "New …". */
  actions?: ReactNode;
  toolbar: ReactNode;
  children: (data: P) => ReactNode;
  /** After the list, e.g. a dialog its header opens. */
  after?: ReactNode;
}) {
  const meta = ENTITY_META[entity];
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
      <Toolbar>{toolbar}</Toolbar>
      {list.isError && !list.data ? (
        <QueryError error={list.error} retry={() => void list.refetch()} what={entity} />
      ) : !list.data ? (
        <SkeletonText lines={6} label={`Loading ${entity}`} />
      ) : list.data.items.length === 0 ? (
        <EmptyState title={`No ${entity} here`} description={filtered ? filteredHint : emptyHint} />
      ) : (
        <>
          {children(list.data)}
          <ListFooter page={page} pageSize={list.data.pageSize} total={list.data.total} onPage={onPage} noun={entity} />
        </>
      )}
      {after}
    </div>
  );
}
