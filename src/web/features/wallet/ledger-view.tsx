import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Download, ScrollText } from 'lucide-react';
import { useId, useState } from 'react';
import { LEDGER_KIND_LABELS, LEDGER_KINDS, type LedgerEntry, type LedgerKind } from '@shared/contracts/wallet';
import {
  Badge,
  Button,
  buttonClasses,
  EmptyState,
  FormField,
  Input,
  Money,
  Notice,
  Pagination,
  Select,
  SkeletonText,
  Table,
  TBody,
  Td,
  Th,
  THead,
  Tr,
  VisuallyHidden,
  cn,
} from '@web/components/ui';
import { historyParams, ledgerQuery, type HistoryFilter } from './api';
import { referenceLink } from './format';
import { formatDateTime, plural } from '@web/lib/format';

const PAGE_SIZE = 25;

const refLink = 'text-violet-300 underline-offset-2 hover:text-violet-200 hover:underline';

/**
 * A pack purchase: "Opened 2 packs · proof 1 · proof 2", each proof the opening's fairness check,
 * and what is still unopened. Admins get the proofs too (the opening API shows them any opening).
 */
function PurchaseReference({ purchase, linked }: { purchase: NonNullable<LedgerEntry['purchase']>; linked: boolean }) {
  const opened = purchase.openingIds.length;
  const unopened = purchase.packs - opened;
  return (
    <span className="inline-flex flex-wrap items-baseline gap-x-1.5 text-zinc-300">
      {opened > 0 ? (
        <>
          {linked ? (
            <Link to="/collect" className={refLink}>
              Opened {plural(opened, 'pack')}
            </Link>
          ) : (
            <span>Opened {plural(opened, 'pack')}</span>
          )}
          {purchase.openingIds.map((id, i) => (
            <span key={id}>
              <span aria-hidden="true" className="text-zinc-500">
                ·{' '}
              </span>
              <Link
                to={'/fairness' as never}
                search={{ opening: id } as never}
                className={refLink}
              >
                {opened === 1 ? 'proof' : `proof ${i + 1}`}
                <VisuallyHidden>{opened === 1 ? ': fairness proof of this opening' : `: fairness proof of opening ${i + 1} of ${opened}`}</VisuallyHidden>
              </Link>
            </span>
          ))}
        </>
      ) : null}
      {unopened > 0 ? (
        <span>
          {opened > 0 ? (
            <span aria-hidden="true" className="text-zinc-500">
              ·{' '}
            </span>
          ) : null}
          {linked ? (
            <Link to="/open-pack" className={refLink}>
              {plural(unopened, 'pack')} unopened
            </Link>
          ) : (
            `${plural(unopened, 'pack')} unopened`
          )}
        </span>
      ) : null}
    </span>
  );
}

function Reference({ entry, linked }: { entry: LedgerEntry; linked: boolean }) {
  if (entry.purchase) return <PurchaseReference purchase={entry.purchase} linked={linked} />;
  const ref = referenceLink(entry);
  if (!ref) return <span className="text-zinc-500">—</span>;
  if (!linked || !ref.to) {
    return (
      <span className="text-zinc-300">
        {ref.label}
        {!linked && entry.referenceId ? <span className="ml-1 font-mono text-xs text-zinc-400">{entry.referenceId.slice(0, 12)}</span> : null}
      </span>
    );
  }
  return (
    <Link to={ref.to as never} search={ref.search as never} className="text-violet-300 underline-offset-2 hover:text-violet-200 hover:underline">
      {ref.label}
    </Link>
  );
}

export interface LedgerViewProps {
  /** Whose ledger: the signed-in user's, or a user's as seen by an admin. */
  userId?: string;
}

