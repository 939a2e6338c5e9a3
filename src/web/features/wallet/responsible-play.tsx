import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ShieldCheck } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import {
  LIMIT_PERIODS,
  SELF_EXCLUSION_DURATIONS,
  SELF_EXCLUSION_LABELS,
  type LimitPeriod,
  type Limits,
  selfExcludeSchema,
  updateLimitsSchema,
  type SelfExcludeInput,
  type SelfExclusionDuration,
  type UpdateLimitsInput,
} from '@shared/contracts/wallet';
import { formatMoney, parseMoney } from '@shared/money';
import { Button, Checkbox, ConfirmDialog, FormField, Input, Notice, Panel, Select, SkeletonText, toast, useCurrency } from '@web/components/ui';
import { applyServerFields, errorText } from '@web/lib/api-errors';
import { convertingResolver } from '@web/lib/form-resolver';
import { balanceQueryKey, limitsQuery, walletApi, walletKeys } from './api';
import { formatDateTime } from '@web/lib/format';

const PERIOD_LABEL: Record<LimitPeriod, string> = { day: 'Daily limit', week: 'Weekly limit', month: 'Monthly limit' };
const WINDOW: Record<LimitPeriod, string> = { day: 'last 24 hours', week: 'last 7 days', month: 'last 30 days' };

function centsToInput(c: number | null): string {
  return c === null ? '' : (c / 100).toFixed(2).replace(/\.00$/, '');
}

/** The three limits as typed, in dollars; empty is no limit. */
export type LimitsFormValues = Record<LimitPeriod, string>;

const limitsToForm = (limits: Limits): LimitsFormValues =>
  Object.fromEntries(LIMIT_PERIODS.map((p) => [p, centsToInput(limits.limits[p].limitCents)])) as LimitsFormValues;

/** All three limits go through the contract (in cents, null = none); the submit then sends only the changed ones. */
export const depositLimitsResolver = convertingResolver<LimitsFormValues, UpdateLimitsInput>({
  fields: LIMIT_PERIODS,
  schema: updateLimitsSchema,
  toInput: (v, bad) =>
    Object.fromEntries(
      LIMIT_PERIODS.map((p) => {
        const raw = v[p].trim();
        const cents = raw === '' ? null : parseMoney(raw);
        if (raw !== '' && (cents === null || cents < 100)) bad(p, 'Enter an amount of at least 1.00, or leave empty for no limit.');
        return [p, cents];
      }),
    ),
});

/** What changed against the limits in force (a pending change is re-sent, so saving the same value cancels it). */
function changedLimits(all: UpdateLimitsInput, limits: Limits): UpdateLimitsInput {
  const input: UpdateLimitsInput = {};
  for (const p of LIMIT_PERIODS) {
    const next = all[p] ?? null;
    if (next !== limits.limits[p].limitCents || limits.limits[p].pending) input[p] = next;
  }
  return input;
}

