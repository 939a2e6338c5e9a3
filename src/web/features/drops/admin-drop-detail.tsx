import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Users } from 'lucide-react';
import { Button, ConfirmDialog, EmptyState, Pagination, Panel, SkeletonText, TBody, THead, Table, Td, Th, Tr, toast } from '@web/components/ui';
import { errorText } from '@web/lib/api-errors';
import { ENTRIES_PAGE_SIZE, adminDropEntriesQuery, adminDropQuery, useCancelDrop, type AdminDrop } from './admin-api';
import { DropForm } from './admin-drop-form';
import { DROP_STATUS_LABEL, DropStatusBadge, LoadError, formatDateTime } from './admin-parts';
import { plural, verb } from '@web/lib/format';

/** /admin/daily/{id}: the drop, its edit form while it may change, cancel, the entries, the proof and the winners. */
export function AdminDropScreen({ id }: { id: string }) {
  const q = useQuery(adminDropQuery(id));
  if (q.isError) return <LoadError what="this drop" error={q.error} retry={() => void q.refetch()} />;
  if (!q.data) return <SkeletonText lines={8} label="Loading the drop" />;
  const d = q.data.drop;
  const editable = d.status === 'scheduled' || d.status === 'open';
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        <DropStatusBadge status={d.status} />
        <h2 className="text-lg font-semibold text-white">{d.title}</h2>
        <span className="text-sm text-zinc-300">
          {plural(d.entryCount, 'entry', 'entries')} · {plural(d.winnerCount, 'winner')}
          {d.templateId ? ' · from a recurring drop' : ''}
        </span>
        {editable ? (
          <div className="sm:ml-auto">
            <CancelDrop drop={d} />
          </div>
        ) : null}
      </div>
      <div className="grid gap-6 lg:grid-cols-[3fr_2fr]">
        <div className="min-w-0 space-y-6">
          {editable ? (
            <Panel title="Edit" description="Every change is recorded in the audit log.">
              <div>
                <DropForm key={`${d.id}-${d.status}`} existing={d} />
              </div>
            </Panel>
          ) : (
            <Summary drop={d} />
          )}
          <Entries id={d.id} drawn={d.status === 'closed'} />
        </div>
        <div className="order-first min-w-0 space-y-6 lg:order-none">
          <Timing drop={d} />
          <Proof drop={d} />
          <Winners drop={d} />
        </div>
      </div>
    </div>
  );
}

function CancelDrop({ drop: d }: { drop: AdminDrop }) {
  const cancel = useCancelDrop(d.id);
  const units = d.prizes.reduce((n, p) => n + p.quantity, 0);
  return (
    <ConfirmDialog
      trigger={<Button variant="danger">Cancel drop</Button>}
      title={`Cancel “${d.title}”?`}
      description={`Nobody can enter it any more and nothing is drawn. Its ${plural(units, 'prize card')} ${verb(units, 'goes', 'go')} back to stock.${d.entryCount ? ` The ${plural(d.entryCount, 'entrant')} ${verb(d.entryCount, 'sees', 'see')} it as cancelled.` : ''}`}
      confirmLabel="Cancel drop"
      cancelLabel="Keep it"
      variant="danger"
      onConfirm={async () => {
        try {
          await cancel.mutateAsync();
          toast.success('Drop cancelled', 'Its prizes are back in stock.');
        } catch (err) {
          toast.error('The drop was not cancelled', errorText(err));
          throw err;
        }
      }}
    />
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-[9rem_1fr] gap-2 py-1.5 text-sm">
      <dt className="text-zinc-400">{label}</dt>
      <dd className="min-w-0 break-words text-zinc-100">{children}</dd>
    </div>
  );
}

