import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useId, useState } from 'react';
import { useFieldArray, useForm, useWatch, type Path, type Resolver, type UseFormReturn } from 'react-hook-form';
import { ImagePlus, Plus, Trash2 } from 'lucide-react';
import { z } from 'zod';
import { UPLOAD_ACCEPT, UPLOAD_MAX_BYTES, imageUrl } from '@shared/contracts/catalog-look';
import {
  createDropSchema,
  createDropTemplateSchema,
  updateDropSchema,
  type AdminDrop,
  type CreateDropInput,
  type CreateDropTemplateInput,
  type UpdateDropInput,
} from '@shared/contracts/drops';
import { Button, Checkbox, FieldError, FileButton, FormField, Input, Label, Money, Notice, Textarea, cn, toast } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { applyServerFields, errorText } from '@web/lib/api-errors';
import { prizeCardSearchQuery, uploadDropImage, useCreateDrop, useCreateTemplate, useUpdateDrop } from './admin-api';
import { LOCAL_ZONE, fromLocalInput, toLocalInput } from '@web/lib/datetime-local';

/**
 * The drop form: a new drop (once, or a recurring daily template) or an existing drop's edit.
 * Fields hold what the inputs show (local date-times, numbers); one conversion turns them into
 * the API's input, and the shared contract validates that, so the browser and the server give
 * the same messages on the same fields.
 */

export interface PrizeRow {
  cardId: string;
  quantity: number;
  /** For display only (the contract strips them): name, set line and the stock when picked. */
  name: string;
  detail: string;
  stock: number | null;
}

export interface DropFormValues {
  mode: 'once' | 'daily';
  title: string;
  description: string;
  imageKey: string | null;
  opensAt: string;
  closesAt: string;
  openTime: string;
  durationMinutes: number;
  winnerCount: number;
  requireVerifiedEmail: boolean;
  minAccountAgeDays: number;
  prizes: PrizeRow[];
}

const prizesOut = (ps: PrizeRow[]) => ps.map((p) => ({ cardId: p.cardId, quantity: p.quantity }));

export function toCreateInput(v: DropFormValues): CreateDropInput {
  return {
    title: v.title,
    description: v.description,
    imageKey: v.imageKey,
    opensAt: fromLocalInput(v.opensAt),
    closesAt: fromLocalInput(v.closesAt),
    winnerCount: v.winnerCount,
    requireVerifiedEmail: v.requireVerifiedEmail,
    minAccountAgeDays: v.minAccountAgeDays,
    prizes: prizesOut(v.prizes),
  };
}

export function toTemplateInput(v: DropFormValues): CreateDropTemplateInput {
  return {
    title: v.title,
    description: v.description,
    imageKey: v.imageKey,
    openTime: v.openTime,
    durationMinutes: v.durationMinutes,
    winnerCount: v.winnerCount,
    requireVerifiedEmail: v.requireVerifiedEmail,
    minAccountAgeDays: v.minAccountAgeDays,
    prizes: prizesOut(v.prizes),
    active: true,
  };
}

/**
 * Once a drop is open only its text, image and a later close may change: the rest is not sent.
 * A time left as it was is not sent either: the input drops the seconds, and sending that back
 * would shorten an open drop by a few seconds.
 */
export function toUpdateInput(v: DropFormValues, existing: AdminDrop): UpdateDropInput {
  const out: UpdateDropInput = { title: v.title, description: v.description, imageKey: v.imageKey };
  if (v.closesAt !== toLocalInput(existing.closesAt)) out.closesAt = fromLocalInput(v.closesAt);
  if (existing.status === 'open') return out;
  const all = toCreateInput(v);
  if (v.opensAt !== toLocalInput(existing.opensAt)) out.opensAt = all.opensAt;
  return { ...out, winnerCount: all.winnerCount, requireVerifiedEmail: all.requireVerifiedEmail, minAccountAgeDays: all.minAccountAgeDays, prizes: all.prizes };
}

/** The form's resolver: the contract for the mode, over the converted values (paths match the fields). */
export function dropFormResolver(existing: AdminDrop | null): Resolver<DropFormValues> {
  const open = existing?.status === 'open';
  const update = updateDropSchema.superRefine((v, ctx) => {
    if (open && existing && v.closesAt && Date.parse(v.closesAt) < Date.parse(existing.closesAt)) {
      ctx.addIssue({ code: 'custom', path: ['closesAt'], message: 'An open drop may be extended, not shortened.' });
    }
  });
  const schemas = {
    once: existing ? z.preprocess((v) => toUpdateInput(v as DropFormValues, existing), update) : z.preprocess((v) => toCreateInput(v as DropFormValues), createDropSchema),
    daily: z.preprocess((v) => toTemplateInput(v as DropFormValues), createDropTemplateSchema),
  };
  return (values, ctx, options) => (zodResolver(schemas[values.mode] as never, undefined, { raw: true }) as unknown as Resolver<DropFormValues>)(values, ctx, options);
}

