import { useQuery } from '@tanstack/react-query';
import { Receipt } from 'lucide-react';
import { useState } from 'react';
import type { Deposit } from '@shared/contracts/wallet';
import {
  Badge,
  Button,
  Dialog,
  EmptyState,
  Money,
  Notice,
  Pagination,
  Panel,
  SkeletonText,
  Table,
  TBody,
  Td,
  Th,
  THead,
  Tr,
} from '@web/components/ui';
import { depositQuery, depositsQuery } from './api';
import { DEPOSIT_STATUS_LABEL, DEPOSIT_STATUS_TONE, receiptNumber } from './format';
import { formatDateTime } from '@web/lib/format';
import { TestModeBadge } from './test-mode';

function ReceiptBody({ deposit }: { deposit: Deposit }) {
  const rows: Array<[string, React.ReactNode]> = [
    ['Receipt', <span className="font-mono">{receiptNumber(deposit.id)}</span>],
    ['Status', <Badge tone={DEPOSIT_STATUS_TONE[deposit.status]}>{DEPOSIT_STATUS_LABEL[deposit.status]}</Badge>],
    ['Amount', <Money cents={deposit.amountCents} currency={deposit.currency} />],
  ];
  if (deposit.bonusCents > 0) rows.push(['Promo bonus', <Money cents={deposit.bonusCents} currency={deposit.currency} signed />]);
  if (deposit.refundedCents > 0) rows.push(['Refunded', <Money cents={deposit.refundedCents} currency={deposit.currency} />]);
  rows.push(
    ['Started', formatDateTime(deposit.createdAt)],
    ['Completed', deposit.completedAt ? formatDateTime(deposit.completedAt) : '—'],
    ['Paid with', deposit.provider === 'sandbox' ? 'Test-mode checkout' : 'Card (Stripe)'],
  );
  if (deposit.failureReason) rows.push(['Reason', deposit.failureReason]);
  rows.push(['Deposit id', <span className="font-mono text-xs break-all">{deposit.id}</span>]);
  return (
    <div className="space-y-4">
      {deposit.testMode ? <TestModeBadge /> : null}
      <dl className="divide-y divide-white/10 rounded-xl border border-white/10">
        {rows.map(([k, v]) => (
          <div key={k} className="flex items-start justify-between gap-4 px-4 py-2.5 text-sm">
            <dt className="text-zinc-400">{k}</dt>
            <dd className="text-right text-zinc-100">{v}</dd>
          </div>
        ))}
      </dl>
      {deposit.testMode ? (
        <p className="text-sm text-amber-200/90">This was a test-mode deposit: no real money was charged.</p>
      ) : null}
    </div>
  );
}

/** A receipt dialog for one deposit, loaded by id (used for ?deposit=… links too). */
export function DepositReceipt({ depositId, open, onOpenChange }: { depositId: string; open: boolean; onOpenChange: (o: boolean) => void }) {
  const q = useQuery({ ...depositQuery(depositId), enabled: open });
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Deposit receipt">
      {q.data ? (
        <ReceiptBody deposit={q.data} />
      ) : q.isError ? (
        <Notice tone="danger">{q.error.message}</Notice>
      ) : (
        <SkeletonText lines={6} label="Loading the receipt" />
      )}
    </Dialog>
  );
}

export function DepositHistory({ initialReceipt }: { initialReceipt?: string | null }) {
  const [page, setPage] = useState(1);
  const [receipt, setReceipt] = useState<string | null>(initialReceipt ?? null);
  const q = useQuery(depositsQuery(page));
  const pageCount = q.data ? Math.max(1, Math.ceil(q.data.total / q.data.pageSize)) : 1;

  return (
    <Panel id="deposits" title="Deposit history" description="Every deposit you started, with its status. Open one for its receipt.">
      <div className="space-y-4">
        {q.isError ? (
          <Notice tone="danger" title="Deposit history could not load" action={<Button size="sm" variant="secondary" onClick={() => void q.refetch()}>Try again</Button>}>
            {q.error.message}
          </Notice>
        ) : !q.data ? (
          <SkeletonText lines={4} label="Loading deposits" />
        ) : q.data.deposits.length === 0 ? (
          <EmptyState icon={<Receipt className="size-6" />} title="No deposits yet" description="Your deposits will show up here with their receipts." />
        ) : (
          <>
            <Table caption="Your deposits" captionHidden>
              <THead>
                <Tr>
                  <Th>Date</Th>
                  <Th>Amount</Th>
                  <Th>Status</Th>
                  <Th>
                    <span className="sr-only">Receipt</span>
                  </Th>
                </Tr>
              </THead>
              <TBody>
                {q.data.deposits.map((d) => (
                  <Tr key={d.id}>
                    <Td className="whitespace-nowrap">{formatDateTime(d.createdAt)}</Td>
                    <Td>
                      <Money cents={d.amountCents} currency={d.currency} />
                      {d.bonusCents > 0 ? (
                        <span className="ml-2 text-xs text-emerald-300">
                          + <Money cents={d.bonusCents} currency={d.currency} /> bonus
                        </span>
                      ) : null}
                    </Td>
                    <Td>
                      <span className="flex flex-wrap items-center gap-2">
                        <Badge tone={DEPOSIT_STATUS_TONE[d.status]}>{DEPOSIT_STATUS_LABEL[d.status]}</Badge>
                        {d.testMode ? <TestModeBadge /> : null}
                      </span>
                    </Td>
                    <Td className="text-right">
                      <Button size="sm" variant="secondary" onClick={() => setReceipt(d.id)} aria-label={`Receipt for the deposit of ${formatDateTime(d.createdAt)}`}>
                        Receipt
                      </Button>
                    </Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
            <Pagination page={page} pageCount={pageCount} onPageChange={setPage} label="Deposit pages" />
          </>
        )}
      </div>
      {receipt ? <DepositReceipt depositId={receipt} open onOpenChange={(o) => !o && setReceipt(null)} /> : null}
    </Panel>
  );
}
