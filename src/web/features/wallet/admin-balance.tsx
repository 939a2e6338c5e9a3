import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { adjustBalanceSchema, LEDGER_KIND_LABELS } from '@shared/contracts/wallet';
import { formatMoney, parseMoney } from '@shared/money';
import {
  Badge,
  Button,
  buttonClasses,
  Card,
  ConfirmDialog,
  EmptyState,
  FormField,
  Input,
  Money,
  Notice,
  Panel,
  Select,
  SkeletonText,
  Table,
  TBody,
  Td,
  Textarea,
  Th,
  THead,
  Tr,
  toast,
} from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { adminBalanceQuery, useIdempotent, walletApi, walletKeys } from './api';
import { formatDateTime } from './format';

function AdjustForm({ userId, balanceCents, currency }: { userId: string; balanceCents: number; currency: string }) {
  const qc = useQueryClient();
  const [direction, setDirection] = useState<'credit' | 'debit'>('credit');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ amount?: string; reason?: string }>({});
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<{ amountCents: number; reason: string } | null>(null);
  const adjust = useIdempotent((input: { amountCents: number; reason: string }, key: string) => walletApi.adjust(userId, input, key));

  function review(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const cents = parseMoney(amount);
    const errs: typeof errors = {};
    if (cents === null || cents === 0) errs.amount = 'Enter an amount like 5 or 12.50.';
    else if (direction === 'debit' && cents > balanceCents) errs.amount = `A debit cannot take the balance below zero (it is ${formatMoney(balanceCents, currency)}).`;
    const parsed = adjustBalanceSchema.safeParse({ amountCents: direction === 'debit' ? -(cents ?? 0) : (cents ?? 0), reason });
    if (!parsed.success) {
      for (const i of parsed.error.issues) {
        if (i.path[0] === 'reason') errs.reason ??= i.message;
        if (i.path[0] === 'amountCents') errs.amount ??= i.message;
      }
    }
    setErrors(errs);
    if (Object.keys(errs).length || !parsed.success) return;
    setConfirming(parsed.data);
  }

  async function confirm() {
    if (!confirming) return;
    try {
      const r = await adjust(confirming);
      toast({ title: 'Balance adjusted', description: `New balance: ${formatMoney(r.balanceCents, currency)}.`, tone: 'success' });
      setAmount('');
      setReason('');
      void qc.invalidateQueries({ queryKey: ['admin', 'wallet', userId] });
      void qc.invalidateQueries({ queryKey: walletKeys.all });
    } catch (err) {
      setError(err instanceof ApiClientError ? err.message : 'The adjustment failed. Try again.');
      throw err;
    }
  }

  return (
    <Panel title="Adjust balance" description="Credits or debits with an admin_adjustment entry. The reason is shown to the user and written to the audit log.">
      <form onSubmit={review} noValidate className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-[10rem_1fr]">
          <FormField label="Direction">
            <Select value={direction} onChange={(e) => setDirection(e.target.value as 'credit' | 'debit')}>
              <option value="credit">Credit (add)</option>
              <option value="debit">Debit (take)</option>
            </Select>
          </FormField>
          <FormField label="Amount" required error={errors.amount}>
            <Input inputMode="decimal" autoComplete="off" placeholder="e.g. 5.00" value={amount} onChange={(e) => setAmount(e.target.value)} />
          </FormField>
        </div>
        <FormField label="Reason" required hint="Required. At least 3 characters." error={errors.reason}>
          <Textarea rows={3} value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} />
        </FormField>
        {error ? <Notice tone="danger">{error}</Notice> : null}
        <Button type="submit">Review adjustment</Button>
      </form>
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(o) => !o && setConfirming(null)}
        title={confirming ? `${confirming.amountCents > 0 ? 'Credit' : 'Debit'} ${formatMoney(Math.abs(confirming.amountCents), currency)}?` : 'Adjust?'}
        description={confirming ? `Reason: “${confirming.reason}”. This is audited.` : undefined}
        confirmLabel="Apply adjustment"
        variant={confirming && confirming.amountCents < 0 ? 'danger' : 'primary'}
        onConfirm={confirm}
      />
    </Panel>
  );
}

/** /admin/users/{id}/balance: balance, the last entries, and the adjust form. */
export function AdminBalance({ userId }: { userId: string }) {
  const q = useQuery(adminBalanceQuery(userId));
  if (q.isError) {
    return (
      <Notice tone="danger" title="This balance could not load" action={<Button size="sm" variant="secondary" onClick={() => void q.refetch()}>Try again</Button>}>
        {q.error.message}
      </Notice>
    );
  }
  if (!q.data) return <SkeletonText lines={8} label="Loading the balance" />;
  const b = q.data;
  return (
    <div className="space-y-6">
      <Card className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <p className="text-sm text-zinc-400">{b.userLabel}</p>
          <div className="text-3xl font-bold text-white tabular-nums">
            <Money cents={b.balanceCents} currency={b.currency} />
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to="/admin/users/$id/history" params={{ id: userId }} className={buttonClasses({ variant: 'secondary' })}>
            Full history
          </Link>
          <Link to="/admin/users/$id" params={{ id: userId }} className={buttonClasses({ variant: 'ghost' })}>
            User profile
          </Link>
        </div>
      </Card>
      <AdjustForm userId={userId} balanceCents={b.balanceCents} currency={b.currency} />
      <Panel title="Recent entries" description="The last 10 ledger entries.">
        <div>
          {b.recent.length === 0 ? (
            <EmptyState title="No entries yet" description="This user has not deposited or spent anything." />
          ) : (
            <Table caption="Recent ledger entries" captionHidden>
              <THead>
                <Tr>
                  <Th>Date</Th>
                  <Th>Kind</Th>
                  <Th className="text-right">Amount</Th>
                  <Th className="text-right">Balance after</Th>
                  <Th>Note</Th>
                </Tr>
              </THead>
              <TBody>
                {b.recent.map((e) => (
                  <Tr key={e.id}>
                    <Td className="whitespace-nowrap">{formatDateTime(e.createdAt)}</Td>
                    <Td>
                      <Badge tone={e.amountCents > 0 ? 'success' : 'neutral'}>{LEDGER_KIND_LABELS[e.kind]}</Badge>
                    </Td>
                    <Td className="text-right">
                      <Money cents={e.amountCents} currency={b.currency} signed />
                    </Td>
                    <Td className="text-right">
                      <Money cents={e.balanceAfter} currency={b.currency} />
                    </Td>
                    <Td className="max-w-72 truncate text-zinc-400">{e.memo ?? ''}</Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          )}
        </div>
      </Panel>
    </div>
  );
}
