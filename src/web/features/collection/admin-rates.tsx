import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { formatRate, updateBuybackRatesSchema, type BuybackRates, type UpdateBuybackRatesOutput } from '@shared/contracts/collection';
import { bpsToPercentText, percentToBps } from '@shared/money';
import { Button, FormField, Input, Notice, Panel, SkeletonText, toast } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { errorText } from '@web/lib/api-errors';
import { convertingResolver } from '@web/lib/form-resolver';
import { ratesQuery, useSaveRates } from './api';

/** "85" or "92.5" (percent, up to 2 decimals) → basis points; '' → null; anything else → NaN. */
export function percentToBp(text: string): number | null {
  if (!text.trim()) return null;
  const bp = percentToBps(text);
  return bp !== null && bp <= 10_000 ? bp : Number.NaN;
}

const bpToText = (bp: number | null) => (bp === null ? '' : bpsToPercentText(bp));

/** The default buyback rate and each class's override (blank = the default). Audited server-side. */
export function AdminRates() {
  const q = useQuery(ratesQuery);
  return (
    <Panel
      title="Buyback rates"
      description="What a sale pays as a share of the card's current market value. A class without its own rate uses the default."
    >
      <div className="p-5 sm:p-6">
        {q.isPending ? (
          <SkeletonText lines={4} label="Loading rates" />
        ) : q.isError ? (
          <Notice tone="danger" title="We could not load the rates">
            {q.error.message} Refresh the page to try again.
          </Notice>
        ) : (
          <RatesForm rates={q.data} />
        )}
      </div>
    </Panel>
  );
}

/** Form field names: the default, and one per class (no dots: react-hook-form would nest them). */
const classField = (id: string) => `class_${id}`;
type RatesValues = Record<string, string>;

function ratesValues(rates: BuybackRates): RatesValues {
  return { default: bpToText(rates.defaultRateBp), ...Object.fromEntries(rates.classes.map((c) => [classField(c.id), bpToText(c.rateBp)])) };
}

/** Percent texts → the contract's input (only the classes whose rate changed), then the contract decides. */
function ratesResolver(rates: BuybackRates) {
  return convertingResolver<RatesValues, UpdateBuybackRatesOutput>({
    fields: ['default', ...rates.classes.map((c) => classField(c.id))],
    schema: updateBuybackRatesSchema,
    rename: { defaultRateBp: 'default' },
    toInput: (v, bad) => {
      const defaultRateBp = percentToBp(v.default ?? '');
      if (defaultRateBp === null || Number.isNaN(defaultRateBp)) bad('default', 'Enter a percentage from 0 to 100 (up to 2 decimals).');
      const classes: Array<{ classId: string; rateBp: number | null }> = [];
      for (const c of rates.classes) {
        const bp = percentToBp(v[classField(c.id)] ?? '');
        if (bp !== null && Number.isNaN(bp)) bad(classField(c.id), 'Enter a percentage from 0 to 100, or leave it blank for the default.');
        else if (bp !== c.rateBp) classes.push({ classId: c.id, rateBp: bp });
      }
      return { defaultRateBp, classes };
    },
  });
}

function RatesForm({ rates }: { rates: BuybackRates }) {
  const save = useSaveRates();
  const form = useForm<RatesValues, unknown, UpdateBuybackRatesOutput>({ resolver: ratesResolver(rates), defaultValues: ratesValues(rates) });
  const { reset } = form;
  useEffect(() => reset(ratesValues(rates)), [rates, reset]);
  const errors = form.formState.errors;

  const submit = form.handleSubmit(async (input) => {
    try {
      await save.mutateAsync(input);
      toast.success('Buyback rates saved', 'New sales use them from now on.');
    } catch (err) {
      if (err instanceof ApiClientError && err.fields) {
        for (const [k, v] of Object.entries(err.fields)) {
          const m = /^classes\.(\d+)\./.exec(k);
          const classId = m ? input.classes[Number(m[1])]?.classId : undefined;
          if (k === 'defaultRateBp') form.setError('default', { type: 'server', message: v[0] ?? '' });
          else if (classId) form.setError(classField(classId), { type: 'server', message: v[0] ?? '' });
        }
      }
      toast.error('Rates not saved', errorText(err));
    }
  });

  const def = useWatch({ control: form.control, name: 'default' }) ?? '';
  const values = useWatch({ control: form.control });
  const defaultBp = percentToBp(def);
  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <FormField label="Default rate (%)" hint="Used for every class without its own rate. 85 = 85% of market value." error={errors.default?.message} required>
        <Input inputMode="decimal" {...form.register('default')} className="max-w-40" />
      </FormField>
      <fieldset className="space-y-3">
        <legend className="text-sm font-semibold text-white">Per class</legend>
        {rates.classes.length === 0 ? <p className="text-sm text-zinc-400">No classes yet.</p> : null}
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {rates.classes.map((c) => (
            <FormField
              key={c.id}
              label={
                <span className="inline-flex items-center gap-2">
                  <span aria-hidden="true" className="size-3 rounded-full" style={{ background: c.colour }} />
                  {c.name}
                  {c.archived ? <span className="text-xs text-zinc-500">(archived)</span> : null}
                </span>
              }
              hint={
                (values[classField(c.id)] ?? '').trim()
                  ? 'Own rate'
                  : `Uses the default${defaultBp !== null && !Number.isNaN(defaultBp) ? ` (${formatRate(defaultBp)})` : ''}`
              }
              error={errors[classField(c.id)]?.message}
            >
              <Input inputMode="decimal" {...form.register(classField(c.id))} placeholder="Default" className="max-w-40" />
            </FormField>
          ))}
        </div>
      </fieldset>
      <Button type="submit" loading={save.isPending || form.formState.isSubmitting} loadingText="Saving…">
        Save rates
      </Button>
    </form>
  );
}
