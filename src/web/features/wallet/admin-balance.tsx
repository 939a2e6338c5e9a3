import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import {
  adjustBalanceSchema,
  adjustLimitsSchema,
  LEDGER_KIND_LABELS,
  type AdjustBalanceInput,
  type AdjustLimits,
  type AdjustLimitsView,
} from '@shared/contracts/wallet';
import { centsToDecimal, formatMoney, parseMoney } from '@shared/money';
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
import { applyServerFields } from '@web/lib/api-errors';
import { convertingResolver } from '@web/lib/form-resolver';
import { useMoneyAction } from '@web/hooks/use-money-action';
import { adjustLimitsQuery, adminBalanceQuery, walletApi, walletKeys } from './api';
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

/** The adjust form's fields: an unsigned amount in dollars and a direction, which become the contract's signed cents. */
export interface AdjustFormValues {
  direction: 'credit' | 'debit';
  amount: string;
  reason: string;
}
const ADJUST_FIELDS = ['direction', 'amount', 'reason'] as const;

export function adjustResolver(balanceCents: number, currency: string): Resolver<AdjustFormValues, unknown, AdjustBalanceInput> {
  return convertingResolver<AdjustFormValues, AdjustBalanceInput>({
    fields: ADJUST_FIELDS,
    schema: adjustBalanceSchema,
    rename: { amountCents: 'amount' },
    toInput: (v, bad) => {
      const cents = parseMoney(v.amount);
      if (cents === null || cents === 0) bad('amount', 'Enter an amount like 5 or 12.50.');
      else if (v.direction === 'debit' && cents > balanceCents) {
        bad('amount', `A debit cannot take the balance below zero (it is ${formatMoney(balanceCents, currency)}).`);
      }
      return { amountCents: v.direction === 'debit' ? -(cents ?? 0) : (cents ?? 0), reason: v.reason };
    },
  });
}

