import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { BuybackRates } from '@shared/contracts/collection';
import { formatRate } from '@shared/contracts/collection';
import { bpsToPercentText, percentToBps } from '@shared/money';
import { Button, FormField, Input, Notice, Panel, SkeletonText, toast } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
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

function RatesForm({ rates }: { rates: BuybackRates }) {
  const save = useSaveRates();
  const [def, setDef] = useState(bpToText(rates.defaultRateBp));
  const [classes, setClasses] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => {
    setDef(bpToText(rates.defaultRateBp));
    setClasses(Object.fromEntries(rates.classes.map((c) => [c.id, bpToText(c.rateBp)])));
  }, [rates]);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const errs: Record<string, string> = {};
    const defaultRateBp = percentToBp(def);
    if (defaultRateBp === null || Number.isNaN(defaultRateBp)) errs.default = 'Enter a percentage from 0 to 100 (up to 2 decimals).';
    const changed: Array<{ classId: string; rateBp: number | null }> = [];
    for (const c of rates.classes) {
      const bp = percentToBp(classes[c.id] ?? '');
      if (bp !== null && Number.isNaN(bp)) errs[c.id] = 'Enter a percentage from 0 to 100, or leave it blank for the default.';
      else if (bp !== c.rateBp) changed.push({ classId: c.id, rateBp: bp });
    }
    setErrors(errs);
    if (Object.keys(errs).length) return;
    try {
      await save.mutateAsync({ defaultRateBp: defaultRateBp!, classes: changed });
      toast.success('Buyback rates saved', 'New sales use them from now on.');
    } catch (err) {
      if (err instanceof ApiClientError && err.fields) {
        const mapped: Record<string, string> = {};
        for (const [k, v] of Object.entries(err.fields)) {
          const m = /^classes\.(\d+)\./.exec(k);
          if (k === 'defaultRateBp') mapped.default = v[0] ?? '';
          else if (m) mapped[changed[Number(m[1])]?.classId ?? 'form'] = v[0] ?? '';
        }
        setErrors(mapped);
      }
      toast.error('Rates not saved', err instanceof Error ? err.message : undefined);
    }
  };

  const defaultBp = percentToBp(def);
  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <FormField label="Default rate (%)" hint="Used for every class without its own rate. 85 = 85% of market value." error={errors.default} required>
        <Input inputMode="decimal" value={def} onChange={(e) => setDef(e.target.value)} className="max-w-40" />
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
                (classes[c.id] ?? '').trim()
                  ? 'Own rate'
                  : `Uses the default${defaultBp !== null && !Number.isNaN(defaultBp) ? ` (${formatRate(defaultBp)})` : ''}`
              }
              error={errors[c.id]}
            >
              <Input
                inputMode="decimal"
                value={classes[c.id] ?? ''}
                placeholder="Default"
                onChange={(e) => setClasses((p) => ({ ...p, [c.id]: e.target.value }))}
                className="max-w-40"
              />
            </FormField>
          ))}
        </div>
      </fieldset>
      <Button type="submit" loading={save.isPending} loadingText="Saving…">
        Save rates
      </Button>
    </form>
  );
}
