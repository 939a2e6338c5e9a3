import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Inbox } from 'lucide-react';
import {
  SHIPMENT_STATUS_LABEL,
  SHIPMENT_STATUSES,
  type BulkAdvanceResult,
  type ShipmentStatus,
} from '@shared/contracts/shipping';
import {
  Button,
  Checkbox,
  EmptyState,
  Money,
  Notice,
  Pagination,
  SkeletonText,
  TBody,
  THead,
  Table,
  Td,
  Th,
  Tr,
  cn,
  toast,
} from '@web/components/ui';
import { FilterSelect, SearchBox, StatusChips } from '@web/components/ui/list-controls';
import { useUrlState } from '@web/lib/url-state';
import { adminShipmentsQuery, originsQuery, useBulkAdvance, type AdminShipmentQuery } from './api';
import { LoadError, StatusBadge, errorText, formatDate } from './parts';
import { plural } from '@web/lib/format';

const PAGE_SIZE = 25;
const URL_DEFAULTS = { status: 'open', originId: '', age: '', q: '', page: '1' };

/** Age filters in whole days since the request. */
const AGES: Record<string, { label: string; minAgeDays?: number; maxAgeDays?: number }> = {
  '': { label: 'Any age' },
  today: { label: 'Today', maxAgeDays: 0 },
  '1-2': { label: '1–2 days', minAgeDays: 1, maxAgeDays: 2 },
  '3+': { label: '3 days or more', minAgeDays: 3 },
  '7+': { label: '7 days or more', minAgeDays: 7 },
};

