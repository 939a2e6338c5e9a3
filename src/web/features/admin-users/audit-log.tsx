import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ScrollText } from 'lucide-react';
import { useCallback, useId } from 'react';
import type { AuditListQuery } from '@shared/contracts/audit';
import type { ApiResponse } from '@web/lib/api';
import { Badge, Button, EmptyState, Input, Label, Notice, Pagination, SkeletonText } from '@web/components/ui';
import { auditQuery, errorText, userListQuery, useUrlState } from './api';
import { formatDateTime, plural } from '@web/lib/format';
import { AuditDiff } from './audit-diff';
import { FilterSelect, SearchBox } from './controls';

type AuditEntry = ApiResponse<'/api/admin/audit'>['items'][number];

const DEFAULTS = { actorId: '', action: '', targetType: '', targetId: '', from: '', to: '', page: '1' };
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A yyyy-mm-dd from the URL as the start of that local day (ISO), or undefined. */
function dayStart(day: string, plusDays = 0): string | undefined {
  if (!DAY.test(day)) return undefined;
  const d = new Date(`${day}T00:00:00`);
  if (Number.isNaN(d.getTime())) return undefined;
  d.setDate(d.getDate() + plusDays);
  return d.toISOString();
}

function DateFilter({ label, value, onChange }: { label: string; value: string; onChange: (v: string) => void }) {
  const id = useId();
  return (
    <div className="w-full sm:w-44">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} type="date" value={value} onChange={(e) => onChange(e.target.value)} className="mt-1" />
    </div>
  );
}

function Target({ e }: { e: AuditEntry }) {
  if (e.targetType === 'user' && e.targetId) {
    return (
      <Link to="/admin/users/$id" params={{ id: e.targetId }} className="text-violet-300 hover:underline">
        user {e.targetId.slice(0, 10)}
        {e.targetId.length > 10 ? '…' : ''}
      </Link>
    );
  }
  return (
    <span>
      {e.targetType}
      {e.targetId ? <span className="font-mono text-xs text-zinc-400"> {e.targetId}</span> : null}
    </span>
  );
}

/** /admin/history: the audit log with filters (admin, action, target, date) and pagination, state in the URL. */
export function AuditLog() {
  const [s, set] = useUrlState(DEFAULTS);
  const page = Math.max(1, Number.parseInt(s.page, 10) || 1);
  const query: Partial<AuditListQuery> = {
    actorId: s.actorId || undefined,
    action: s.action || undefined,
    targetType: s.targetType || undefined,
    targetId: s.targetId || undefined,
    from: dayStart(s.from),
    to: dayStart(s.to, 1),
    page,
    pageSize: 25,
  };
  const q = useQuery(auditQuery(query));
  const admins = useQuery(userListQuery({ role: 'admin', pageSize: 100, sort: 'username', dir: 'asc' }));
  const owners = useQuery(userListQuery({ role: 'owner', pageSize: 100, sort: 'username', dir: 'asc' }));
  const staff = [...(owners.data?.items ?? []), ...(admins.data?.items ?? [])];
  const onTargetType = useCallback((v: string) => set({ targetType: v }), [set]);
  const onTargetId = useCallback((v: string) => set({ targetId: v }), [set]);
  const filtered = Object.entries(s).some(([k, v]) => k !== 'page' && v !== '');
  const pageCount = q.data ? Math.max(1, Math.ceil(q.data.total / q.data.pageSize)) : 1;
  const actions = [...new Set([...(q.data?.actions ?? []), ...(s.action ? [s.action] : [])])].sort();
  const badRange = s.from && s.to && s.from > s.to;

  return (
    <div className="space-y-4">
      <div role="search" aria-label="Filter the audit log" className="flex flex-wrap items-end gap-3">
        <FilterSelect label="Admin" value={s.actorId} onChange={(v) => set({ actorId: v })}>
          <option value="">Any admin</option>
          {staff.map((a) => (
            <option key={a.id} value={a.id}>
              {a.username} ({a.email})
            </option>
          ))}
          {s.actorId && !staff.some((a) => a.id === s.actorId) ? <option value={s.actorId}>{s.actorId}</option> : null}
        </FilterSelect>
        <FilterSelect label="Action" value={s.action} onChange={(v) => set({ action: v })}>
          <option value="">Any action</option>
          {actions.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </FilterSelect>
        <SearchBox label="Target type" value={s.targetType} onChange={onTargetType} placeholder="e.g. user, card" />
        <SearchBox label="Target id" value={s.targetId} onChange={onTargetId} />
        <DateFilter label="From (day)" value={s.from} onChange={(v) => set({ from: v })} />
        <DateFilter label="To (day, inclusive)" value={s.to} onChange={(v) => set({ to: v })} />
        {filtered ? (
          <Button variant="ghost" onClick={() => set({ actorId: '', action: '', targetType: '', targetId: '', from: '', to: '' })}>
            Clear filters
          </Button>
        ) : null}
      </div>
      {badRange ? <Notice tone="warning">The “From” day is after the “To” day, so nothing can match. Swap them.</Notice> : null}

      {q.isError ? (
        <Notice
          tone="danger"
          title="The audit log could not load"
          action={
            <Button size="sm" variant="secondary" onClick={() => void q.refetch()}>
              Try again
            </Button>
          }
        >
          {errorText(q.error)}
        </Notice>
      ) : !q.data ? (
        <SkeletonText lines={8} label="Loading the audit log" />
      ) : q.data.items.length === 0 ? (
        <EmptyState
          icon={<ScrollText />}
          title={filtered ? 'No entry matches' : 'Nothing logged yet'}
          description={filtered ? 'Widen the dates or clear a filter.' : 'Every admin action appears here as it happens.'}
        />
      ) : (
        <>
          <p className="text-sm text-zinc-400" aria-live="polite">
            {plural(q.data.total, 'entry', 'entries')}, newest first
            {q.isFetching ? ' · updating…' : ''}
          </p>
          <ol aria-label="Audit entries" className="space-y-3">
            {q.data.items.map((e) => (
              <li key={e.id} className="rounded-2xl border border-white/10 bg-surface/80 p-4 sm:p-5">
                <div className="mb-3 flex flex-wrap items-center gap-x-3 gap-y-1.5 text-sm">
                  <Badge tone="violet" className="font-mono">
                    {e.action}
                  </Badge>
                  <span className="text-zinc-200">
                    by{' '}
                    {e.actorId ? (
                      <Link to="/admin/users/$id" params={{ id: e.actorId }} className="font-medium text-violet-300 hover:underline">
                        {e.actorUsername ?? e.actorId}
                      </Link>
                    ) : (
                      <span className="text-zinc-400">system</span>
                    )}
                  </span>
                  <span className="text-zinc-400">on</span>
                  <Target e={e} />
                  <span className="ml-auto text-xs text-zinc-400">
                    <time dateTime={e.createdAt}>{formatDateTime(e.createdAt)}</time>
                    {e.ip ? ` · IP ${e.ip}` : ''}
                  </span>
                </div>
                <AuditDiff before={e.before} after={e.after} names={q.data.names} />
              </li>
            ))}
          </ol>
          <Pagination page={page} pageCount={pageCount} onPageChange={(p) => set({ page: String(p) })} label="Audit log pages" />
        </>
      )}
    </div>
  );
}
