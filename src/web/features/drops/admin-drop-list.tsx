import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { Gift, Plus, Repeat } from 'lucide-react';
import { DROP_STATUSES, type DropStatus } from '@shared/contracts/drops';
import {
  Badge,
  Button,
  ConfirmDialog,
  Dialog,
  EmptyState,
  Pagination,
  Panel,
  SkeletonText,
  TBody,
  THead,
  Table,
  Td,
  Th,
  Tr,
  toast,
} from '@web/components/ui';
import { StatusChips } from '@web/components/ui/list-controls';
import { errorText } from '@web/lib/api-errors';
import { useUrlState } from '@web/lib/url-state';
import { adminDropsQuery, dropTemplatesQuery, useDeleteTemplate, useUpdateTemplate } from './admin-api';
import { DropForm } from './admin-drop-form';
import { DROP_STATUS_LABEL, DropStatusBadge, LoadError, formatDateTime } from './admin-parts';
import { plural } from '@web/lib/format';

const PAGE_SIZE = 20;
const URL_DEFAULTS = { status: '', page: '1' };
const COUNT_KEY: Record<DropStatus, 'upcoming' | 'open' | 'drawing' | 'closed' | 'cancelled'> = {
  scheduled: 'upcoming',
  open: 'open',
  drawing: 'drawing',
  closed: 'closed',
  cancelled: 'cancelled',
};

/** "New drop": the form in a dialog; a one-off drop opens its page once scheduled. */
export function NewDropButton() {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  return (
    <>
      <Button onClick={() => setOpen(true)}>
        <Plus aria-hidden="true" className="size-4" /> New drop
      </Button>
      {open ? (
        <Dialog open onOpenChange={(o) => !o && setOpen(false)} title="New drop" description="A free raffle for cards from stock." className="max-w-2xl">
          <DropForm
            existing={null}
            onDone={(id) => {
              setOpen(false);
              if (id) void navigate({ to: '/admin/daily/$id', params: { id } });
            }}
          />
        </Dialog>
      ) : null}
    </>
  );
}

/** /admin/daily: every drop, newest opening first, with counts per status. */
export function AdminDropList() {
  const [s, set] = useUrlState(URL_DEFAULTS);
  const page = Number(s.page) || 1;
  const status = (DROP_STATUSES as readonly string[]).includes(s.status) ? (s.status as DropStatus) : undefined;
  const list = useQuery(adminDropsQuery({ status, page, pageSize: PAGE_SIZE }));
  const data = list.data;
  const counts = data?.counts;
  const total = counts ? Object.values(counts).reduce((a, b) => a + b, 0) : undefined;
  const chips: Array<{ value: string; label: string; count: number | undefined }> = [
    { value: '', label: 'All', count: total },
    ...DROP_STATUSES.map((st) => ({ value: st, label: DROP_STATUS_LABEL[st], count: counts?.[COUNT_KEY[st]] })),
  ];
  return (
    <div className="space-y-6">
      <StatusChips label="Drops by status" chips={chips} value={s.status} onChange={(status) => set({ status })} />

      {list.isError ? (
        <LoadError what="the drops" error={list.error} retry={() => void list.refetch()} />
      ) : !data ? (
        <SkeletonText lines={6} label="Loading drops" />
      ) : data.items.length === 0 ? (
        <EmptyState
          icon={<Gift />}
          title={status ? `No ${DROP_STATUS_LABEL[status].toLowerCase()} drop` : 'No drop yet'}
          description={status ? 'Pick another status above.' : 'Schedule one with “New drop”: its prizes leave stock until it is drawn.'}
        />
      ) : (
        <>
          <Table caption={`Drops (${data.total}), newest opening first`} captionHidden>
            <THead>
              <Tr>
                <Th>Drop</Th>
                <Th>Status</Th>
                <Th>Opens</Th>
                <Th>Closes</Th>
                <Th>Prizes</Th>
                <Th className="text-right">Winners</Th>
                <Th className="text-right">Entries</Th>
              </Tr>
            </THead>
            <TBody>
              {data.items.map((d) => (
                <Tr key={d.id}>
                  <Td>
                    <Link to="/admin/daily/$id" params={{ id: d.id }} className="font-medium text-violet-300 underline underline-offset-4 hover:text-violet-200">
                      {d.title}
                    </Link>
                    {d.templateId ? (
                      <Badge tone="violet" className="ml-2">
                        Daily
                      </Badge>
                    ) : null}
                  </Td>
                  <Td>
                    <DropStatusBadge status={d.status} />
                  </Td>
                  <Td>
                    <time dateTime={d.opensAt}>{formatDateTime(d.opensAt)}</time>
                  </Td>
                  <Td>
                    <time dateTime={d.closesAt}>{formatDateTime(d.closesAt)}</time>
                  </Td>
                  <Td className="max-w-56">
                    {d.prizes.map((p) => (
                      <span key={p.card.id} className="block truncate">
                        {p.quantity} × {p.card.name}
                      </span>
                    ))}
                  </Td>
                  <Td className="text-right tabular-nums">{d.winnerCount}</Td>
                  <Td className="text-right tabular-nums">{d.entryCount}</Td>
                </Tr>
              ))}
            </TBody>
          </Table>
          <Pagination
            page={page}
            pageCount={Math.max(1, Math.ceil(data.total / PAGE_SIZE))}
            onPageChange={(p) => set({ page: String(p) }, { keepPage: true })}
            label="Drop pages"
          />
        </>
      )}
      <RecurringDrops />
    </div>
  );
}