const HOUR = 3_600_000;

export function newDropDefaults(now = Date.now()): DropFormValues {
  const opens = Math.ceil((now + HOUR) / HOUR) * HOUR;
  return {
    mode: 'once',
    title: '',
    description: '',
    imageKey: null,
    opensAt: toLocalInput(new Date(opens).toISOString()),
    closesAt: toLocalInput(new Date(opens + 24 * HOUR).toISOString()),
    openTime: '12:00',
    durationMinutes: 24 * 60,
    winnerCount: 1,
    requireVerifiedEmail: true,
    minAccountAgeDays: 0,
    prizes: [],
  };
}

export function dropDefaults(d: AdminDrop): DropFormValues {
  return {
    ...newDropDefaults(),
    title: d.title,
    description: d.description,
    imageKey: d.imageKey,
    opensAt: toLocalInput(d.opensAt),
    closesAt: toLocalInput(d.closesAt),
    winnerCount: d.winnerCount,
    requireVerifiedEmail: d.requireVerifiedEmail,
    minAccountAgeDays: d.minAccountAgeDays,
    prizes: d.prizes.map((p) => ({ cardId: p.card.id, quantity: p.quantity, name: p.card.name, detail: `${p.card.setName} #${p.card.number}`, stock: null })),
  };
}

const BASE_FIELDS = ['title', 'description', 'imageKey', 'opensAt', 'closesAt', 'openTime', 'durationMinutes', 'winnerCount', 'requireVerifiedEmail', 'minAccountAgeDays', 'prizes'] as const;

/** Server errors onto the fields; out_of_stock names the card short of stock in its message, so it lands on that card's quantity. */
export function applyDropError(err: unknown, form: UseFormReturn<DropFormValues>) {
  const prizes = form.getValues('prizes');
  if (err instanceof ApiClientError && err.code === 'out_of_stock') {
    const i = prizes.findIndex((p) => err.message.includes(p.name));
    form.setError(i >= 0 ? (`prizes.${i}.quantity` as const) : 'prizes', { type: 'server', message: err.message }, { shouldFocus: true });
    return;
  }
  const known: Array<Path<DropFormValues>> = [...BASE_FIELDS, ...prizes.flatMap((_, i) => [`prizes.${i}.cardId`, `prizes.${i}.quantity`] as Array<Path<DropFormValues>>)];
  if (applyServerFields(err, form.setError, known)) return;
  form.setError('root', { type: 'server', message: errorText(err) });
}

