import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useForm, type Path, type Resolver } from 'react-hook-form';
import { z } from 'zod';
import {
  SETTINGS,
  SETTING_GROUPS,
  countryOptions,
  isSettingKey,
  type AdminSettings,
  type SettingEntry,
  type SettingField,
  type SettingKey,
} from '@shared/contracts/settings';
import type { AuditEntry } from '@shared/contracts/audit';
import { formatMoney } from '@shared/money';
import { Button, Checkbox, EmptyState, FormField, Input, Notice, Panel, SkeletonText, toast } from '@web/components/ui';
import { applyServerFields, errorText } from '@web/lib/api-errors';
import { adminSettingsQuery, useSaveSetting } from './api';

/**
 * /admin/settings: one form per setting of the registry, grouped, each validated by the
 * registry's own schema (the server's too) and saved on its own; the change history below.
 */

type FormValues = { value: unknown };

const pathOf = (f: SettingField) => (f.name ? `value.${f.name}` : 'value') as Path<FormValues>;

function errorAt(errors: Record<string, unknown>, path: string): string | undefined {
  let node: unknown = errors;
  for (const part of path.split('.')) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  const message = node && typeof node === 'object' ? (node as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? message : undefined;
}

function hintOf(f: SettingField, current: unknown): string | undefined {
  if (f.kind === 'cents' && typeof current === 'number' && Number.isFinite(current)) return `${formatMoney(current)}${f.help ? `. ${f.help}` : ''}`;
  if (f.kind === 'bp' && typeof current === 'number' && Number.isFinite(current)) return `${current / 100}%${f.help ? `. ${f.help}` : ''}`;
  return f.help;
}

function SettingForm({ entry, canEdit }: { entry: SettingEntry & { key: SettingKey }; canEdit: boolean }) {
  const def = SETTINGS[entry.key];
  const schema = useMemo(() => z.object({ value: def.schema as z.ZodType }), [def]);
  const save = useSaveSetting();
  const form = useForm<FormValues>({ resolver: zodResolver(schema as never) as unknown as Resolver<FormValues>, defaultValues: { value: entry.value } });
  const { register, handleSubmit, formState, setError, reset, watch } = form;
  // Keyed by content: saving another section refetches every entry, and must not wipe this one's edits.
  const stored = JSON.stringify(entry.value);
  useEffect(() => reset({ value: JSON.parse(stored) as unknown }), [stored, reset]);
  const known = def.fields.map(pathOf);
  const formId = `setting-${entry.key.replace(/\W+/g, '-')}`;

  const submit = handleSubmit(async (v) => {
    try {
      const saved = await save.mutateAsync({ key: entry.key, value: v.value });
      reset({ value: saved.value });
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
        {!canEdit ? <Notice tone="info" title="Owner only">Only the owner can change this setting.</Notice> : null}
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
  const numeric = f.kind === 'cents' || f.kind === 'bp' || f.kind === 'int';
  return (
    <FormField label={f.label} required hint={hintOf(f, current)} error={error}>
      <Input
        type={f.kind === 'email' ? 'email' : 'text'}
        inputMode={numeric ? 'numeric' : undefined}
        autoComplete="off"
        {...register(path, numeric ? { setValueAs: (v: unknown) => (typeof v === 'number' ? v : String(v).trim() === '' ? Number.NaN : Number(v)) } : {})}
      />
    </FormField>
  );
}

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const shown = (v: unknown) => JSON.stringify(v && typeof v === 'object' && 'value' in v ? (v as { value: unknown }).value : v, null, 1);

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
                    <pre className="text-xs break-all whitespace-pre-wrap text-zinc-300">{shown(a.before)}</pre>
                  </div>
                  <div className="min-w-0">
                    <p className="text-xs tracking-wide text-zinc-400 uppercase">After</p>
                    <pre className="text-xs break-all whitespace-pre-wrap text-zinc-100">{shown(a.after)}</pre>
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