function AdjustForm({ userId, balanceCents, currency }: { userId: string; balanceCents: number; currency: string }) {
  const qc = useQueryClient();
  const [error, setError] = useState<{ title?: string | undefined; message: string } | null>(null);
  const [confirming, setConfirming] = useState<AdjustBalanceInput | null>(null);
  const form = useForm<AdjustFormValues, unknown, AdjustBalanceInput>({
    resolver: adjustResolver(balanceCents, currency),
    defaultValues: { direction: 'credit', amount: '', reason: '' },
  });
  const { register, handleSubmit, formState, reset, getValues } = form;
  const e = formState.errors;
  // The key is the intent's (issue 38): minted with the form, kept for a retry of the same
  // adjustment after a network failure or a 5xx, renewed after an answer or a changed one.
  const adjust = useMoneyAction((input: AdjustBalanceInput, key: string) => walletApi.adjust(userId, input, key));

  const review = handleSubmit((input) => {
    setError(null);
    setConfirming(input);
  });

  async function confirm() {
    if (!confirming) return;
    try {
      const r = await adjust.run(confirming);
      if (r === undefined) return; // this adjustment is already on its way
      toast({ title: 'Balance adjusted', description: `New balance: ${formatMoney(r.balanceCents, currency)}.`, tone: 'success' });
      reset({ direction: getValues('direction'), amount: '', reason: '' });
      void qc.invalidateQueries({ queryKey: ['admin', 'wallet', userId] });
      void qc.invalidateQueries({ queryKey: walletKeys.all });
      void qc.invalidateQueries({ queryKey: walletKeys.adjustLimits });
    } catch (err) {
      // A refusal a field explains closes the dialog and shows under that field.
      if (applyServerFields(err, form.setError, ADJUST_FIELDS, { amountCents: 'amount' })) return;
      setError({ title: refusalTitle(err), message: err instanceof ApiClientError ? err.message : 'The adjustment failed. Try again.' });
      throw err;
    }
  }

  return (
    <Panel title="Adjust balance" description="Credits or debits with an admin_adjustment entry. The reason is shown to the user and written to the audit log.">
      <form onSubmit={review} noValidate className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-[10rem_1fr]">
          <FormField label="Direction" error={e.direction?.message}>
            <Select {...register('direction')}>
              <option value="credit">Credit (add)</option>
              <option value="debit">Debit (take)</option>
            </Select>
          </FormField>
          <FormField label="Amount" required error={e.amount?.message}>
            <Input inputMode="decimal" autoComplete="off" placeholder="e.g. 5.00" {...register('amount')} />
          </FormField>
        </div>
        <FormField label="Reason" required hint="Required. At least 3 characters." error={e.reason?.message}>
          <Textarea rows={3} {...register('reason')} maxLength={500} />
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

/** The limits form's fields, in dollars, under the contract's names. */
export interface LimitsFormValues {
  singleLimitCents: string;
  dailyLimitCents: string;
}
const LIMITS_FIELDS = ['singleLimitCents', 'dailyLimitCents'] as const;

const limitsResolver = convertingResolver<LimitsFormValues, AdjustLimits>({
  fields: LIMITS_FIELDS,
  schema: adjustLimitsSchema,
  // An unreadable amount is null, which the contract answers with "Enter an amount.".
  toInput: (v) => ({ singleLimitCents: parseMoney(v.singleLimitCents), dailyLimitCents: parseMoney(v.dailyLimitCents) }),
});

const limitsToForm = (l: AdjustLimits): LimitsFormValues => ({
  singleLimitCents: centsToDecimal(l.singleLimitCents),
  dailyLimitCents: centsToDecimal(l.dailyLimitCents),
});

/** The owner's form for the adjustment limits (the server checks the role again). */
function AdjustLimitsForm({ currency }: { currency: string }) {
  const q = useQuery(adjustLimitsQuery);
  if (!q.data?.callerIsOwner) return null;
  return <AdjustLimitsFields limits={q.data} currency={currency} />;
}

function AdjustLimitsFields({ limits, currency }: { limits: AdjustLimitsView; currency: string }) {
  const qc = useQueryClient();
  const { register, handleSubmit, formState, setError, reset } = useForm<LimitsFormValues, unknown, AdjustLimits>({
    resolver: limitsResolver,
    defaultValues: limitsToForm(limits),
  });
  const e = formState.errors;
  // Limits another owner saved show, except in a field this owner is editing.
  const { singleLimitCents, dailyLimitCents } = limits;
  useEffect(() => reset(limitsToForm({ singleLimitCents, dailyLimitCents }), { keepDirtyValues: true }), [singleLimitCents, dailyLimitCents, reset]);

  const save = handleSubmit(async (input) => {
    try {
      const saved = await walletApi.setAdjustLimits(input);
      qc.setQueryData(walletKeys.adjustLimits, saved);
      reset(limitsToForm(saved));
      toast({ title: 'Limits saved', description: 'Admins need you above them from now on.', tone: 'success' });
    } catch (err) {
      if (applyServerFields(err, setError, LIMITS_FIELDS)) return;
      toast({ title: 'Limits not saved', description: err instanceof Error ? err.message : undefined, tone: 'danger' });
    }
  });

  return (
    <Panel title="Adjustment limits" description="Admins need you for a larger adjustment or card grant, or once what they moved in 24 hours passes the daily limit. Only owners see this.">
      <form onSubmit={save} noValidate className="grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
        <FormField label="Per adjustment" error={e.singleLimitCents?.message}>
          <Input inputMode="decimal" autoComplete="off" {...register('singleLimitCents')} />
        </FormField>
        <FormField label="Per admin per 24 hours" error={e.dailyLimitCents?.message}>
          <Input inputMode="decimal" autoComplete="off" {...register('dailyLimitCents')} />
        </FormField>
        <Button type="submit" variant="secondary" loading={formState.isSubmitting} loadingText="Saving…">
          Save limits
        </Button>
      </form>
      <p className="mt-2 text-sm text-zinc-400">No adjustment can move more than {formatMoney(limits.hardMaxCents, currency)}.</p>
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