export function DropForm({ existing, onDone }: { existing: AdminDrop | null; onDone?: (id: string | null) => void }) {
  const form = useForm<DropFormValues>({
    resolver: dropFormResolver(existing),
    defaultValues: existing ? dropDefaults(existing) : newDropDefaults(),
  });
  const { register, handleSubmit, formState, control } = form;
  const e = formState.errors;
  const mode = useWatch({ control, name: 'mode' });
  const create = useCreateDrop();
  const createTemplate = useCreateTemplate();
  const update = useUpdateDrop(existing?.id ?? '');
  // Locked once entrants have entered for these terms (the server says drop_locked too).
  const locked = existing?.status === 'open';
  const idp = useId();

  const submit = handleSubmit(async (v) => {
    try {
      if (existing) {
        const r = await update.mutateAsync(toUpdateInput(v, existing));
        form.reset(dropDefaults(r.drop));
        toast.success('Drop saved', r.drop.title);
        onDone?.(r.drop.id);
      } else if (v.mode === 'daily') {
        const r = await createTemplate.mutateAsync(toTemplateInput(v));
        toast.success('Recurring drop created', `${r.template.title}: opens every day at ${r.template.openTime} UTC.`);
        onDone?.(null);
      } else {
        const r = await create.mutateAsync(toCreateInput(v));
        toast.success(r.drop.status === 'open' ? 'Drop opened' : 'Drop scheduled', r.drop.title);
        onDone?.(r.drop.id);
      }
    } catch (err) {
      applyDropError(err, form);
    }
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-5" aria-label={existing ? 'Edit drop' : 'New drop'}>
      {e.root?.message ? (
        <Notice tone="danger" title="The drop was not saved">
          {e.root.message}
        </Notice>
      ) : null}
      {locked ? (
        <Notice tone="info" title="This drop is open" live={false}>
          People have entered for these prizes, this winner count and these rules, so they are locked. You can change the text and image, and
          extend the closing time.
        </Notice>
      ) : null}

      {!existing ? (
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-zinc-200">How often</legend>
          <div className="flex flex-wrap gap-4">
            <label className="flex items-center gap-2 text-sm text-zinc-200">
              <input type="radio" value="once" {...register('mode')} className="size-4 accent-violet-500" /> Once, at a set time
            </label>
            <label className="flex items-center gap-2 text-sm text-zinc-200">
              <input type="radio" value="daily" {...register('mode')} className="size-4 accent-violet-500" /> Every day (recurring)
            </label>
          </div>
        </fieldset>
      ) : null}

      <FormField label="Title" required error={e.title?.message}>
        <Input {...register('title')} autoComplete="off" />
      </FormField>
      <FormField label="Description" hint="Shown on the drop page. Optional." error={e.description?.message}>
        <Textarea rows={3} {...register('description')} />
      </FormField>
      <DropImageField form={form} />

      {mode === 'daily' && !existing ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="Opens every day at (UTC)" required hint="A new drop is scheduled for each day." error={e.openTime?.message}>
            <Input type="time" {...register('openTime')} />
          </FormField>
          <FormField label="Open for (minutes)" required hint="Between 5 and 1,440 (a day)." error={e.durationMinutes?.message}>
            <Input type="number" inputMode="numeric" min={5} max={1440} {...register('durationMinutes', { valueAsNumber: true })} />
          </FormField>
        </div>
      ) : (
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField
            label="Opens"
            required
            hint={locked ? 'Locked: the drop has opened.' : `Your time (${LOCAL_ZONE}).`}
            error={e.opensAt?.message}
          >
            <Input type="datetime-local" disabled={locked} {...register('opensAt')} />
          </FormField>
          <FormField label="Closes" required hint={locked ? 'May only move later.' : `Your time (${LOCAL_ZONE}).`} error={e.closesAt?.message}>
            <Input type="datetime-local" {...register('closesAt')} />
          </FormField>
        </div>
      )}

      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Winners" required hint="Each winner gets one prize card." error={e.winnerCount?.message}>
          <Input type="number" inputMode="numeric" min={1} disabled={locked} {...register('winnerCount', { valueAsNumber: true })} />
        </FormField>
        <FormField label="Minimum account age (days)" hint="0 lets new accounts enter." error={e.minAccountAgeDays?.message}>
          <Input type="number" inputMode="numeric" min={0} disabled={locked} {...register('minAccountAgeDays', { valueAsNumber: true })} />
        </FormField>
      </div>
      <FormField
        label="Only verified email addresses may enter"
        inline
        hint="Self-excluded and banned accounts can never enter."
        error={e.requireVerifiedEmail?.message}
      >
        <Checkbox disabled={locked} {...register('requireVerifiedEmail')} />
      </FormField>

      <PrizesField form={form} locked={locked} labelId={`${idp}-prizes`} />

      <div className="flex flex-wrap justify-end gap-2 pt-2">
        <Button type="submit" loading={formState.isSubmitting}>
          {existing ? 'Save changes' : mode === 'daily' ? 'Create recurring drop' : 'Schedule drop'}
        </Button>
      </div>
    </form>
  );
}

function DropImageField({ form }: { form: UseFormReturn<DropFormValues> }) {
  const id = useId();
  const imageKey = useWatch({ control: form.control, name: 'imageKey' });
  const [uploading, setUploading] = useState(false);
  const [localError, setLocalError] = useState<string | null>(null);
  const message = localError ?? form.formState.errors.imageKey?.message;
  const pick = async (file: File | undefined) => {
    setLocalError(null);
    if (!file) return;
    if (file.size > UPLOAD_MAX_BYTES) {
      setLocalError('This image is larger than 5 MB. Resize it and try again.');
      return;
    }
    setUploading(true);
    try {
      const u = await uploadDropImage(file);
      form.setValue('imageKey', u.key, { shouldDirty: true });
      form.clearErrors('imageKey');
    } catch (err) {
      setLocalError(err instanceof ApiClientError ? (err.fields?.file?.[0] ?? err.message) : 'The upload failed. Try again.');
    } finally {
      setUploading(false);
    }
  };
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>Image</Label>
      <div className="flex items-start gap-4">
        <div className="aspect-square w-20 shrink-0 overflow-hidden rounded-lg bg-white/5 ring-1 ring-white/10">
          {imageKey ? <img src={imageUrl(imageKey, 'thumb')} alt="" className="size-full object-cover" /> : null}
        </div>
        <div className="min-w-0 space-y-2">
          <div className="flex flex-wrap gap-2">
            <FileButton
              id={id}
              accept={UPLOAD_ACCEPT}
              onFile={(f) => void pick(f)}
              loading={uploading}
              buttonLabel={`${imageKey ? 'Replace image' : 'Upload image'} of the drop`}
              describedBy={`${id}-hint${message ? ` ${id}-error` : ''}`}
              invalid={Boolean(message)}
            >
              <ImagePlus aria-hidden="true" className="size-4" /> {imageKey ? 'Replace image' : 'Upload image'}
            </FileButton>
            {imageKey ? (
              <Button type="button" variant="ghost" size="sm" onClick={() => form.setValue('imageKey', null, { shouldDirty: true })}>
                Remove image
              </Button>
            ) : null}
          </div>
          <p id={`${id}-hint`} className="text-sm text-zinc-400">
            {uploading ? 'Uploading…' : 'Optional. PNG, JPEG or WebP, up to 5 MB. Without one the page shows the prize cards.'}
          </p>
          <FieldError id={`${id}-error`}>{message}</FieldError>
        </div>
      </div>
    </div>
  );
}

