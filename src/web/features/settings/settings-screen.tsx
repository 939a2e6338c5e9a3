import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useForm, type FieldErrors, type Path, type Resolver, type ResolverResult } from 'react-hook-form';
import type { z } from 'zod';
import {
  SETTINGS,
  SETTING_GROUPS,
  countryOptions,
  isSettingKey,
  type SettingField,
  type SettingKey,
} from '@shared/contracts/settings';
import type { ApiResponse } from '@web/lib/api';
import { bpsToPercentText, centsToDecimal, formatMoney, parseMoney, percentToBps } from '@shared/money';
import { Button, Checkbox, EmptyState, FormField, Input, Notice, Panel, SkeletonText, VisuallyHidden, toast } from '@web/components/ui';
import { applyServerFields, errorText } from '@web/lib/api-errors';
import { adminSettingsQuery, useSaveSetting } from './api';

type AdminSettings = ApiResponse<'/api/admin/settings'>;
type SettingEntry = AdminSettings['settings'][number];
type AuditEntry = AdminSettings['history'][number];

/**
 * /admin/settings: one form per setting of the registry, grouped, each validated by the
 * registry's own schema (the server's too) and saved on its own; the change history below.
 */

type FormValues = { value: unknown };
type FieldErrorNode = { type: string; message: string };

const pathOf = (f: SettingField) => (f.name ? `value.${f.name}` : 'value') as Path<FormValues>;

function errorAt(errors: Record<string, unknown>, path: string): string | undefined {
  let node: unknown = errors;
  for (const part of path.split('.')) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  const message = node && typeof node === 'object' ? (node as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? message : undefined;
}

type SettingDefinition = { schema: unknown; fields: readonly SettingField[] };

/** What the owner types: dollars for cents, percent for basis points, text for whole numbers. */
const TYPED = new Set<SettingField['kind']>(['cents', 'bp', 'int']);

function toInput(f: SettingField, v: unknown): unknown {
  if (typeof v !== 'number' || !Number.isFinite(v)) return v;
  if (f.kind === 'cents' && Number.isSafeInteger(v)) return centsToDecimal(v);
  if (f.kind === 'bp') return bpsToPercentText(v);
  if (f.kind === 'int') return String(v);
  return v;
}

function fromInput(f: SettingField, v: unknown): { ok: true; value: unknown } | { ok: false; message: string } {
  if (!TYPED.has(f.kind)) return { ok: true, value: v };
  const text = typeof v === 'string' ? v.trim() : String(v ?? '');
  if (f.kind === 'cents') {
    const cents = parseMoney(text);
    return cents === null ? { ok: false, message: text ? 'Enter an amount in dollars, like 5 or 5.25.' : 'Enter an amount.' } : { ok: true, value: cents };
  }
  if (f.kind === 'bp') {
    const bps = percentToBps(text);
    return bps === null ? { ok: false, message: text ? 'Enter a percent with up to 2 decimals, like 85 or 1.5.' : 'Enter a percent.' } : { ok: true, value: bps };
  }
  return /^\d{1,9}$/.test(text) ? { ok: true, value: Number(text) } : { ok: false, message: 'Enter a whole number.' };
}

/** A stored value (cents, basis points) as the form shows it (dollars, percent). */
export function settingToForm(def: SettingDefinition, value: unknown): unknown {
  const scalar = def.fields.length === 1 && def.fields[0]!.name === '';
  if (scalar) return toInput(def.fields[0]!, value);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const f of def.fields) out[f.name] = toInput(f, out[f.name]);
  return out;
}

/**
 * The form's resolver: converts what was typed back to cents and basis points, then validates
 * with the registry's schema (the server's), each message on its own field.
 */
export function settingResolver(def: SettingDefinition): Resolver<FormValues> {
  return async (values): Promise<ResolverResult<FormValues>> => {
    const scalar = def.fields.length === 1 && def.fields[0]!.name === '';
    const errors: Record<string, FieldErrorNode> = {};
    const typed = values.value;
    let converted: unknown = typed;
    if (scalar) {
      const r = fromInput(def.fields[0]!, typed);
      if (r.ok) converted = r.value;
      else errors[''] = { type: 'validate', message: r.message };
    } else if (typed && typeof typed === 'object') {
      const out: Record<string, unknown> = { ...(typed as Record<string, unknown>) };
      for (const f of def.fields) {
        const r = fromInput(f, out[f.name]);
        if (r.ok) out[f.name] = r.value;
        else errors[f.name] = { type: 'validate', message: r.message };
      }
      converted = out;
    }
    if (!Object.keys(errors).length) {
      const parsed = (def.schema as z.ZodType).safeParse(converted);
      if (parsed.success) return { values: { value: parsed.data }, errors: {} };
      for (const issue of parsed.error.issues) {
        const name = scalar ? '' : String(issue.path[0] ?? '');
        errors[name] ??= { type: 'validate', message: issue.message };
      }
    }
    if (scalar) return { values: {}, errors: { value: errors[''] } as FieldErrors<FormValues> };
    // An issue of the whole object (none today) has no field to sit on: it goes above the form.
    const { '': whole, ...fields } = errors;
    return { values: {}, errors: { value: fields, ...(whole ? { root: whole } : {}) } as FieldErrors<FormValues> };
  };
}

