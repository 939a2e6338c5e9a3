import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { formatMoney, parseMoney } from '@shared/money';
import { Button, FormField, Input, Notice, Panel, Skeleton, cn } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { depositOptionsQuery, useIdempotent, walletApi, walletKeys } from './api';
import { TestModeBadge } from './test-mode';

/** Pick a preset or type an amount, then go to the checkout (sandbox page or Stripe). */
export function DepositPanel() {
  const options = useQuery(depositOptionsQuery);
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [preset, setPreset] = useState<number | null>(null);
  const [custom, setCustom] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const start = useIdempotent((amountCents: number, key: string) => walletApi.startDeposit(amountCents, key));

  const o = options.data;
  const amount = custom.trim() ? parseMoney(custom) : preset;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!o) return;
    setError(null);
    setFieldError(null);
    if (amount === null || amount === undefined) {
      setFieldError(custom.trim() ? 'Enter an amount like 20 or 20.50.' : 'Choose an amount or type one.');
      return;
    }
    if (amount < o.minCents || amount > o.maxCents) {
      setFieldError(`Deposit between ${formatMoney(o.minCents, o.currency)} and ${formatMoney(o.maxCents, o.currency)}.`);
      return;
    }
    setBusy(true);
    try {
      const r = await start(amount);
      void qc.invalidateQueries({ queryKey: walletKeys.all });
      if (r.checkoutUrl.startsWith('/')) {
        await navigate({ to: '/checkout/$id', params: { id: r.deposit.id } });
      } else {
        window.location.assign(r.checkoutUrl);
      }
    } catch (err) {
      if (err instanceof ApiClientError && err.fields?.amountCents) setFieldError(err.fields.amountCents[0] ?? err.message);
      else setError(err instanceof Error ? err.message : 'Something went wrong. Try again.');
    } finally {
      setBusy(false);
    }
  }

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
                        setPreset(p);
                        setCustom('');
                        setFieldError(null);
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
              error={fieldError}
            >
              <Input
                inputMode="decimal"
                autoComplete="off"
                placeholder="e.g. 40"
                value={custom}
                onChange={(e) => {
                  setCustom(e.target.value);
                  setFieldError(null);
                }}
                className="max-w-48"
              />
            </FormField>
            {error ? <Notice tone="danger">{error}</Notice> : null}
            <div className="flex flex-wrap items-center gap-3">
              <Button type="submit" size="lg" loading={busy} loadingText="Starting checkout…">
                {amount ? `Deposit ${formatMoney(amount, o.currency)}` : 'Deposit'}
              </Button>
              <p className="text-sm text-zinc-400">
                {o.testMode
                  ? 'Test mode: you will confirm on a simulated checkout page. No card is charged.'
                  : 'You will pay on Stripe’s secure checkout page.'}
              </p>
            </div>
          </form>
        )}
      </div>
    </Panel>
  );
}