function PrizesField({ form, locked, labelId }: { form: UseFormReturn<DropFormValues>; locked: boolean; labelId: string }) {
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'prizes' });
  const errors = form.formState.errors.prizes;
  const listError = errors?.message ?? errors?.root?.message;
  const [search, setSearch] = useState('');
  const q = useDeferredValue(search.trim());
  const results = useQuery({ ...prizeCardSearchQuery(q), enabled: !locked });
  const picked = new Set(fields.map((f) => f.cardId));
  const searchId = useId();
  return (
    <fieldset className="space-y-3" aria-describedby={listError ? `${labelId}-error` : undefined}>
      <legend id={labelId} className="text-sm font-medium text-zinc-200">
        Prize cards
        <span aria-hidden="true" className="ml-0.5 text-fuchsia-300">
          *
        </span>
      </legend>
      <p className="text-sm text-zinc-400">Taken from stock when the drop is scheduled; returned if it is cancelled or nobody enters.</p>
      {fields.length === 0 ? (
        <p className="text-sm text-zinc-400">No prize yet: find a card below and add it.</p>
      ) : (
        <ul aria-label="Chosen prizes" className="space-y-2">
          {fields.map((f, i) => {
            const qErr = errors?.[i]?.quantity?.message ?? errors?.[i]?.cardId?.message;
            return (
              <li key={f.id} className="flex flex-wrap items-end gap-3 rounded-lg bg-white/5 p-3 ring-1 ring-white/10">
                <div className="min-w-40 flex-1">
                  <p className="font-medium text-white">{f.name}</p>
                  <p className="text-xs text-zinc-400">
                    {f.detail}
                    {f.stock !== null ? ` · ${f.stock} in stock` : ''}
                  </p>
                </div>
                <FormField label={`Copies of ${f.name}`} error={qErr} className="w-36">
                  <Input type="number" inputMode="numeric" min={1} disabled={locked} {...form.register(`prizes.${i}.quantity`, { valueAsNumber: true })} />
                </FormField>
                {!locked ? (
                  <Button type="button" variant="ghost" size="icon" aria-label={`Remove ${f.name}`} onClick={() => remove(i)}>
                    <Trash2 aria-hidden="true" className="size-4" />
                  </Button>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      <FieldError id={`${labelId}-error`}>{listError}</FieldError>
      {!locked ? (
        <div className="space-y-2">
          <Label htmlFor={searchId}>Find a card to add</Label>
          <Input
            id={searchId}
            type="search"
            value={search}
            onChange={(ev) => setSearch(ev.target.value)}
            placeholder="Name or set"
            autoComplete="off"
          />
          {results.isError ? (
            <p className="text-sm text-red-300">{errorText(results.error)}</p>
          ) : !results.data ? (
            <p className="text-sm text-zinc-400">Loading cards…</p>
          ) : results.data.items.length === 0 ? (
            <p className="text-sm text-zinc-400">No active card with stock matches “{q}”.</p>
          ) : (
            <ul aria-label="Cards with stock" className={cn('divide-y divide-white/5 rounded-lg ring-1 ring-white/10', results.isFetching && 'opacity-70')}>
              {results.data.items.map((c) => (
                <li key={c.id} className="flex items-center gap-3 px-3 py-2">
                  <div className="min-w-0 flex-1">
                    <p className="truncate text-sm text-white">{c.name}</p>
                    <p className="text-xs text-zinc-400">
                      {c.setName} #{c.number} · <Money cents={c.valueCents} /> · {c.stock} in stock
                    </p>
                  </div>
                  <Button
                    type="button"
                    size="sm"
                    variant="secondary"
                    disabled={picked.has(c.id)}
                    onClick={() => {
                      append({ cardId: c.id, quantity: 1, name: c.name, detail: `${c.setName} #${c.number}`, stock: c.stock });
                      form.clearErrors('prizes');
                    }}
                  >
                    <Plus aria-hidden="true" className="size-4" /> {picked.has(c.id) ? 'Added' : 'Add'}
                    <span className="sr-only"> {c.name}</span>
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
    </fieldset>
  );
}
