import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Badge, Input, Label, Select, Th } from '@web/components/ui';
import type { Role } from '@shared/contracts/me';

/** A search box that waits for the user to pause typing before it filters. */
export function SearchBox({ value, onChange, label, placeholder }: { value: string; onChange: (v: string) => void; label: string; placeholder?: string }) {
  const id = useId();
  const [text, setText] = useState(value);
  const last = useRef(value);
  useEffect(() => {
    if (value !== last.current) {
      last.current = value;
      setText(value);
    }
  }, [value]);
  useEffect(() => {
    if (text.trim() === last.current) return;
    const t = setTimeout(() => {
      last.current = text.trim();
      onChange(text.trim());
    }, 300);
    return () => clearTimeout(t);
  }, [text, onChange]);
  return (
    <div className="w-full sm:max-w-xs sm:min-w-48 sm:flex-1">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} type="search" value={text} placeholder={placeholder} onChange={(e) => setText(e.target.value)} className="mt-1" />
    </div>
  );
}

export function FilterSelect({
  label,
  value,
  onChange,
  children,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <div className="w-full sm:w-44">
      <Label htmlFor={id}>{label}</Label>
      <div className="mt-1">
        <Select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
          {children}
        </Select>
      </div>
    </div>
  );
}

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
