import { useState } from 'react';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { VALUE_PROPOSAL_STATUSES, type ValueProposal, type ValueProposalStatus } from '@shared/contracts/value-proposals';
import { Badge, Button, ConfirmDialog, EmptyState, FormField, Money, Notice, Select, SkeletonText, Textarea, toast } from '@web/components/ui';
import { api, ApiClientError } from '@web/lib/api';
import { plural } from '@web/lib/format';

/**
 * /admin/value-reviews (ADR 0024): card value changes an admin made beyond the owner's daily
 * bound. The card keeps its value (what buyback, insurance and shipping pay on) until the owner
 * approves; the owner approves or rejects with a note, admins read.
 */

const STATUS_LABEL: Record<ValueProposalStatus, string> = { pending: 'Waiting', approved: 'Approved', rejected: 'Rejected', superseded: 'Superseded' };

/** The owner's queue; the card editor reads the pending one to show a card's change waiting in it. */
export const proposalsQuery = (status: ValueProposalStatus) =>
  queryOptions({
    queryKey: ['catalog', 'value-proposals', status],
    queryFn: ({ signal }) => api.get('/api/admin/catalog/value-proposals', { query: { status }, signal }),
  });

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function change(p: ValueProposal) {
  if (p.fromCents === 0) return null;
  const pct = ((p.toCents - p.fromCents) / p.fromCents) * 100;
  return `${pct > 0 ? '+' : ''}${Math.round(pct).toLocaleString()}%`;
}

function Decide({ p }: { p: ValueProposal }) {
  const qc = useQueryClient();
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | undefined>();
  const done = async (what: string) => {
    await qc.invalidateQueries({ queryKey: ['catalog', 'value-proposals'] });
    toast({ title: what, tone: 'success' });
  };
  const approve = useMutation({
    mutationFn: () => api.post('/api/admin/catalog/value-proposals/{id}/approve', { path: { id: p.id } }),
    onSuccess: () => done(`${p.cardName} now has its new value.`),
  });
  const reject = useMutation({
    mutationFn: () => api.post('/api/admin/catalog/value-proposals/{id}/reject', { path: { id: p.id }, body: { note } }),
    onSuccess: () => done(`${p.cardName} keeps its value.`),
  });
  const fail = (err: unknown) => {
    if (err instanceof ApiClientError) {
      setNoteError(err.fields?.note?.[0]);
      toast({ title: err.message, tone: 'danger' });
    }
    throw err;
  };
  return (
    <div className="flex flex-wrap gap-2">
      <ConfirmDialog
        trigger={<Button size="sm">Approve</Button>}
        title={`Approve the new value of ${p.cardName}?`}
        description={
          <>
            From now on buyback, insurance and shipping use <Money cents={p.toCents} /> for this card ({plural(p.copiesInVaults, 'copy', 'copies')} in vaults).
          </>
        }
        confirmLabel="Approve"
        onConfirm={() => approve.mutateAsync().catch(fail)}
      />
      <ConfirmDialog
        trigger={
          <Button size="sm" variant="secondary">
            Reject
          </Button>
        }
        title={`Reject the new value of ${p.cardName}?`}
        description="The card keeps the value it has. Say why, for the admin who proposed it."
        confirmLabel="Reject"
        variant="danger"
        onConfirm={() => reject.mutateAsync().catch(fail)}
      >
        <FormField label="Why" required error={noteError}>
          <Textarea value={note} onChange={(e) => setNote((e.target as HTMLTextAreaElement).value)} rows={3} maxLength={500} />
        </FormField>
      </ConfirmDialog>
    </div>
  );
}

function ProposalItem({ p, canDecide }: { p: ValueProposal; canDecide: boolean }) {
  const pct = change(p);
  return (
    <li className="min-w-0 rounded-xl border border-white/10 p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="min-w-0 font-semibold break-words text-white">
          {p.cardName}{' '}
          <span className="text-sm font-normal text-zinc-400">
            {p.setName} #{p.number}
          </span>
        </p>
        <Badge tone={p.status === 'pending' ? 'warning' : p.status === 'approved' ? 'success' : p.status === 'rejected' ? 'danger' : 'neutral'}>{STATUS_LABEL[p.status]}</Badge>
      </div>
      <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-zinc-400">Value in effect</dt>
          <dd>
            <Money cents={p.currentCents} />
          </dd>
        </div>
        <div>
          <dt className="text-zinc-400">Proposed</dt>
          <dd>
            <Money cents={p.toCents} /> {pct ? <span className="text-zinc-400">({pct})</span> : null}
          </dd>
        </div>
        <div>
          <dt className="text-zinc-400">Copies in vaults</dt>
          <dd>{p.copiesInVaults}</dd>
        </div>
        <div>
          <dt className="text-zinc-400">Proposed by</dt>
          <dd className="break-words">
            {p.proposedByName ?? 'a former admin'} · <time dateTime={p.createdAt}>{when(p.createdAt)}</time>
          </dd>
        </div>
      </dl>
      {p.decisionNote ? <p className="mt-2 text-sm text-zinc-300">Note: {p.decisionNote}</p> : null}
      {p.status === 'pending' && canDecide ? (
        <div className="mt-3">
          <Decide p={p} />
        </div>
      ) : null}
    </li>
  );
}

export function ValueReviews() {
  const [status, setStatus] = useState<ValueProposalStatus>('pending');
  const q = useQuery(proposalsQuery(status));
  return (
    <div className="space-y-4">
      {q.data && !q.data.callerIsOwner ? (
        <Notice tone="info" title="The owner decides">
          A value change bigger than admins may make alone in a day waits here; the card keeps its value until the owner approves. The limits are under
          Settings, Back office.
        </Notice>
      ) : null}
      <div className="max-w-xs">
        <FormField label="Show">
          <Select value={status} onChange={(e) => setStatus((e.target as HTMLSelectElement).value as ValueProposalStatus)}>
            {VALUE_PROPOSAL_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABEL[s]}
              </option>
            ))}
          </Select>
        </FormField>
      </div>
      {q.isPending ? (
        <SkeletonText lines={4} label="Loading value reviews" />
      ) : q.isError ? (
        <Notice tone="danger" title="Could not load the value reviews">
          Check your connection and reload the page.
        </Notice>
      ) : q.data.items.length === 0 ? (
        <EmptyState title={status === 'pending' ? 'Nothing waits for review' : `No ${STATUS_LABEL[status].toLowerCase()} changes`} description="Value changes held for the owner show up here." />
      ) : (
        <ul className="space-y-3" aria-label="Value changes">
          {q.data.items.map((p) => (
            <ProposalItem key={p.id} p={p} canDecide={q.data.callerIsOwner} />
          ))}
        </ul>
      )}
    </div>
  );
}