/** The recurring daily templates: the job schedules each day's drop from them. */
function RecurringDrops() {
  const q = useQuery(dropTemplatesQuery);
  const update = useUpdateTemplate();
  const del = useDeleteTemplate();
  const items = q.data?.items ?? [];
  return (
    <Panel title="Recurring daily drops" description="Each active one schedules a drop every day at its time (UTC). Pausing or deleting one leaves drops already scheduled.">
      <div>
        {q.isError ? (
          <LoadError what="the recurring drops" error={q.error} retry={() => void q.refetch()} />
        ) : !q.data ? (
          <SkeletonText lines={3} label="Loading recurring drops" />
        ) : items.length === 0 ? (
          <EmptyState icon={<Repeat />} title="No recurring drop" description="Choose “Every day” in the new drop form to make one." />
        ) : (
          <ul className="divide-y divide-white/5" aria-label="Recurring drops">
            {items.map((t) => (
              <li key={t.id} className="flex flex-wrap items-center gap-3 py-3">
                <div className="min-w-48 flex-1">
                  <p className="font-medium text-white">
                    {t.title} {t.active ? <Badge tone="success">Active</Badge> : <Badge tone="neutral">Paused</Badge>}
                  </p>
                  <p className="text-sm text-zinc-400">
                    Opens {t.openTime} UTC for {t.durationMinutes} min · {plural(t.winnerCount, 'winner')} ·{' '}
                    {t.prizes.reduce((n, p) => n + p.quantity, 0)} prize cards a day
                  </p>
                </div>
                <Button
                  size="sm"
                  variant="secondary"
                  loading={update.isPending && update.variables?.id === t.id}
                  onClick={() =>
                    update.mutate(
                      { id: t.id, patch: { active: !t.active } },
                      {
                        onSuccess: () => toast.success(t.active ? 'Recurring drop paused' : 'Recurring drop resumed', t.title),
                        onError: (err) => toast.error('Nothing changed', errorText(err)),
                      },
                    )
                  }
                >
                  {t.active ? 'Pause' : 'Resume'}
                  <span className="sr-only"> {t.title}</span>
                </Button>
                <ConfirmDialog
                  trigger={
                    <Button size="sm" variant="ghost" className="text-red-300">
                      Delete<span className="sr-only"> {t.title}</span>
                    </Button>
                  }
                  title={`Delete “${t.title}”?`}
                  description="No new drop is made from it. Drops already scheduled stay; cancel them one by one if needed."
                  confirmLabel="Delete"
                  variant="danger"
                  onConfirm={async () => {
                    try {
                      await del.mutateAsync(t.id);
                      toast.success('Recurring drop deleted', t.title);
                    } catch (err) {
                      toast.error('Not deleted', errorText(err));
                      throw err;
                    }
                  }}
                />
              </li>
            ))}
          </ul>
        )}
      </div>
    </Panel>
  );
}