/** /admin/shipping: the queue, oldest first, with counts per status and bulk moves. */
export function AdminShippingQueue() {
  const [s, set] = useUrlState(URL_DEFAULTS);
  const page = Number(s.page) || 1;
  const age = AGES[s.age] ?? AGES['']!;
  const q: AdminShipmentQuery = {
    status: s.status as AdminShipmentQuery['status'],
    page,
    pageSize: PAGE_SIZE,
    ...(s.originId ? { originId: s.originId } : {}),
    ...(s.q ? { q: s.q } : {}),
    ...(age.minAgeDays !== undefined ? { minAgeDays: age.minAgeDays } : {}),
    ...(age.maxAgeDays !== undefined ? { maxAgeDays: age.maxAgeDays } : {}),
  };
  const list = useQuery(adminShipmentsQuery(q));
  const origins = useQuery(originsQuery);
  const data = list.data;
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [result, setResult] = useState<BulkAdvanceResult | null>(null);
  const bulk = useBulkAdvance();

  const counts = data?.counts;
  const openCount = (counts?.requested ?? 0) + (counts?.packing ?? 0);
  const items = data?.items ?? [];
  const allSelected = items.length > 0 && items.every((i) => selected.has(i.id));
  const toggle = (id: string, on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const chosen = items.filter((i) => selected.has(i.id));
  const canPack = chosen.length > 0 && chosen.every((i) => i.status === 'requested');
  const canDeliver = chosen.length > 0 && chosen.every((i) => i.status === 'shipped');

  const advance = (to: 'packing' | 'delivered') =>
    bulk.mutate(
      { ids: chosen.map((i) => i.id), to },
      {
        onSuccess: (r) => {
          setResult(r);
          setSelected(new Set());
          if (r.failed === 0) toast.success(`${plural(r.advanced, 'shipment')} moved to ${SHIPMENT_STATUS_LABEL[to].toLowerCase()}`);
        },
        onError: (err) => toast.error('Nothing was moved', errorText(err)),
      },
    );

  const statusChips: Array<{ value: string; label: string; count?: number }> = [
    { value: 'open', label: 'Open', count: openCount },
    ...SHIPMENT_STATUSES.map((st) => ({ value: st, label: SHIPMENT_STATUS_LABEL[st], count: counts?.[st] })),
    { value: 'all', label: 'All' },
  ];

  return (
    <div className="space-y-5">
      <StatusChips
        label="Shipments by status"
        chips={statusChips}
        value={s.status}
        onChange={(status) => {
          setSelected(new Set());
          set({ status });
        }}
      />

      <div role="search" aria-label="Filter shipments" className="flex flex-wrap items-end gap-3">
        <SearchBox label="Search" value={s.q} onChange={(v) => set({ q: v })} placeholder="Reference, username or email" />
        <FilterSelect label="Origin" value={s.originId} onChange={(v) => set({ originId: v })}>
          <option value="">All origins</option>
          {origins.data?.items.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
              {o.archived ? ' (archived)' : ''}
            </option>
          ))}
        </FilterSelect>
        <FilterSelect label="Age" value={s.age} onChange={(v) => set({ age: v })} options={Object.entries(AGES).map(([value, a]) => ({ value, label: a.label }))} />
      </div>

      {result && result.failed > 0 ? (
        <Notice tone="warning" title={`${result.advanced} moved, ${result.failed} not moved`}>
          <ul className="list-disc pl-5">
            {result.results
              .filter((r) => !r.ok)
              .map((r) => (
                <li key={r.id}>
                  {items.find((i) => i.id === r.id)?.reference ?? r.id}: {r.error?.message}
                </li>
              ))}
          </ul>
          <p className="mt-1">The others moved. Refresh the list and check these one by one.</p>
        </Notice>
      ) : null}

      {list.isError ? (
        <LoadError what="the shipping queue" error={list.error} retry={() => void list.refetch()} />
      ) : !data ? (
        <SkeletonText lines={6} label="Loading the queue" />
      ) : items.length === 0 ? (
        <EmptyState icon={<Inbox />} title="Nothing here" description={s.status === 'open' ? 'No shipment is waiting. New requests appear here, oldest first.' : 'No shipment matches these filters.'} />
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-3" role="group" aria-label="Bulk actions">
            <span className="text-sm text-zinc-300" aria-live="polite">
              {selected.size} selected
            </span>
            <Button size="sm" variant="secondary" disabled={!canPack} loading={bulk.isPending && bulk.variables?.to === 'packing'} onClick={() => advance('packing')}>
              Mark packing
            </Button>
            <Button size="sm" variant="secondary" disabled={!canDeliver} loading={bulk.isPending && bulk.variables?.to === 'delivered'} onClick={() => advance('delivered')}>
              Mark delivered
            </Button>
            {selected.size > 0 && !canPack && !canDeliver ? (
              <span className="text-sm text-zinc-400">Select only requested shipments to pack, or only shipped ones to deliver.</span>
            ) : null}
          </div>
          <Table caption={`Shipments (${data.total}), oldest first`} captionHidden>
            <THead>
              <Tr>
                <Th>
                  <Checkbox
                    aria-label="Select every shipment on this page"
                    checked={allSelected}
                    onChange={(e) => setSelected(e.target.checked ? new Set(items.map((i) => i.id)) : new Set())}
                  />
                </Th>
                <Th>Shipment</Th>
                <Th>Status</Th>
                <Th>User</Th>
                <Th className="text-right">Cards</Th>
                <Th>Picked</Th>
                <Th>Origin</Th>
                <Th>Ship to</Th>
                <Th className="text-right">Fee</Th>
                <Th>Requested</Th>
              </Tr>
            </THead>
            <TBody>
              {items.map((it) => (
                <Tr key={it.id}>
                  <Td>
                    <Checkbox aria-label={`Select ${it.reference}`} checked={selected.has(it.id)} onChange={(e) => toggle(it.id, e.target.checked)} />
                  </Td>
                  <Td>
                    <Link to="/admin/shipping/$id" params={{ id: it.id }} className="font-medium text-violet-300 underline underline-offset-4 hover:text-violet-200">
                      {it.reference}
                    </Link>
                  </Td>
                  <Td>
                    <StatusBadge status={it.status as ShipmentStatus} />
                  </Td>
                  <Td>{it.user.username ?? it.user.email ?? it.user.id}</Td>
                  <Td className="text-right tabular-nums">{it.cardCount}</Td>
                  <Td className="tabular-nums">
                    {it.pickedCount}/{it.cardCount}
                  </Td>
                  <Td>{it.origin?.name ?? '—'}</Td>
                  <Td className="max-w-48 truncate">{it.shipTo}</Td>
                  <Td className="text-right">
                    <Money cents={it.feeCents} />
                  </Td>
                  <Td>
                    <time dateTime={it.createdAt}>{formatDate(it.createdAt)}</time>
                    <span className={cn('ml-1 text-xs', it.ageDays >= 3 && (it.status === 'requested' || it.status === 'packing') ? 'text-amber-300' : 'text-zinc-400')}>
                      ({it.ageDays} d)
                    </span>
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
          <Pagination page={page} pageCount={Math.ceil(data.total / PAGE_SIZE)} onPageChange={(p) => set({ page: String(p) }, { keepPage: true })} label="Queue pages" />
        </>
      )}
    </div>
  );
}
