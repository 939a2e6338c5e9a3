import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import type { ReactNode } from 'react';
import { Badge, Th } from '@web/components/ui';
import type { Role } from '@shared/contracts/me';

export { FilterSelect, SearchBox } from '@web/components/ui/list-controls';

/** A column header that sorts by its column; aria-sort tells screen readers the current order. */
export function SortTh<K extends string>({
  column,
  sort,
  dir,
  onSort,
  children,
}: {
  column: K;
  sort: string;
  dir: 'asc' | 'desc';
  onSort: (column: K, dir: 'asc' | 'desc') => void;
  children: ReactNode;
}) {
  const active = sort === column;
  const Icon = !active ? ArrowUpDown : dir === 'asc' ? ArrowUp : ArrowDown;
  return (
    <Th aria-sort={active ? (dir === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <button
        type="button"
        onClick={() => onSort(column, active && dir === 'desc' ? 'asc' : active ? 'desc' : column === 'email' || column === 'username' ? 'asc' : 'desc')}
        className="inline-flex items-center gap-1 rounded uppercase hover:text-white"
      >
        {children}
        <Icon aria-hidden="true" className={active ? 'size-3.5 text-violet-300' : 'size-3.5 opacity-50'} />
      </button>
    </Th>
  );
}

export function RoleBadge({ role }: { role: Role }) {
  return role === 'owner' ? <Badge tone="gold">Owner</Badge> : role === 'admin' ? <Badge tone="violet">Admin</Badge> : <Badge>User</Badge>;
}

export function StatusBadge({ u }: { u: { banned: boolean; banExpires: string | null; deletedAt: string | null; emailVerified: boolean } }) {
  if (u.deletedAt) return <Badge tone="neutral">Deleted</Badge>;
  if (u.banned && (!u.banExpires || Date.parse(u.banExpires) > Date.now())) return <Badge tone="danger">Banned</Badge>;
  if (!u.emailVerified) return <Badge tone="warning">Unverified</Badge>;
  return <Badge tone="success">Active</Badge>;
}
