import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { slabInputSchema, slabPatchSchema, type Slab } from '@shared/contracts/catalog';
import {
  CERT_PATTERNS,
  formatGrade,
  GRADING_COMPANIES,
  gradesOf,
  SLAB_STATE_LABEL,
  slabFieldErrors,
  type GradingCompany,
} from '@shared/contracts/grading';
import { Badge, Button, FormField, Input, Notice, Select, Table, TBody, Td, Th, THead, toast, Tr } from '@web/components/ui';
import { applyServerFields, errorText } from '@web/lib/api-errors';
import { convertingResolver } from '@web/lib/form-resolver';
import { ImageUploadField } from './admin-kit';
import { adminSlabsQuery, useSlabMutations, type AdminCard } from './api';
import { plural, verb } from '@web/lib/format';

/**
 * A graded card's slabs (issue 38, ADR 0023): every physical copy with its own certificate, grade
 * and photos, and where it is. Adding a slab is how a graded card gains stock; a slab whose
 * certificate is missing is held out of stock until it is filled in here. The same field rules as
 * the API (shared/contracts/grading.ts `slabFieldErrors`), so the messages match.
 */
export function SlabsPanel({ card }: { card: AdminCard }) {
  const slabs = useQuery(adminSlabsQuery(card.id));
  const items = slabs.data?.items ?? [];
  const held = items.filter((s) => s.certMissing).length;
  return (
    <section aria-labelledby="slabs-title" className="rounded-2xl border border-white/10 bg-surface/80 p-5">
      <h2 id="slabs-title" className="text-lg font-semibold text-white">
        Slabs: {card.stock.toLocaleString()} in stock
      </h2>
      <p className="mt-1 text-sm text-zinc-400">
        A graded card&apos;s stock is its slabs: each physical copy has its own certificate and photos, and is in one place at a time. Add a slab for
        each copy you receive.
      </p>
      {held > 0 ? (
        <Notice tone="warning" className="mt-3">
          {plural(held, 'slab')} {verb(held, 'has', 'have')} no certificate yet. Fill it in from the label: a held slab goes back into stock then.
        </Notice>
      ) : null}
      <AddSlabForm card={card} />
      {slabs.isError ? (
        <Notice tone="danger" className="mt-3">
          {errorText(slabs.error)}
        </Notice>
      ) : items.length ? (
        <div className="mt-5">
          <Table caption={`This card's slabs (${items.length})`}>
            <THead>
              <Tr>
                <Th>Certificate</Th>
                <Th>Grade</Th>
                <Th>Where</Th>
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              </Tr>
            </THead>
            <TBody>
              {items.map((s) => (
                <SlabRow key={s.id} cardId={card.id} slab={s} />
              ))}
            </TBody>
          </Table>
        </div>
      ) : (
        <p className="mt-4 text-sm text-zinc-400">No slabs yet.</p>
      )}
    </section>
  );
}

/** A held slab's missing certificate, as typed. */
interface CertFormValues {
  certNumber: string;
}
type SlabPatch = z.output<typeof slabPatchSchema>;

/** The grader's certificate format (slabFieldErrors), then the PATCH contract. */
export const certResolver = (slab: Pick<Slab, 'grader' | 'grade'>) =>
  convertingResolver<CertFormValues, SlabPatch>({
    fields: ['certNumber'],
    schema: slabPatchSchema,
    toInput: (v, bad) => {
      const certNumber = v.certNumber.trim();
      const fields = slabFieldErrors({ grader: slab.grader, grade: slab.grade, certNumber: certNumber || null });
      if (fields.certNumber?.[0]) bad('certNumber', fields.certNumber[0]);
      return { certNumber };
    },
  });

function SlabRow({ cardId, slab }: { cardId: string; slab: Slab }) {
  const m = useSlabMutations(cardId);
  const form = useForm<CertFormValues, unknown, SlabPatch>({ resolver: certResolver(slab), defaultValues: { certNumber: '' } });
  // A failure no field explains (a removal's, too).
  const [error, setError] = useState<string | null>(null);
  const fill = form.handleSubmit(async (patch) => {
    setError(null);
    try {
      await m.update.mutateAsync({ slabId: slab.id, patch });
      toast({ title: `Certificate ${patch.certNumber ?? ''} saved.`, tone: 'success' });
    } catch (err) {
      if (!applyServerFields(err, form.setError, ['certNumber'])) setError(errorText(err));
    }
  });
  const remove = async () => {
    try {
      await m.remove.mutateAsync(slab.id);
      toast({ title: 'Slab removed.', tone: 'success' });
    } catch (err) {
      setError(errorText(err));
    }
  };
  const inShop = slab.state === 'in_stock' || slab.state === 'held';
  return (
    <Tr>
      <Td className="font-mono">
        {slab.certNumber ?? (
          <div className="flex flex-wrap items-start gap-2 font-sans">
            <FormField
              label={`Certificate for this ${slab.grader} slab`}
              error={form.formState.errors.certNumber?.message ?? error ?? undefined}
              hint={CERT_PATTERNS[slab.grader].rule}
            >
              <Input {...form.register('certNumber')} inputMode="numeric" autoComplete="off" />
            </FormField>
            <Button size="sm" className="mt-6" onClick={() => void fill()} loading={m.update.isPending}>
              Save certificate
            </Button>
          </div>
        )}
      </Td>
      <Td className="whitespace-nowrap">
        {slab.grader} {formatGrade(slab.grade)}
      </Td>
      <Td>
        <Badge tone={slab.state === 'in_stock' ? 'success' : slab.state === 'held' ? 'warning' : 'neutral'}>{SLAB_STATE_LABEL[slab.state]}</Badge>
      </Td>
      <Td>
        {inShop ? (
          <Button variant="ghost" size="sm" onClick={() => void remove()} loading={m.remove.isPending}>
            Remove<span className="sr-only"> slab {slab.certNumber ?? 'without certificate'}</span>
          </Button>
        ) : null}
        {slab.certNumber && error ? <span className="text-sm text-red-300">{error}</span> : null}
      </Td>
    </Tr>
  );
}