function DepositLimitsForm({ limits }: { limits: Limits }) {
  const qc = useQueryClient();
  const currency = useCurrency();
  const { register, handleSubmit, formState, setError, reset } = useForm<LimitsFormValues, unknown, UpdateLimitsInput>({
    resolver: depositLimitsResolver,
    defaultValues: limitsToForm(limits),
  });
  const errors = formState.errors;
  const [message, setMessage] = useState<{ tone: 'success' | 'danger'; text: string } | null>(null);
  // Re-sync when the server answers with new limits, and only then: on mount the values already
  // are the limits, and resetting them there would drop what was typed before the effect ran
  // (passive effects may run after the next frame).
  const syncedFrom = useRef(limits);
  useEffect(() => {
    if (syncedFrom.current === limits) return;
    syncedFrom.current = limits;
    reset(limitsToForm(limits));
  }, [limits, reset]);

  const submit = handleSubmit(async (all) => {
    setMessage(null);
    const input = changedLimits(all, limits);
    if (Object.keys(input).length === 0) {
      setMessage({ tone: 'success', text: 'Nothing changed.' });
      return;
    }
    try {
      const r = await walletApi.updateLimits(input);
      qc.setQueryData(walletKeys.limits, r);
      const waiting = LIMIT_PERIODS.filter((p) => r.limits[p].pending);
      setMessage({
        tone: 'success',
        text: waiting.length
          ? 'Saved. Lower limits apply now; raising or removing a limit takes effect after 24 hours.'
          : 'Saved. Your limits apply now.',
      });
    } catch (err) {
      if (applyServerFields(err, setError, LIMIT_PERIODS)) return;
      setMessage({ tone: 'danger', text: errorText(err) });
    }
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <h3 className="text-sm font-semibold text-white">Deposit limits</h3>
      <p className="text-sm text-zinc-400">
        Cap how much you can deposit over a rolling day, week or month. Leave a box empty for no limit. A lower limit
        applies at once; a higher one (or removing it) waits 24 hours.
      </p>
      <div className="grid gap-4 sm:grid-cols-3">
        {LIMIT_PERIODS.map((p) => {
          const s = limits.limits[p];
          const hint = [
            `Deposited in the ${WINDOW[p]}: ${formatMoney(s.usedCents, currency)}.`,
            s.pending
              ? `Changes to ${s.pending.limitCents === null ? 'no limit' : formatMoney(s.pending.limitCents, currency)} on ${formatDateTime(s.pending.effectiveAt)}.`
              : '',
          ]
            .filter(Boolean)
            .join(' ');
          return (
            <FormField key={p} label={PERIOD_LABEL[p]} hint={hint} error={errors[p]?.message}>
              <Input inputMode="decimal" autoComplete="off" placeholder="No limit" {...register(p)} />
            </FormField>
          );
        })}
      </div>
      {message ? <Notice tone={message.tone}>{message.text}</Notice> : null}
      <Button type="submit" loading={formState.isSubmitting} loadingText="Saving…">
        Save limits
      </Button>
    </form>
  );
}

export interface SelfExclusionFormValues {
  duration: SelfExclusionDuration;
  confirm: boolean;
}

export const selfExclusionResolver = convertingResolver<SelfExclusionFormValues, SelfExcludeInput>({
  fields: ['duration', 'confirm'],
  schema: selfExcludeSchema,
  toInput: (v, bad) => {
    if (!v.confirm) bad('confirm', 'Tick the box to confirm you understand.');
    return v;
  },
});

function SelfExclusionForm({ limits }: { limits: Limits }) {
  const qc = useQueryClient();
  const { register, handleSubmit, formState, setError, reset, control } = useForm<SelfExclusionFormValues, unknown, SelfExcludeInput>({
    resolver: selfExclusionResolver,
    defaultValues: { duration: '24h', confirm: false },
  });
  const duration = useWatch({ control, name: 'duration' });
  const [error, setFailure] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const ex = limits.selfExclusion;

  const review = handleSubmit(() => {
    setFailure(null);
    setOpen(true);
  });

  async function exclude() {
    try {
      const r = await walletApi.selfExclude(duration);
      qc.setQueryData(walletKeys.limits, r);
      // The balance answer carries the exclusion: the buy buttons disable themselves from it.
      void qc.invalidateQueries({ queryKey: balanceQueryKey });
      reset({ duration, confirm: false });
      toast({ title: 'Self-exclusion is on', description: `Deposits and purchases are blocked until ${formatDateTime(r.selfExclusion!.endsAt)}.`, tone: 'success' });
    } catch (err) {
      // A refusal a field explains closes the dialog and shows under that field.
      if (applyServerFields(err, setError, ['duration', 'confirm'])) return;
      setFailure(errorText(err));
      throw err;
    }
  }

  return (
    <div className="space-y-4">
      <h3 className="text-sm font-semibold text-white">Take a break</h3>
      {ex ? (
        <Notice tone="warning" title="You are taking a break">
          Deposits, pack purchases and promo codes are blocked until <strong>{formatDateTime(ex.endsAt)}</strong>. A break
          cannot be shortened; you can extend it below.
        </Notice>
      ) : (
        <p className="text-sm text-zinc-400">
          Self-exclusion blocks deposits, pack purchases and promo codes for the time you choose. It cannot be undone or
          shortened once started. You can still sign in, see your vault and request shipments.
        </p>
      )}
      <form noValidate onSubmit={review} className="space-y-4">
        <FormField label="Length" className="max-w-xs" error={formState.errors.duration?.message}>
          <Select {...register('duration')}>
            {SELF_EXCLUSION_DURATIONS.map((d) => (
              <option key={d} value={d}>
                {SELF_EXCLUSION_LABELS[d]}
              </option>
            ))}
          </Select>
        </FormField>
        <FormField inline label="I understand I cannot deposit or buy packs until the break ends." error={formState.errors.confirm?.message}>
          <Checkbox {...register('confirm')} />
        </FormField>
        {error ? <Notice tone="danger">{error}</Notice> : null}
        <Button type="submit" variant="danger">
          {ex ? 'Extend my break' : 'Start my break'}
        </Button>
      </form>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={`Exclude yourself for ${SELF_EXCLUSION_LABELS[duration]}?`}
        description="Deposits, pack purchases and promo codes will be blocked until it ends. This cannot be undone."
        confirmLabel="Yes, start the break"
        variant="danger"
        onConfirm={exclude}
      />
    </div>
  );
}

/**
 * Responsible play: deposit limits and self-exclusion. Exported for /profile/privacy-and-security
 * (composed by that page; this feature owns the behaviour).
 */
export function ResponsiblePlaySection() {
  const q = useQuery(limitsQuery);
  return (
    <Panel
      id="responsible-play"
      title={
        <span className="flex items-center gap-2">
          <ShieldCheck aria-hidden="true" className="size-5 text-violet-300" /> Responsible play
        </span>
      }
      description="Set limits on your deposits or take a break. The shop enforces these on every request."
    >
      <div className="space-y-8">
        {q.isError ? (
          <Notice tone="danger" title="Your limits could not load" action={<Button size="sm" variant="secondary" onClick={() => void q.refetch()}>Try again</Button>}>
            {q.error.message}
          </Notice>
        ) : !q.data ? (
          <SkeletonText lines={5} label="Loading your limits" />
        ) : (
          <>
            <DepositLimitsForm limits={q.data} />
            <hr className="border-white/10" />
            <SelfExclusionForm limits={q.data} />
          </>
        )}
      </div>
    </Panel>
  );
}
