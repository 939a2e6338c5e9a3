import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Users } from 'lucide-react';
import { useCallback } from 'react';
import { adminUserSortSchema, type AdminUserListQuery } from '@shared/contracts/admin-users';
import { roleSchema } from '@shared/contracts/me';
import { Badge, Button, EmptyState, Notice, Pagination, SkeletonText, Table, TBody, Td, Th, THead, Tr } from '@web/components/ui';
import { errorText, userListQuery, useUrlState } from './api';
import { formatDateTime, plural } from '@web/lib/format';
import { FilterSelect, RoleBadge, SearchBox, SortTh, StatusBadge } from './controls';

const DEFAULTS = { q: '', role: '', banned: '', sort: 'createdAt', dir: 'desc', page: '1', pageSize: '25' };

/** /admin/users: search by email or username, filter by role and banned, sort, paginate (state in the URL). */
export function UserList() {
  const [s, set] = useUrlState(DEFAULTS);
  const query: Partial<AdminUserListQuery> = {
    q: s.q || undefined,
    role: roleSchema.safeParse(s.role).data,
    banned: s.banned === 'true' || s.banned === 'false' ? s.banned : undefined,
    sort: adminUserSortSchema.safeParse(s.sort).data ?? 'createdAt',
    dir: s.dir === 'asc' ? 'asc' : 'desc',
    page: Math.max(1, Number.parseInt(s.page, 10) || 1),
    pageSize: [10, 25, 50, 100].includes(Number(s.pageSize)) ? Number(s.pageSize) : 25,
  };
  const q = useQuery(userListQuery(query));
  const onSearch = useCallback((v: string) => set({ q: v }), [set]);
  const pageCount = q.data ? Math.max(1, Math.ceil(q.data.total / q.data.pageSize)) : 1;
  const filtered = Boolean(query.q || query.role || query.banned);

  const sortProps = {
    sort: query.sort!,
    dir: query.dir!,
    onSort: (sort: string, dir: 'asc' | 'desc') => set({ sort, dir }),
  };

  return (
    <div className="space-y-4">
      <div role="search" aria-label="Find users" className="flex flex-wrap items-end gap-3">
        <SearchBox label="Search email or username" value={s.q} onChange={onSearch} placeholder="e.g. demo or @packvault.test" />
        <FilterSelect label="Role" value={s.role} onChange={(v) => set({ role: v })}>
          <option value="">All roles</option>
          <option value="user">Users</option>
          <option value="admin">Admins</option>
          <option value="owner">Owners</option>
        </FilterSelect>
        <FilterSelect label="Banned" value={s.banned} onChange={(v) => set({ banned: v })}>
          <option value="">Banned or not</option>
          <option value="true">Banned only</option>
          <option value="false">Not banned</option>
        </FilterSelect>
        <FilterSelect label="Per page" value={String(query.pageSize)} onChange={(v) => set({ pageSize: v })}>
          {[10, 25, 50, 100].map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </FilterSelect>
      </div>

      {q.isError ? (
        <Notice
          tone="danger"
          title="Users could not load"
          action={
            <Button size="sm" variant="secondary" onClick={() => void q.refetch()}>
              Try again
            </Button>
          }
        >
          {errorText(q.error)}
        </Notice>
      ) : !q.data ? (
        <SkeletonText lines={8} label="Loading users" />
      ) : q.data.items.length === 0 ? (
        <EmptyState
          icon={<Users />}
          title={filtered ? 'No user matches' : 'No users yet'}
          description={filtered ? 'Try a shorter search or clear the filters.' : 'Accounts appear here as people sign up.'}
          action={
            filtered ? (
              <Button variant="secondary" onClick={() => set({ q: '', role: '', banned: '' })}>
                Clear filters
              </Button>
            ) : null
          }
        />
      ) : (
        <>
          <p className="text-sm text-zinc-400" aria-live="polite">
            {plural(q.data.total, 'user')}
            {q.isFetching ? ' · updating…' : ''}
          </p>
          <Table caption="Users" captionHidden aria-busy={q.isFetching || undefined}>
            <THead>
              <Tr>
                <SortTh column="username" {...sortProps}>
                  Username
                </SortTh>
                <SortTh column="email" {...sortProps}>
                  Email
                </SortTh>
                <Th>Role</Th>
                <Th>Status</Th>
                <Th>Two-factor</Th>
                <SortTh column="createdAt" {...sortProps}>
                  Joined
                </SortTh>
                <SortTh column="lastSignInAt" {...sortProps}>
                  Last sign-in
                </SortTh>
              </Tr>
            </THead>
            <TBody>
              {q.data.items.map((u) => (
                <Tr key={u.id}>
                  <Td>
                    <Link
                      to="/admin/users/$id"
                      params={{ id: u.id }}
                      className="font-semibold text-violet-300 hover:text-violet-200 hover:underline"
                    >
                      {u.username}
                    </Link>
                  </Td>
                  <Td className="max-w-72 truncate" title={u.email}>
                    {u.email}
                  </Td>
                  <Td>
                    <RoleBadge role={u.role} />
                  </Td>
                  <Td>
                    <StatusBadge u={u} />
                  </Td>
                  <Td>{u.twoFactorEnabled ? <Badge tone="success">On</Badge> : <span className="text-zinc-400">Off</span>}</Td>
                  <Td className="whitespace-nowrap">{formatDateTime(u.createdAt)}</Td>
                  <Td className="whitespace-nowrap">{u.lastSignInAt ? formatDateTime(u.lastSignInAt) : <span className="text-zinc-400">Never</span>}</Td>
                </Tr>
              ))}
            </TBody>
          </Table>
          <Pagination page={query.page!} pageCount={pageCount} onPageChange={(p) => set({ page: String(p) })} label="Users pages" />
        </>
      )}
    </div>
  );
}