/** A drop that can no longer change: what it was. */
function Summary({ drop: d }: { drop: AdminDrop }) {
  return (
    <Panel title="Drop" description={`This drop is ${DROP_STATUS_LABEL[d.status].toLowerCase()}: it can no longer be edited.`}>
      <dl>
        <Row label="Description">{d.description || '—'}</Row>
        <Row label="Winners">{d.winnerCount}</Row>
        <Row label="Eligibility">
          {d.requireVerifiedEmail ? 'Verified email' : 'Any email'}
          {d.minAccountAgeDays ? `, account at least ${d.minAccountAgeDays} days old` : ''}
        </Row>
        <Row label="Prizes">
          {d.prizes.map((p) => (
            <span key={p.card.id} className="block">
              {p.quantity} × {p.card.name} ({p.card.setName} #{p.card.number})
            </span>
          ))}
        </Row>
      </dl>
    </Panel>
  );
}

function Timing({ drop: d }: { drop: AdminDrop }) {
  return (
    <Panel title="Timing">
      <dl>
        <Row label="Opens">
          <time dateTime={d.opensAt}>{formatDateTime(d.opensAt)}</time>
        </Row>
        <Row label="Closes">
          <time dateTime={d.closesAt}>{formatDateTime(d.closesAt)}</time>
        </Row>
        {d.drawnAt ? (
          <Row label="Drawn">
            <time dateTime={d.drawnAt}>{formatDateTime(d.drawnAt)}</time>
          </Row>
        ) : null}
        {d.cancelledAt ? (
          <Row label="Cancelled">
            <time dateTime={d.cancelledAt}>{formatDateTime(d.cancelledAt)}</time>
          </Row>
        ) : null}
        <Row label="Created">
          <time dateTime={d.createdAt}>{formatDateTime(d.createdAt)}</time>
        </Row>
      </dl>
    </Panel>
  );
}

function Hash({ value }: { value: string }) {
  return <code className="block font-mono text-xs break-all text-zinc-200">{value}</code>;
}

function Proof({ drop: d }: { drop: AdminDrop }) {
  return (
    <Panel title="Proof" description="The commitment is published when the drop opens; the seed and entry-list hash when it is drawn.">
      <dl>
        <Row label="Commitment">{d.commitment ? <Hash value={d.commitment} /> : <span className="text-zinc-400">Made when the drop opens</span>}</Row>
        <Row label="Seed">{d.seed ? <Hash value={d.seed} /> : <span className="text-zinc-400">Revealed after the draw</span>}</Row>
        <Row label="Entry-list hash">{d.entryListHash ? <Hash value={d.entryListHash} /> : <span className="text-zinc-400">Published with the seed</span>}</Row>
      </dl>
      {d.status === 'closed' ? (
        <p className="mt-3 text-sm">
          <Link to="/daily-drop-winners" className="text-violet-300 underline underline-offset-4">
            Past drops and their proofs
          </Link>
        </p>
      ) : null}
    </Panel>
  );
}

function Winners({ drop: d }: { drop: AdminDrop }) {
  return (
    <Panel title="Winners">
      {d.winners.length === 0 ? (
        <p className="text-sm text-zinc-400">
          {d.status === 'closed' ? 'Nobody entered: no winner, and the prizes went back to stock.' : d.status === 'cancelled' ? 'Cancelled: no draw.' : 'Drawn when the drop closes.'}
        </p>
      ) : (
        <ol className="space-y-1.5 text-sm" aria-label="Winners in the order drawn">
          {d.winners.map((w) => (
            <li key={w.place} className="flex flex-wrap gap-x-2">
              <span className="tabular-nums text-zinc-400">#{w.place + 1}</span>
              <span className="font-medium text-white">{w.username}</span>
              <span className="text-zinc-300">{w.card.name}</span>
              <code className="font-mono text-xs text-zinc-400">{w.entryId}</code>
            </li>
          ))}
        </ol>
      )}
    </Panel>
  );
}

function Entries({ id, drawn }: { id: string; drawn: boolean }) {
  const [page, setPage] = useState(1);
  const q = useQuery(adminDropEntriesQuery(id, page));
  const data = q.data;
  return (
    <Panel title="Entries" description="Oldest first. The entry id is the one in the published entry list.">
      <div>
        {q.isError ? (
          <LoadError what="the entries" error={q.error} retry={() => void q.refetch()} />
        ) : !data ? (
          <SkeletonText lines={4} label="Loading entries" />
        ) : data.items.length === 0 ? (
          <EmptyState icon={<Users />} title="No entry yet" description="Entries appear here as people enter." />
        ) : (
          <>
            <Table caption={`Entries (${data.total})`} captionHidden>
              <THead>
                <Tr>
                  <Th>Who</Th>
                  <Th>Entry id</Th>
                  <Th>Entered</Th>
                  <Th>In the draw</Th>
                  <Th>Place won</Th>
                </Tr>
              </THead>
              <TBody>
                {data.items.map((e) => (
                  <Tr key={e.entryId}>
                    <Td>
                      <Link to="/admin/users/$id" params={{ id: e.userId }} className="text-violet-300 underline underline-offset-4">
                        {e.username}
                      </Link>
                    </Td>
                    <Td>
                      <code className="font-mono text-xs">{e.entryId}</code>
                    </Td>
                    <Td>
                      <time dateTime={e.createdAt}>{formatDateTime(e.createdAt)}</time>
                    </Td>
                    <Td>{e.inDraw ? 'Yes' : drawn ? 'No' : 'Not drawn yet'}</Td>
                    <Td>{e.place === null ? '—' : `#${e.place + 1}`}</Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
            <p className="mt-3 text-sm text-zinc-400" aria-live="polite">
              {plural(data.total, 'entry', 'entries')}
            </p>
            <Pagination page={page} pageCount={Math.max(1, Math.ceil(data.total / ENTRIES_PAGE_SIZE))} onPageChange={setPage} label="Entry pages" />
          </>
        )}
      </div>
    </Panel>
  );
}