const UNIT: Partial<Record<SettingField['kind'], { sign: string; words: string; before: boolean }>> = {
  cents: { sign: '$', words: 'in dollars', before: true },
  bp: { sign: '%', words: 'in percent', before: false },
};

function SettingForm({ entry, canEdit }: { entry: SettingEntry & { key: SettingKey }; canEdit: boolean }) {
  const def = SETTINGS[entry.key];
  const resolver = useMemo(() => settingResolver(def), [def]);
  const save = useSaveSetting();
  const form = useForm<FormValues>({ resolver, defaultValues: { value: settingToForm(def, entry.value) } });
  const { register, handleSubmit, formState, setError, reset, watch } = form;
  // Keyed by content: saving another section refetches every entry, and must not wipe this one's edits.
  const stored = JSON.stringify(entry.value);
  useEffect(() => reset({ value: settingToForm(def, JSON.parse(stored) as unknown) }), [def, stored, reset]);
  const known = def.fields.map(pathOf);
  const formId = `setting-${entry.key.replace(/\W+/g, '-')}`;

  const submit = handleSubmit(async (v) => {
    try {
      const saved = await save.mutateAsync({ key: entry.key, value: v.value });
      reset({ value: settingToForm(def, saved.value) });
      toast.success(`${def.label} saved`, 'Every server uses the new value from now on.');
    } catch (err) {
      if (applyServerFields(err, setError, known)) return;
      setError('root', { type: 'server', message: errorText(err) });
    }
  });

  const errors = formState.errors as Record<string, unknown>;
  return (
    <Panel id={formId} level={3} title={def.label} description={def.help}>
      <form onSubmit={submit} noValidate aria-label={def.label} className="space-y-4">
        {formState.errors.root?.message ? (
          <Notice tone="danger" title="Not saved">
            {formState.errors.root.message}
          </Notice>
        ) : null}
        {!canEdit ? <Notice tone="info" title="Owner only">
            Only the owner can change this setting.{entry.ownerReason ? ` ${entry.ownerReason}` : ''} Ask the owner if it needs to change.
          </Notice> : null}
        <fieldset disabled={!canEdit || formState.isSubmitting} className="grid min-w-0 gap-4 sm:grid-cols-2">
          <legend className="sr-only">{def.label}</legend>
          {def.fields.map((f) => (
            <FieldControl key={f.name || 'value'} field={f} path={pathOf(f)} error={errorAt(errors, pathOf(f))} register={register} current={watch(pathOf(f))} />
          ))}
        </fieldset>
        {canEdit ? (
          <Button type="submit" loading={formState.isSubmitting} loadingText="Saving…" disabled={!formState.isDirty}>
            Save {def.label.toLowerCase()}
          </Button>
        ) : null}
      </form>
    </Panel>
  );
}

function FieldControl({
  field: f,
  path,
  error,
  register,
  current,
}: {
  field: SettingField;
  path: Path<FormValues>;
  error: string | undefined;
  register: ReturnType<typeof useForm<FormValues>>['register'];
  current: unknown;
}) {
  if (f.kind === 'boolean') {
    return (
      <FormField label={f.label} inline hint={f.help} error={error} className="sm:col-span-2">
        <Checkbox {...register(path)} />
      </FormField>
    );
  }
  if (f.kind === 'countries') {
    const picked = Array.isArray(current) ? (current as string[]) : [];
    const errorId = `${path}-error`.replace(/\W+/g, '-');
    return (
      <fieldset className="min-w-0 sm:col-span-2" aria-describedby={error ? errorId : undefined} aria-invalid={error ? true : undefined}>
        <legend className="text-sm font-medium text-zinc-200">
          {f.label} <span className="font-normal text-zinc-400">({picked.length} chosen)</span>
        </legend>
        <div className="mt-2 grid grid-cols-1 gap-2 min-[390px]:grid-cols-2 sm:grid-cols-3 lg:grid-cols-4">
          {countryOptions.map((c) => (
            <label key={c.code} className="flex min-w-0 items-center gap-2 text-sm text-zinc-200">
              <input type="checkbox" value={c.code} className="size-4 shrink-0 accent-fuchsia-500" {...register(path)} />
              <span className="truncate">{c.name}</span>
            </label>
          ))}
        </div>
        {error ? (
          <p id={errorId} className="mt-2 text-sm text-red-300">
            {error}
          </p>
        ) : null}
      </fieldset>
    );
  }
  const typed = TYPED.has(f.kind);
  const unit = UNIT[f.kind];
  const input = (
    <Input
      type={f.kind === 'email' ? 'email' : 'text'}
      inputMode={f.kind === 'int' ? 'numeric' : typed ? 'decimal' : undefined}
      autoComplete="off"
      className={unit ? (unit.before ? 'pl-7' : 'pr-8') : undefined}
      {...register(path)}
    />
  );
  return (
    <FormField
      label={
        <>
          {f.label}
          {unit ? <VisuallyHidden> ({unit.words})</VisuallyHidden> : null}
        </>
      }
      required
      hint={f.help}
      error={error}
    >
      {unit ? (
        <div className="relative">
          <span aria-hidden="true" className={`pointer-events-none absolute top-1/2 -translate-y-1/2 text-zinc-400 ${unit.before ? 'left-3' : 'right-3'}`}>
            {unit.sign}
          </span>
          {input}
        </div>
      ) : (
        input
      )}
    </FormField>
  );
}

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const unwrap = (v: unknown) => (v && typeof v === 'object' && 'value' in v ? (v as { value: unknown }).value : v);