/** The ledger with kind and date filters, pages and a CSV download of the same filter. */
export function LedgerView({ userId }: LedgerViewProps) {
  const admin = Boolean(userId);
  const [kind, setKind] = useState<LedgerKind | ''>('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const filter: HistoryFilter = {
    ...(kind ? { kind: [kind] } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    page,
    pageSize: PAGE_SIZE,
  };
  const q = useQuery(ledgerQuery(userId, filter));
  const pageCount = q.data ? Math.max(1, Math.ceil(q.data.total / q.data.pageSize)) : 1;
  const csvBase = admin ? `/api/admin/users/${encodeURIComponent(userId!)}/history.csv` : '/api/wallet/history.csv';
  const csvHref = `${csvBase}?${historyParams({ kind: filter.kind, from: filter.from, to: filter.to })}`;
  const datesBad = Boolean(from && to && from > to);
  const formId = useId();
  const filtered = Boolean(kind || from || to);

  return (
    <div className="space-y-5">
      <form
        aria-label="Filter the history"
        id={formId}
        onSubmit={(e) => e.preventDefault()}
        className="grid gap-4 rounded-2xl border border-white/10 bg-surface/60 p-4 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_1fr_auto] lg:items-end"
      >
        <FormField label="Kind">
          <Select
            value={kind}
            onChange={(e) => {
              setKind(e.target.value as LedgerKind | '');
              setPage(1);
            }}
          >
            <option value="">All kinds</option>
            {LEDGER_KINDS.map((k) => (
              <option key={k} value={k}>
                {LEDGER_KIND_LABELS[k]}
              </option>
            ))}
          </Select>
        </FormField>
        <FormField label="From (UTC)">
          <Input
            type="date"
            value={from}
            max={to || undefined}
            onChange={(e) => {
              setFrom(e.target.value);
              setPage(1);
            }}
          />
        </FormField>
        <FormField label="To (UTC)" error={datesBad ? 'The end date is before the start date.' : null}>
          <Input
            type="date"
            value={to}
            min={from || undefined}
            onChange={(e) => {
              setTo(e.target.value);
              setPage(1);
            }}
          />
        </FormField>
        <div className="flex flex-wrap gap-2">
          {filtered ? (
            <Button
              variant="ghost"
              onClick={() => {
                setKind('');
                setFrom('');
                setTo('');
                setPage(1);
              }}
            >
              Clear
            </Button>
          ) : null}
          <a href={csvHref} download className={buttonClasses({ variant: 'secondary' })}>
            <Download aria-hidden="true" className="size-4" />
            Download CSV
          </a>
        </div>
      </form>

      {q.isError ? (
        <Notice tone="danger" title="The history could not load" action={<Button size="sm" variant="secondary" onClick={() => void q.refetch()}>Try again</Button>}>
          {q.error.message}
        </Notice>
      ) : !q.data ? (
        <SkeletonText lines={6} label="Loading the history" />
      ) : q.data.entries.length === 0 ? (
        <EmptyState
          icon={<ScrollText className="size-6" />}
          title={filtered ? 'Nothing matches these filters' : 'No money movements yet'}
          description={filtered ? 'Try another kind or a wider date range.' : 'Deposits, pack purchases, buybacks and shipping fees will all show up here.'}
        />
      ) : (
        <>
          <p className="text-sm text-zinc-400" aria-live="polite">
            {plural(q.data.total, 'entry', 'entries')}
            {pageCount > 1 ? ` · page ${page} of ${pageCount}` : ''}
          </p>
          <Table caption={admin ? 'Ledger entries of this user' : 'Your ledger entries'} captionHidden
            // Fit the page (notes wrap) instead of the kit's max-content width, which pushed Note off a
            // 1280 px screen; below 44rem the table's region scrolls sideways.
            className={cn('min-w-[44rem]!', q.isPlaceholderData && 'opacity-60')}
            aria-busy={q.isPlaceholderData || undefined}
          >
            <THead>
              <Tr>
                <Th>Date</Th>
                <Th>Kind</Th>
                <Th>Reference</Th>
                <Th className="text-right">Amount</Th>
                <Th className="text-right">Balance after</Th>
                <Th>Note</Th>
              </Tr>
            </THead>
            <TBody>
              {q.data.entries.map((e) => (
                <Tr key={e.id}>
                  <Td className="whitespace-nowrap">{formatDateTime(e.createdAt)}</Td>
                  <Td>
                    <Badge tone={e.amountCents > 0 ? 'success' : 'neutral'}>{LEDGER_KIND_LABELS[e.kind]}</Badge>
                  </Td>
                  <Td>
                    <Reference entry={e} linked={!admin} />
                  </Td>
                  <Td className={cn('text-right font-semibold', e.amountCents > 0 ? 'text-emerald-300' : 'text-zinc-100')}>
                    <Money cents={e.amountCents} signed />
                  </Td>
                  <Td className="text-right text-zinc-300">
                    <Money cents={e.balanceAfter} />
                  </Td>
                  <Td className="min-w-48 text-zinc-400 [overflow-wrap:anywhere]">
                    {e.memo ?? ''}
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
          <Pagination page={page} pageCount={pageCount} onPageChange={setPage} label="History pages" />
        </>
      )}
    </div>
  );
}
