import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { createDepositSchema, type CreateDepositInput, type DepositOptions } from '@shared/contracts/wallet';
import { formatMoney, parseMoney } from '@shared/money';
import { Button, FormField, Input, Notice, Panel, Skeleton, cn } from '@web/components/ui';
import { applyServerFields, errorText } from '@web/lib/api-errors';
import { convertingResolver } from '@web/lib/form-resolver';
import { useMoneyAction } from '@web/hooks/use-money-action';
import { depositOptionsQuery, walletApi, walletKeys } from './api';
import { TestModeBadge } from './test-mode';

/** A preset (cents) or a typed amount (dollars); the typed one wins when there is one. */
export interface DepositFormValues {
  preset: number | null;
  custom: string;
}
type Bounds = Pick<DepositOptions, 'minCents' | 'maxCents' | 'currency'>;

const amountOf = (v: DepositFormValues): number | null => (v.custom.trim() ? parseMoney(v.custom) : v.preset);

/** Every message lands on the typed amount, the one field with a place for it. */
export function depositResolver(bounds: Bounds | undefined): Resolver<DepositFormValues, unknown, CreateDepositInput> {
  return convertingResolver<DepositFormValues, CreateDepositInput>({
    fields: ['custom'],
    schema: createDepositSchema,
    rename: { amountCents: 'custom' },
    toInput: (v, bad) => {
      const amount = amountOf(v);
      if (amount === null) bad('custom', v.custom.trim() ? 'Enter an amount like 20 or 20.50.' : 'Choose an amount or type one.');
      else if (bounds && (amount < bounds.minCents || amount > bounds.maxCents)) {
        bad('custom', `Deposit between ${formatMoney(bounds.minCents, bounds.currency)} and ${formatMoney(bounds.maxCents, bounds.currency)}.`);
      }
      return { amountCents: amount };
    },
  });
}

/**
 * Pick a preset or type an amount, then go to the checkout (sandbox page or Stripe). With
 * `returnPath` (a purchase waiting for this deposit), the checkout comes back there, not here.
 */
export function DepositPanel({ returnPath }: { returnPath?: string | undefined } = {}) {
  const options = useQuery(depositOptionsQuery);
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  // Busy from the answer until the checkout page has taken over, too: the deposit is started.
  const [leaving, setLeaving] = useState(false);
  const start = useMoneyAction((amountCents: number, key: string) => walletApi.startDeposit(amountCents, key, returnPath));
  const busy = start.busy || leaving;

  const o = options.data;
  const form = useForm<DepositFormValues, unknown, CreateDepositInput>({
    resolver: depositResolver(o),
    defaultValues: { preset: null, custom: '' },
    // A message stays until the next submit, a preset pick or a keystroke clears it (no re-check while typing).
    reValidateMode: 'onSubmit',
  });
  const { register, handleSubmit, formState, setValue, clearErrors, control } = form;
  const [preset, custom] = useWatch({ control, name: ['preset', 'custom'] });
  const amount = amountOf({ preset, custom });

  const submit = handleSubmit(async ({ amountCents }) => {
    if (!o) return;
    setError(null);
    try {
      const r = await start.run(amountCents);
      if (!r) return;
      setLeaving(true);
      void qc.invalidateQueries({ queryKey: walletKeys.all });
      if (r.checkoutUrl.startsWith('/')) {
        await navigate({ to: '/checkout/$id', params: { id: r.deposit.id } });
      } else {
        window.location.assign(r.checkoutUrl);
      }
    } catch (err) {
      if (!applyServerFields(err, form.setError, ['custom'], { amountCents: 'custom' })) setError(errorText(err));
      setLeaving(false);
    }
  });

  return (
    <Panel
      id="deposit"
      title="Add funds"
      description="Top up your balance to open packs. Deposits are credited as soon as the payment is confirmed."
      actions={o?.testMode ? <TestModeBadge /> : undefined}
    >
      <div>
        {options.isError ? (
          <Notice tone="danger" title="Deposits could not load" action={<Button size="sm" variant="secondary" onClick={() => void options.refetch()}>Try again</Button>}>
            {options.error.message}
          </Notice>
        ) : !o ? (
          <div className="space-y-3" aria-busy="true" aria-label="Loading deposit options">
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-2/3" />
          </div>
        ) : (
          <form onSubmit={submit} noValidate className="space-y-5">
            {o.pendingBonus ? (
              <Notice tone="success" title={`Bonus ready: ${o.pendingBonus.code}`}>
                Your next deposit gets {o.pendingBonus.bonusPercent}% extra, up to {formatMoney(o.pendingBonus.bonusCapCents, o.currency)}.
              </Notice>
            ) : null}
            <fieldset>
              <legend className="mb-2 text-sm font-medium text-zinc-200">Amount</legend>
              <div className="flex flex-wrap gap-2">
                {o.presetsCents.map((p) => {
                  const selected = !custom.trim() && preset === p;
                  return (
                    <button
                      key={p}
                      type="button"
                      aria-pressed={selected}
                      onClick={() => {
                        setValue('preset', p);
                        setValue('custom', '');
                        clearErrors('custom');
                      }}
                      className={cn(
                        'h-11 min-w-20 rounded-lg px-4 text-sm font-semibold tabular-nums ring-1 transition-colors ring-inset',
                        selected
                          ? 'bg-violet-500/25 text-white ring-violet-400'
                          : 'bg-white/5 text-zinc-200 ring-white/15 hover:bg-white/10',
                      )}
                    >
                      {formatMoney(p, o.currency)}
                    </button>
                  );
                })}
              </div>
            </fieldset>
            <FormField
              label="Or another amount"
              hint={`Between ${formatMoney(o.minCents, o.currency)} and ${formatMoney(o.maxCents, o.currency)}.`}
              error={formState.errors.custom?.message}
            >
              <Input
                inputMode="decimal"
                autoComplete="off"
                placeholder="e.g. 40"
                {...register('custom', { onChange: () => clearErrors('custom') })}
                className="max-w-48"
              />
            </FormField>
            {error ? <Notice tone="danger">{error}</Notice> : null}
            <div className="flex flex-wrap items-center gap-3">
              <Button type="submit" size="lg" loading={busy} loadingText="Starting checkout…" onClick={start.guardClick}>
                {amount ? `Deposit ${formatMoney(amount, o.currency)}` : 'Deposit'}
              </Button>
              <p className="text-sm text-zinc-400">
                {o.testMode
                  ? 'Test mode: you will confirm on a simulated checkout page. No card is charged.'
                  : 'You will pay on Stripe’s secure checkout page.'}
                {returnPath ? ' Then you go back to your pack to finish the purchase.' : ''}
              </p>
            </div>
          </form>
        )}
      </div>
    </Panel>
  );
}