/** The new slab's fields as the inputs hold them (the grade as the select's text). */
export interface SlabFormValues {
  grader: GradingCompany;
  grade: string;
  certNumber: string;
  frontPhotoKey: string;
  backPhotoKey: string;
}
const SLAB_FIELDS = ['grader', 'grade', 'certNumber', 'frontPhotoKey', 'backPhotoKey'] as const;
type NewSlab = z.output<typeof slabInputSchema>;
// The server names one slab of the batch `slabs.0.<field>`.
const BATCH_FIELDS: Record<string, (typeof SLAB_FIELDS)[number]> = Object.fromEntries(SLAB_FIELDS.map((f) => [`slabs.0.${f}`, f]));

/** The grader's grades and certificate format (slabFieldErrors, as the API checks them), then the slab contract. */
export const slabResolver = convertingResolver<SlabFormValues, NewSlab>({
  fields: SLAB_FIELDS,
  schema: slabInputSchema,
  toInput: (v, bad) => {
    const grade = v.grade ? Number(v.grade) : null;
    const certNumber = v.certNumber.trim();
    const fields = slabFieldErrors({ grader: v.grader, grade, certNumber: certNumber || null });
    for (const f of ['grader', 'grade', 'certNumber'] as const) if (fields[f]?.[0]) bad(f, fields[f][0]);
    return { grader: v.grader, grade, certNumber, frontPhotoKey: v.frontPhotoKey || null, backPhotoKey: v.backPhotoKey || null };
  },
});

function AddSlabForm({ card }: { card: AdminCard }) {
  const m = useSlabMutations(card.id);
  const { register, handleSubmit, formState, setError, setValue, reset, getValues, control } = useForm<SlabFormValues, unknown, NewSlab>({
    resolver: slabResolver,
    defaultValues: { grader: card.gradingCompany ?? 'PSA', grade: card.grade === null ? '' : String(card.grade), certNumber: '', frontPhotoKey: '', backPhotoKey: '' },
  });
  const errors = formState.errors;
  const [grader, front, back] = useWatch({ control, name: ['grader', 'frontPhotoKey', 'backPhotoKey'] });
  const submit = handleSubmit(async (slab) => {
    try {
      const res = await m.add.mutateAsync([slab]);
      toast({ title: `Slab ${slab.grader ?? ''} ${slab.certNumber ?? ''} added: stock is now ${res.card.stock}.`, tone: 'success' });
      // The next slab of a batch usually has the same grader and grade.
      reset({ ...getValues(), certNumber: '', frontPhotoKey: '', backPhotoKey: '' });
    } catch (err) {
      if (applyServerFields(err, setError, SLAB_FIELDS, BATCH_FIELDS)) return;
      setError('root', { type: 'server', message: errorText(err) });
    }
  });
  return (
    <form onSubmit={submit} noValidate className="mt-4 space-y-4" aria-label="Add a slab">
      <div className="grid gap-4 sm:grid-cols-3">
        <FormField label="Grading company" error={errors.grader?.message}>
          <Select {...register('grader')}>
            {GRADING_COMPANIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </Select>
        </FormField>
        <FormField label="Grade" error={errors.grade?.message}>
          <Select {...register('grade')}>
            <option value="">Pick the grade…</option>
            {gradesOf(grader).map((g) => (
              <option key={g} value={String(g)}>
                {formatGrade(g)}
              </option>
            ))}
          </Select>
        </FormField>
        <FormField label="Certificate number" required hint={CERT_PATTERNS[grader].rule} error={errors.certNumber?.message}>
          <Input {...register('certNumber')} inputMode="numeric" autoComplete="off" />
        </FormField>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <ImageUploadField
          label="Photo of this slab's front"
          value={front}
          onChange={(key) => setValue('frontPhotoKey', key, { shouldDirty: true })}
          error={errors.frontPhotoKey?.message}
          previewClassName="aspect-[3/5] w-20"
        />
        <ImageUploadField
          label="Photo of this slab's back"
          value={back}
          onChange={(key) => setValue('backPhotoKey', key, { shouldDirty: true })}
          error={errors.backPhotoKey?.message}
          previewClassName="aspect-[3/5] w-20"
        />
      </div>
      {errors.root?.message ? <Notice tone="danger">{errors.root.message}</Notice> : null}
      <Button type="submit" loading={m.add.isPending}>
        Add slab
      </Button>
    </form>
  );
}
