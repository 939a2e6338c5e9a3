import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { adjustBalanceSchema, adjustLimitsSchema, LEDGER_KIND_LABELS } from '@shared/contracts/wallet';
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
import { adjustLimitsQuery, adminBalanceQuery, useIdempotent, walletApi, walletKeys } from './api';
import { formatDateTime } from '@web/lib/format';

/** What the admin should do next when the server refuses an adjustment on policy grounds. */
function refusalTitle(err: unknown): string | undefined {
  if (!(err instanceof ApiClientError)) return undefined;
  if (err.code === 'owner_required') return 'This one needs the owner';
  if (err.code === 'self_dealing') return 'Not on your own account';
  return undefined;
}

function LimitsHint({ currency }: { currency: string }) {
  const q = useQuery(adjustLimitsQuery);
  if (!q.data) return null;
  const l = q.data;
  if (l.callerIsOwner) {
    return <>As the owner you can adjust up to {formatMoney(l.hardMaxCents, currency)} at a time.</>;
  }
  const left = Math.max(0, l.dailyLimitCents - l.usedTodayCents);
  return (
    <>
      Without the owner: up to {formatMoney(l.singleLimitCents, currency)} per adjustment or card grant, and {formatMoney(l.dailyLimitCents, currency)}{' '}
      in 24 hours ({formatMoney(left, currency)} left). Ask the owner for anything larger.
    </>
  );
}

function AdjustForm({ userId, balanceCents, currency }: { userId: string; balanceCents: number; currency: string }) {
  const qc = useQueryClient();
  const [direction, setDirection] = useState<'credit' | 'debit'>('credit');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ amount?: string; reason?: string }>({});
  const [error, setError] = useState<{ title?: string | undefined; message: string } | null>(null);
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
      void qc.invalidateQueries({ queryKey: walletKeys.adjustLimits });
    } catch (err) {
      setError({ title: refusalTitle(err), message: err instanceof ApiClientError ? err.message : 'The adjustment failed. Try again.' });
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
        <p className="text-sm text-zinc-400">
          <LimitsHint currency={currency} />
        </p>
        {error ? (
          <Notice tone="danger" title={error.title}>
            {error.message}
          </Notice>
        ) : null}
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

interface LimitsForm {
  single: string;
  daily: string;
}

/** The owner's form for the adjustment limits (the server checks the role again). */
function AdjustLimitsForm({ currency }: { currency: string }) {
  const qc = useQueryClient();
  const q = useQuery(adjustLimitsQuery);
  const [form, setForm] = useState<LimitsForm | null>(null);
  const [errors, setErrors] = useState<{ singleLimitCents?: string; dailyLimitCents?: string }>({});
  const [saving, setSaving] = useState(false);
  if (!q.data?.callerIsOwner) return null;
  const values = form ?? { single: (q.data.singleLimitCents / 100).toFixed(2), daily: (q.data.dailyLimitCents / 100).toFixed(2) };

  async function save(e: FormEvent) {
    e.preventDefault();
    const parsed = adjustLimitsSchema.safeParse({ singleLimitCents: parseMoney(values.single), dailyLimitCents: parseMoney(values.daily) });
    if (!parsed.success) {
      const errs: typeof errors = {};
      for (const i of parsed.error.issues) {
        const k = i.path[0] as keyof typeof errs;
        errs[k] ??= i.message;
      }
      setErrors(errs);
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      qc.setQueryData(walletKeys.adjustLimits, await walletApi.setAdjustLimits(parsed.data));
      setForm(null);
      toast({ title: 'Limits saved', description: 'Admins need you above them from now on.', tone: 'success' });
    } catch (err) {
      toast({ title: 'Limits not saved', description: err instanceof Error ? err.message : undefined, tone: 'danger' });
    } finally {
      setSaving(false);
    }
  }

  return (
    <Panel title="Adjustment limits" description="Admins need you for a larger adjustment or card grant, or once what they moved in 24 hours passes the daily limit. Only owners see this.">
      <form onSubmit={save} noValidate className="grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
        <FormField label="Per adjustment" error={errors.singleLimitCents}>
          <Input inputMode="decimal" autoComplete="off" value={values.single} onChange={(e) => setForm({ ...values, single: e.target.value })} />
        </FormField>
        <FormField label="Per admin per 24 hours" error={errors.dailyLimitCents}>
          <Input inputMode="decimal" autoComplete="off" value={values.daily} onChange={(e) => setForm({ ...values, daily: e.target.value })} />
        </FormField>
        <Button type="submit" variant="secondary" loading={saving} loadingText="Saving…">
          Save limits
        </Button>
      </form>
      <p className="mt-2 text-sm text-zinc-400">No adjustment can move more than {formatMoney(q.data.hardMaxCents, currency)}.</p>
    </Panel>
  );
}

/** /admin/users/{id}/balance: balance, the last entries, and the adjust form (not on one's own account). */
export function AdminBalance({ userId, viewerId }: { userId: string; viewerId?: string | undefined }) {
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
      {viewerId === userId ? (
        <Notice tone="info" title="This is your own account" live={false}>
          Nobody adjusts their own balance, owners included. Ask another admin or the owner if it needs a correction.
        </Notice>
      ) : viewerId ? (
        <AdjustForm userId={userId} balanceCents={b.balanceCents} currency={b.currency} />
      ) : null}
      <AdjustLimitsForm currency={b.currency} />
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