function fieldText(f: SettingField, v: unknown): string {
  if (typeof v === 'number' && Number.isSafeInteger(v) && f.kind === 'cents') return formatMoney(v);
  if (typeof v === 'number' && f.kind === 'bp') return `${bpsToPercentText(v)}%`;
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  if (Array.isArray(v)) return v.join(', ') || 'none';
  return typeof v === 'string' || typeof v === 'number' ? String(v) : JSON.stringify(v);
}

/** A stored value in the owner's units, one field a line ("Base fee: $5.00"); JSON when it is not the registry's shape. */
export function shownSetting(key: string | null, raw: unknown): string {
  const v = unwrap(raw);
  if (!key || !isSettingKey(key)) return JSON.stringify(v, null, 1);
  const fields = SETTINGS[key].fields as readonly SettingField[];
  if (fields.length === 1 && fields[0]!.name === '') return fieldText(fields[0]!, v);
  if (!v || typeof v !== 'object') return JSON.stringify(v, null, 1);
  const o = v as Record<string, unknown>;
  return fields.filter((f) => f.name in o).map((f) => `${f.label}: ${fieldText(f, o[f.name])}`).join('\n');
}

function History({ items }: { items: AuditEntry[] }) {
  return (
    <Panel id="settings-history" title="Change history" description="Every change made here, newest first, with the value before and after.">
      {items.length === 0 ? (
        <EmptyState title="No changes yet" description="Changes you save above show up here." />
      ) : (
        <ol className="space-y-4" aria-label="Setting changes">
          {items.map((a) => {
            const label = a.targetId && isSettingKey(a.targetId) ? SETTINGS[a.targetId].label : a.targetId;
            return (
              <li key={a.id} className="rounded-xl border border-white/10 p-4">
                <p className="text-sm text-zinc-200">
                  <span className="font-semibold text-white">{label}</span> changed by {a.actorUsername ?? a.actorEmail ?? 'the system'} ·{' '}
                  <time dateTime={a.createdAt}>{when(a.createdAt)}</time>
                </p>
                <div className="mt-2 grid min-w-0 gap-2 sm:grid-cols-2">
                  <div className="min-w-0">
                    <p className="text-xs tracking-wide text-zinc-400 uppercase">Before</p>
                    <pre className="text-xs break-all whitespace-pre-wrap text-zinc-300">{shownSetting(a.targetId, a.before)}</pre>
                  </div>
                  <div className="min-w-0">
                    <p className="text-xs tracking-wide text-zinc-400 uppercase">After</p>
                    <pre className="text-xs break-all whitespace-pre-wrap text-zinc-100">{shownSetting(a.targetId, a.after)}</pre>
                  </div>
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </Panel>
  );
}

export function SettingsScreen() {
  const q = useQuery(adminSettingsQuery);
  if (q.isPending) return <SkeletonText lines={8} label="Loading the settings" />;
  if (q.isError) {
    return (
      <Notice tone="danger" title="The settings could not be loaded">
        {errorText(q.error)}{' '}
        <Button variant="secondary" size="sm" onClick={() => void q.refetch()}>
          Try again
        </Button>
      </Notice>
    );
  }
  return <SettingsSections data={q.data} />;
}

function SettingsSections({ data }: { data: AdminSettings }) {
  const entries = data.settings.filter((s): s is SettingEntry & { key: SettingKey } => isSettingKey(s.key));
  return (
    <div className="space-y-10">
      {SETTING_GROUPS.map((g) => {
        const inGroup = entries.filter((e) => e.group === g);
        if (!inGroup.length) return null;
        const id = `settings-group-${g.toLowerCase().replace(/\W+/g, '-')}`;
        return (
          <section key={g} aria-labelledby={id} className="space-y-4">
            <h2 id={id} className="text-lg font-semibold text-white">
              {g}
            </h2>
            {inGroup.map((e) => (
              <SettingForm key={e.key} entry={e} canEdit={!e.ownerOnly || data.callerIsOwner} />
            ))}
          </section>
        );
      })}
      <History items={data.history} />
    </div>
  );
}
