import { useState, type FormEvent } from 'react';
import { DASHBOARD_PRESETS, type DashboardPreset } from '@shared/contracts/dashboard';
import { Button, cn, FieldError, FormField, Input } from '@web/components/ui';
import { checkRange, customDefaults, DEFAULT_PRESET, PRESET_LABEL, type DashboardSearch, type RangeErrors } from './range';

export interface RangePickerProps {
  search: DashboardSearch;
  /** Messages for the URL's dates (its own check, or the server's 400). */
  errors?: RangeErrors | null;
  onChange: (next: DashboardSearch) => void;
  now?: Date;
}

/**
 * Today, 7 days, 30 days, or custom days (UTC). The presets apply at once; custom dates apply
 * with the button, after the same check the server makes, so a bad range says what is wrong
 * next to the field instead of sending a request.
 */
export function RangePicker({ search, errors, onChange, now = new Date() }: RangePickerProps) {
  const preset = search.range ?? DEFAULT_PRESET;
  const [draft, setDraft] = useState(() => customDefaults(now, search));
  const [submitErrors, setSubmitErrors] = useState<RangeErrors | null>(null);
  // A new URL (back button, another preset) brings its own dates into the inputs.
  const [seen, setSeen] = useState(search);
  if (seen !== search && (seen.from !== search.from || seen.to !== search.to || seen.range !== search.range)) {
    setSeen(search);
    if (search.range === 'custom') setDraft(customDefaults(now, search));
    setSubmitErrors(null);
  }
  const shown = submitErrors ?? errors ?? {};

  const choose = (p: DashboardPreset) => {
    setSubmitErrors(null);
    if (p === 'custom') {
      const d = customDefaults(now, search.range === 'custom' ? search : {});
      setDraft(d);
      onChange({ range: 'custom', ...d });
    } else onChange(p === DEFAULT_PRESET ? {} : { range: p });
  };

  const apply = (e: FormEvent) => {
    e.preventDefault();
    const next: DashboardSearch = { range: 'custom', from: draft.from, to: draft.to };
    const r = checkRange(next);
    if (r.errors) {
      setSubmitErrors(r.errors);
      return;
    }
    setSubmitErrors(null);
    onChange(next);
  };

  return (
    <div className="space-y-3">
      <fieldset>
        <legend className="mb-1.5 text-sm font-medium text-zinc-200">Period</legend>
        <div className="inline-flex max-w-full flex-wrap gap-1 rounded-xl border border-white/10 bg-white/[0.03] p-1">
          {DASHBOARD_PRESETS.map((p) => (
            <label key={p} className="relative cursor-pointer">
              <input
                type="radio"
                name="dashboard-period"
                value={p}
                checked={preset === p}
                onChange={() => choose(p)}
                className="peer sr-only"
              />
              <span
                className={cn(
                  'block rounded-lg px-3 py-1.5 text-sm font-medium whitespace-nowrap text-zinc-300 transition-colors hover:text-white',
                  'peer-checked:bg-violet-500/20 peer-checked:text-white peer-checked:ring-1 peer-checked:ring-violet-400/40',
                  'peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-violet-400',
                )}
              >
                {PRESET_LABEL[p]}
              </span>
            </label>
          ))}
        </div>
      </fieldset>

      {preset === 'custom' ? (
        <form onSubmit={apply} noValidate aria-label="Custom period" className="flex flex-wrap items-start gap-3">
          <FormField label="From" hint="UTC day" error={shown.from} className="w-full min-w-0 sm:w-44">
            <Input
              type="date"
              name="from"
              value={draft.from}
              onChange={(e) => setDraft((d) => ({ ...d, from: e.target.value }))}
              required
            />
          </FormField>
          <FormField label="To" hint="UTC day, included" error={shown.to} className="w-full min-w-0 sm:w-44">
            <Input type="date" name="to" value={draft.to} onChange={(e) => setDraft((d) => ({ ...d, to: e.target.value }))} required />
          </FormField>
          <div className="w-full sm:w-auto sm:pt-7">
            <Button type="submit" variant="secondary">
              Apply dates
            </Button>
          </div>
          {shown.range ? (
            <div className="w-full">
              <FieldError>{shown.range}</FieldError>
            </div>
          ) : null}
        </form>
      ) : shown.range ? (
        <FieldError>{shown.range}</FieldError>
      ) : null}
    </div>
  );
}
