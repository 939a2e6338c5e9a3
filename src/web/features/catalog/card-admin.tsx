import { applyServerFields, errorText } from '@web/lib/api-errors';
import { formatDateTime, plural } from '@web/lib/format';
import type { Paged } from '@shared/contracts/paging';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { lookFromRefs, MAX_STOCK, UPLOAD_KEY, type LookRefs, type StockAdjustment } from '@shared/contracts/catalog';
import { parseMoney } from '@shared/money';
import { CERT_PATTERNS, formatGrade, GRADING_COMPANIES, GRADING_COMPANY_NAME, gradesOf, listingFieldErrors, slabFieldErrors, type GradingCompany } from '@shared/contracts/grading';
import {
  Badge,
  Button,
  buttonClasses,
  Checkbox,
  Dialog,
  FileButton,
  FormField,
  Input,
  Money,
  Notice,
  Select,
  Table,
  TBody,
  Td,
  Textarea,
  Th,
  THead,
  toast,
  Tr,
} from '@web/components/ui';
import { FilterSelect, ImageUploadField, StatusBadge } from './admin-kit';
import {
  adminListQuery,
  adminOptionsQuery,
  exportCsvUrl,
  useAdjustStock,
  useImportCsv,
  type AdminCard,
} from './api';
import { CardView } from './card-view';
import { SlabsPanel } from './slab-admin';
import { EditorScreen, EditorShell } from './editor-shell';
import { ListShell, useListState } from './list-shell';
import { effectiveTexture, previewLook } from './look';
import { useEntityEditor } from './use-entity-editor';
import { proposalsQuery } from './value-reviews';

const SORTS = [
  { value: 'newest', label: 'Newest' },
  { value: 'oldest', label: 'Oldest' },
  { value: 'name', label: 'Name' },
  { value: 'number', label: 'Set and number' },
  { value: 'value_desc', label: 'Value: high to low' },
  { value: 'value_asc', label: 'Value: low to high' },
  { value: 'stock_asc', label: 'Stock: low to high' },
  { value: 'stock_desc', label: 'Stock: high to low' },
];

export function CardListScreen() {
  const state = useListState({ q: '', classId: '', set: '', active: '', stock: '', archived: 'active', sort: 'newest', page: '1' });
  const { s, set, page } = state;
  const filters = {
    q: s.q || undefined,
    classId: s.classId || undefined,
    set: s.set || undefined,
    active: s.active || undefined,
    stock: s.stock || undefined,
    archived: s.archived,
    sort: s.sort,
  };
  const list = useQuery(adminListQuery('cards', { ...filters, page, pageSize: 25 }));
  const options = useQuery(adminOptionsQuery);
  const [importOpen, setImportOpen] = useState(false);
  return (
    <ListShell
      entity="cards"
      list={list}
      state={state}
      sorts={SORTS}
      filters={
        <>
          <FilterSelect
            label="Class"
            value={s.classId}
            onChange={(classId) => set({ classId })}
            options={[{ value: '', label: 'All classes' }, ...(options.data?.classes ?? []).map((c) => ({ value: c.id, label: c.name }))]}
          />
          <FilterSelect
            label="Set"
            value={s.set}
            onChange={(v) => set({ set: v })}
            options={[{ value: '', label: 'All sets' }, ...(options.data?.sets ?? []).map((x) => ({ value: x.name, label: x.name }))]}
          />
          <FilterSelect
            label="On sale"
            value={s.active}
            onChange={(active) => set({ active })}
            options={[
              { value: '', label: 'Any' },
              { value: 'true', label: 'On sale' },
              { value: 'false', label: 'Inactive' },
            ]}
          />
          <FilterSelect
            label="Stock"
            value={s.stock}
            onChange={(stock) => set({ stock })}
            options={[
              { value: '', label: 'Any' },
              { value: 'in', label: 'In stock' },
              { value: 'low', label: 'Low (1–5)' },
              { value: 'out', label: 'Out of stock' },
            ]}
          />
        </>
      }
      filteredHint="Nothing matches those filters."
      emptyHint="Create a card, or import many at once from CSV."
      actions={
        <>
          <Button variant="secondary" onClick={() => setImportOpen(true)}>
            Import CSV
          </Button>
          <a href={exportCsvUrl(filters)} className={buttonClasses({ variant: 'secondary' })} download>
            Export CSV
          </a>
        </>
      }
      after={<ImportDialog open={importOpen} onOpenChange={setImportOpen} />}
    >
      {(data) => (
        <Table caption="Cards" captionHidden>
          <THead>
            <Tr>
              <Th>Card</Th>
              <Th>Set · #</Th>
              <Th>Class</Th>
              <Th className="text-right">Value</Th>
              <Th className="text-right">Stock</Th>
              <Th>Status</Th>
            </Tr>
          </THead>
          <TBody>
            {data.items.map((c) => (
              <CardRow key={c.id} card={c} refs={data.refs!} />
            ))}
          </TBody>
        </Table>
      )}
    </ListShell>
  );
}

function CardRow({ card, refs }: { card: AdminCard; refs: LookRefs }) {
  const look = lookFromRefs({ ...card, textureId: card.effectiveTextureId }, refs);
  return (
    <Tr>
      <Td>
        <Link to="/admin/cards/$id" params={{ id: card.id }} className="flex items-center gap-3 font-medium text-white hover:text-violet-200">
          <span className="w-10 shrink-0">
            <CardView look={look} size="xs" fluid interactive={false} />
          </span>
          <span className="truncate">{card.name}</span>
        </Link>
      </Td>
      <Td className="whitespace-nowrap">
        {card.setName} · #{card.number}
      </Td>
      <Td>
        <span className="inline-flex items-center gap-2">
          <span aria-hidden="true" className="size-2.5 rounded-full" style={{ background: look.classColour }} />
          {look.className}
        </span>
      </Td>
      <Td className="text-right tabular-nums">
        <Money cents={card.valueCents} />
      </Td>
      <Td className="text-right tabular-nums">{card.stock === 0 ? <Badge tone="danger">0</Badge> : card.stock.toLocaleString()}</Td>
      <Td>
        <StatusBadge archivedAt={card.archivedAt} active={card.active} />
      </Td>
    </Tr>
  );
}

function ImportDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  const id = useId();
  const [csv, setCsv] = useState('');
  const [fileName, setFileName] = useState('');
  const run = useImportCsv();
  const readCsv = async (f: File | undefined) => {
    run.reset();
    if (!f) return;
    if (f.size > 900_000) {
      setFileName('');
      setCsv('');
      toast({ title: 'That file is too large; split it into files under 900 KB.', tone: 'danger' });
      return;
    }
    setFileName(f.name);
    setCsv(await f.text());
  };
  const result = run.data;
  const doRun = (dryRun: boolean) =>
    run.mutate(
      { csv, dryRun },
      {
        onSuccess: (r) => {
          if (r.ok && !r.dryRun) toast({ title: `Imported: ${r.created} created, ${r.updated} updated.`, tone: 'success' });
        },
      },
    );
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        onOpenChange(o);
        if (!o) {
          run.reset();
          setCsv('');
          setFileName('');
        }
      }}
      title="Import cards from CSV"
      description="Columns: name, set, number, class, architect, texture, image, value, description, active, stock. Cards are matched on set + number: existing ones are updated, new ones created. If any row has a problem, nothing is imported."
      className="sm:max-w-2xl"
    >
      <div className="space-y-4">
        <div>
          <label htmlFor={id} className="block text-sm font-medium text-zinc-200">
            CSV file
          </label>
          <div className="mt-1">
            <FileButton
              id={id}
              accept=".csv,text/csv"
              fileName={fileName || null}
              onFile={(f) => void readCsv(f)}
            >
              {fileName ? 'Choose another file' : 'Choose a CSV file'}
            </FileButton>
          </div>
          <p className="mt-1 text-sm text-zinc-400">{fileName ? `${fileName}: ${csv.split(/\r?\n/).filter(Boolean).length - 1} rows` : 'Tip: export first to get the format.'}</p>
        </div>
        {run.isError ? <Notice tone="danger">{(run.error as Error).message}</Notice> : null}
        {result ? (
          result.ok ? (
            <Notice tone="success" title={result.dryRun ? 'Everything checks out' : 'Imported'}>
              {result.dryRun ? 'Would create' : 'Created'} {result.created} and {result.dryRun ? 'update' : 'updated'} {result.updated} cards.
            </Notice>
          ) : (
            <div>
              <Notice tone="danger" title="Nothing was imported">
                {plural(result.errors.length, 'problem')} to fix. Correct the file and try again.
              </Notice>
              <div className="mt-3 max-h-72 overflow-auto">
                <Table caption="Problems by row">
                  <THead>
                    <Tr>
                      <Th>Row</Th>
                      <Th>Column</Th>
                      <Th>Problem</Th>
                    </Tr>
                  </THead>
                  <TBody>
                    {result.errors.map((e, i) => (
                      <Tr key={i}>
                        <Td>{e.row}</Td>
                        <Td>{e.field ?? '—'}</Td>
                        <Td>{e.message}</Td>
                      </Tr>
                    ))}
                  </TBody>
                </Table>
              </div>
            </div>
          )
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" disabled={!csv} loading={run.isPending && run.variables?.dryRun} onClick={() => doRun(true)}>
            Check only
          </Button>
          <Button disabled={!csv} loading={run.isPending && !run.variables?.dryRun} onClick={() => doRun(false)}>
            Import
          </Button>
        </div>
      </div>
    </Dialog>
  );
}

// ───────────── detail ─────────────

const cardFormSchema = z.object({
  name: z.string().trim().min(1, 'Name is required.').max(80, 'Name must be at most 80 characters.'),
  setName: z.string().trim().min(1, 'Set is required.').max(60, 'Set must be at most 60 characters.'),
  number: z.number({ message: 'Number must be a number.' }).int('Number must be a whole number.').min(1, 'Number starts at 1.').max(99999),
  classId: z.string().min(1, 'Pick a class.'),
  architectId: z.string().min(1, 'Pick an architect.'),
  textureId: z.string(),
  imageKey: z.string().regex(UPLOAD_KEY, 'Upload the artwork.'),
  value: z
    .string()
    .trim()
    .refine((v) => parseMoney(v) !== null, 'Enter an amount such as 12.50.')
    .refine((v) => (parseMoney(v) ?? 0) <= 100_000_000, 'Value must be at most $1,000,000.'),
  description: z.string().max(2000, 'Description must be at most 2000 characters.'),
  active: z.boolean(),
  stock: z.number({ message: 'Stock must be a number.' }).int('Stock must be a whole number.').min(0, 'Stock cannot be negative.').max(MAX_STOCK),
  gradingCompany: z.enum(['', ...GRADING_COMPANIES]),
  grade: z.string(),
  certNumber: z.string().trim(),
  frontPhotoKey: z.string(),
  backPhotoKey: z.string(),
})
  // The same rules as the API (shared/contracts/grading.ts), so the messages match.
  .superRefine((f, ctx) => {
    const errors = listingFieldErrors({ gradingCompany: f.gradingCompany || null, grade: f.grade ? Number(f.grade) : null });
    // A certificate (the first slab's, on a new card) is checked against its company's format.
    if (f.gradingCompany && f.grade && f.certNumber) {
      const cert = slabFieldErrors({ grader: f.gradingCompany, grade: Number(f.grade), certNumber: f.certNumber }).certNumber;
      if (cert) errors.certNumber = cert;
    }
    for (const [path, [message]] of Object.entries(errors)) ctx.addIssue({ code: 'custom', path: [path], message: message! });
  });

export function CardDetailScreen({ id }: { id: string }) {
  return (
    <EditorScreen entity="cards" id={id} needsOptions>
      {(answer) => <CardEditor existing={answer?.card ?? null} adjustments={answer?.adjustments} />}
    </EditorScreen>
  );
}

const centsToInput = (c: number) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`;

function CardEditor({ existing, adjustments }: { existing: AdminCard | null; adjustments?: Paged<StockAdjustment> }) {
  const options = useQuery(adminOptionsQuery);
  // A value change beyond the owner's daily bound is held for the owner (ADR 0024): the card keeps
  // its value. The queue says so after a reload; the save's answer says so at once.
  const pending = useQuery({ ...proposalsQuery('pending'), enabled: existing !== null });
  const [heldNow, setHeldNow] = useState<{ toCents: number; message: string } | null>(null);
  const queued = existing ? pending.data?.items.find((p) => p.cardId === existing.id) : undefined;
  const held = heldNow ?? (queued ? { toCents: queued.toCents, message: null } : null);
  const editor = useEntityEditor({
    entity: 'cards',
    existing,
    schema: cardFormSchema,
    defaultValues: existing
      ? {
          name: existing.name,
          setName: existing.setName,
          number: existing.number,
          classId: existing.classId,
          architectId: existing.architectId,
          textureId: existing.textureId ?? '',
          imageKey: existing.imageKey,
          value: centsToInput(existing.valueCents),
          description: existing.description,
          active: existing.active,
          stock: existing.stock,
          gradingCompany: existing.gradingCompany ?? '',
          grade: existing.grade === null ? '' : String(existing.grade),
          certNumber: '',
          frontPhotoKey: existing.frontPhotoKey ?? '',
          backPhotoKey: existing.backPhotoKey ?? '',
        }
      : {
          name: '',
          setName: '',
          number: 1,
          classId: '',
          architectId: '',
          textureId: '',
          imageKey: '',
          value: '',
          description: '',
          active: true,
          stock: 0,
          gradingCompany: '',
          grade: '',
          certNumber: '',
          frontPhotoKey: '',
          backPhotoKey: '',
        },
    toInput: (f) => ({
      name: f.name,
      setName: f.setName,
      number: f.number,
      classId: f.classId,
      architectId: f.architectId,
      textureId: f.textureId || null,
      imageKey: f.imageKey,
      valueCents: parseMoney(f.value)!,
      description: f.description,
      active: f.active,
      gradingCompany: f.gradingCompany || null,
      grade: f.gradingCompany && f.grade ? Number(f.grade) : null,
      frontPhotoKey: f.frontPhotoKey || null,
      backPhotoKey: f.backPhotoKey || null,
      // Stock changes only through the stock panel, with a reason, once the card exists; a
      // graded card's stock is its slabs (the certificate given here is the first one).
      ...(existing
        ? {}
        : f.gradingCompany
          ? { certNumber: f.certNumber || null, stock: f.certNumber ? 1 : 0 }
          : { stock: f.stock }),
    }),
    serverFields: { valueCents: 'value' },
    onSaved: (answer) => {
      const proposal = 'valueProposal' in answer ? answer.valueProposal : undefined;
      setHeldNow(proposal ?? null);
      if (!proposal) return false;
      // The field shows the value in effect again, so a later save does not propose it anew.
      editor.form.resetField('value', { defaultValue: centsToInput(answer.card.valueCents) });
      toast({ title: 'Card saved; the value waits for the owner.', description: proposal.message, tone: 'info' });
      return true;
    },
  });
  const { form, values: v } = editor;
  const { register, formState, setValue } = form;
  const o = options.data;
  // Archived records stay listed when this card already uses them.
  const classes = (o?.classes ?? []).filter((c) => !c.archivedAt || c.id === existing?.classId);
  const cls = o?.classes.find((c) => c.id === v.classId);
  const architect = o?.architects.find((a) => a.id === v.architectId) ?? null;
  const texture = effectiveTexture(v.textureId, cls, o?.textures ?? []);
  const classDefault = cls?.defaultTextureId ? o?.textures.find((t) => t.id === cls.defaultTextureId) : null;
  const setsId = useId();

  return (
    <EditorShell
      editor={editor}
      deleteHint="Only a card with no stock that nobody owns and no pack uses can be deleted; otherwise archive it (which takes it off sale)."
      archivedNotice="This card is archived and off sale. Restore it, then switch “On sale” back on to sell it again."
      after={existing ? existing.gradingCompany ? <SlabsPanel card={existing} /> : <StockPanel card={existing} adjustments={adjustments} /> : null}
      preview={
        <CardView
          fluid
          size="lg"
          look={previewLook({
            name: v.name || 'Card name',
            valueCents: parseMoney(v.value ?? '') ?? 0,
            imageKey: v.imageKey,
            cls,
            architect,
            texture,
          })}
        />
      }
    >
      <div className="grid gap-5 sm:grid-cols-[1fr_8rem]">
        <FormField label="Set" required hint="The series this card belongs to." error={formState.errors.setName?.message}>
          <Input {...register('setName')} list={setsId} autoComplete="off" />
        </FormField>
        <FormField label="Number" required error={formState.errors.number?.message}>
          <Input type="number" inputMode="numeric" {...register('number', { valueAsNumber: true })} />
        </FormField>
        <datalist id={setsId}>
          {(o?.sets ?? []).map((x) => (
            <option key={x.name} value={x.name} />
          ))}
        </datalist>
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField label="Class" required error={formState.errors.classId?.message}>
          <Select {...register('classId')}>
            <option value="">Pick a class…</option>
            {classes.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </Select>
        </FormField>
        <FormField label="Architect (frame)" required error={formState.errors.architectId?.message}>
          <Select {...register('architectId')}>
            <option value="">Pick a frame…</option>
            {(o?.architects ?? []).map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </Select>
        </FormField>
      </div>
      <FormField label="Texture (foil)" hint="Leave on the class default unless this card needs its own foil." error={formState.errors.textureId?.message}>
        <Select {...register('textureId')}>
          <option value="">{classDefault ? `Class default (${classDefault.name})` : 'Class default (none)'}</option>
          {(o?.textures ?? []).map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </Select>
      </FormField>
      <ImageUploadField
        label="Artwork"
        hint="Portrait works best. PNG, JPEG or WebP, up to 5 MB."
        value={v.imageKey}
        onChange={(key) => setValue('imageKey', key, { shouldValidate: true, shouldDirty: true })}
        error={formState.errors.imageKey?.message}
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField label="Market value (USD)" required hint="What one copy is worth, e.g. 12.50." error={formState.errors.value?.message}>
          <Input inputMode="decimal" {...register('value')} placeholder="0.00" />
        </FormField>
        {existing ? (
          <FormField label="Stock" hint={existing.gradingCompany ? 'One per slab in stock: add slabs below.' : 'Change it with a reason below.'}>
            <Input value={existing.stock} readOnly disabled />
          </FormField>
        ) : v.gradingCompany ? (
          <FormField label="Starting stock" hint="A graded card's stock is its slabs: the certificate below is the first; add the others once the card is saved.">
            <Input value={v.certNumber ? 1 : 0} readOnly disabled />
          </FormField>
        ) : (
          <FormField label="Starting stock" hint="Copies in the vault now." error={formState.errors.stock?.message}>
            <Input type="number" inputMode="numeric" {...register('stock', { valueAsNumber: true })} />
          </FormField>
        )}
      </div>
      {held && existing ? (
        <Notice tone="info" title="Waiting for the owner">
          {held.message ?? (
            <>
              The value change to <Money cents={held.toCents} /> is more than admins may make alone in a day, so it waits for the owner. The card keeps{' '}
              <Money cents={existing.valueCents} /> until then.
            </>
          )}{' '}
          <Link to="/admin/value-reviews" className="text-violet-300 underline underline-offset-4">
            See value reviews
          </Link>
        </Notice>
      ) : null}
      <FormField label="Description" error={formState.errors.description?.message}>
        <Textarea rows={3} {...register('description')} />
      </FormField>
      <fieldset className="space-y-4 rounded-xl border border-white/10 p-4">
        <legend className="px-1 text-sm font-semibold text-white">Grading and photos of the physical card</legend>
        <div className="grid gap-5 sm:grid-cols-3">
          <FormField label="Grading company" error={formState.errors.gradingCompany?.message}>
            <Select {...register('gradingCompany')}>
              <option value="">Not graded</option>
              {GRADING_COMPANIES.map((c) => (
                <option key={c} value={c}>
                  {GRADING_COMPANY_NAME[c]}
                </option>
              ))}
            </Select>
          </FormField>
          <FormField label="Grade" error={formState.errors.grade?.message}>
            <Select {...register('grade')} disabled={!v.gradingCompany}>
              <option value="">{v.gradingCompany ? 'Pick the grade…' : '—'}</option>
              {v.gradingCompany
                ? gradesOf(v.gradingCompany as GradingCompany)
                    .slice()
                    .reverse()
                    .map((g) => (
                      <option key={g} value={String(g)}>
                        {formatGrade(g)}
                      </option>
                    ))
                : null}
            </Select>
          </FormField>
          {existing ? null : (
            <FormField
              label="Certificate of the first slab"
              hint={v.gradingCompany ? CERT_PATTERNS[v.gradingCompany as GradingCompany].rule : 'On the slab label.'}
              error={formState.errors.certNumber?.message}
            >
              <Input {...register('certNumber')} inputMode="numeric" autoComplete="off" disabled={!v.gradingCompany} />
            </FormField>
          )}
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          <ImageUploadField
            label="Photo of the front"
            hint="The physical copy (or its slab), kept beside the artwork."
            value={v.frontPhotoKey}
            onChange={(key) => setValue('frontPhotoKey', key, { shouldValidate: true, shouldDirty: true })}
            error={formState.errors.frontPhotoKey?.message}
            previewClassName="aspect-[3/5] w-24"
          />
          <ImageUploadField
            label="Photo of the back"
            value={v.backPhotoKey}
            onChange={(key) => setValue('backPhotoKey', key, { shouldValidate: true, shouldDirty: true })}
            error={formState.errors.backPhotoKey?.message}
            previewClassName="aspect-[3/5] w-24"
          />
        </div>
        {v.frontPhotoKey || v.backPhotoKey ? (
          <div className="flex flex-wrap gap-2">
            {v.frontPhotoKey ? (
              <Button variant="ghost" size="sm" onClick={() => setValue('frontPhotoKey', '', { shouldDirty: true })}>
                Remove the front photo
              </Button>
            ) : null}
            {v.backPhotoKey ? (
              <Button variant="ghost" size="sm" onClick={() => setValue('backPhotoKey', '', { shouldDirty: true })}>
                Remove the back photo
              </Button>
            ) : null}
          </div>
        ) : null}
      </fieldset>
      <FormField label="On sale (shown on /cards and can be pulled)" inline error={formState.errors.active?.message}>
        <Checkbox {...register('active')} />
      </FormField>
    </EditorShell>
  );
}

const stockSchema = z.object({
  delta: z
    .number({ message: 'Enter how many copies to add (e.g. 5) or remove (e.g. -2).' })
    .int('Use a whole number.')
    .refine((d) => d !== 0, 'The change cannot be zero.'),
  reason: z.string().trim().min(3, 'Say why, in a few words.').max(300),
});
type StockForm = z.infer<typeof stockSchema>;

function StockPanel({ card, adjustments }: { card: AdminCard; adjustments?: Paged<StockAdjustment> }) {
  const adjust = useAdjustStock(card.id);
  const form = useForm<StockForm>({ resolver: zodResolver(stockSchema), defaultValues: { reason: '' } });
  const { register, handleSubmit, formState, setError, reset } = form;
  const onSubmit = handleSubmit(async (v) => {
    try {
      const res = await adjust.mutateAsync(v);
      toast({ title: `Stock is now ${res.card.stock}.`, tone: 'success' });
      reset({ reason: '' });
    } catch (err) {
      applyServerFields(err, setError, ['delta', 'reason']);
      setError('root', { message: errorText(err) });
    }
  });
  return (
    <section aria-labelledby="stock-title" className="rounded-2xl border border-white/10 bg-surface/80 p-5">
      <h2 id="stock-title" className="text-lg font-semibold text-white">
        Stock: {card.stock.toLocaleString()} in the vault
      </h2>
      <p className="mt-1 text-sm text-zinc-400">Every change needs a reason and is kept in the history below and in the audit log.</p>
      <form onSubmit={onSubmit} noValidate className="mt-4 grid gap-4 sm:grid-cols-[8rem_1fr_auto] sm:items-start">
        <FormField label="Change" error={formState.errors.delta?.message}>
          <Input type="number" inputMode="numeric" placeholder="+5 or -2" {...register('delta', { valueAsNumber: true })} />
        </FormField>
        <FormField label="Reason" error={formState.errors.reason?.message}>
          <Input {...register('reason')} placeholder="e.g. New shipment received" />
        </FormField>
        <div className="sm:pt-6">
          <Button type="submit" loading={formState.isSubmitting}>
            Apply
          </Button>
        </div>
      </form>
      {formState.errors.root?.message ? (
        <Notice tone="danger" className="mt-3">
          {formState.errors.root.message}
        </Notice>
      ) : null}
      {adjustments && adjustments.items.length ? (
        <div className="mt-5">
          <Table caption={`Recent stock changes (${adjustments.total})`}>
            <THead>
              <Tr>
                <Th>When</Th>
                <Th className="text-right">Change</Th>
                <Th className="text-right">After</Th>
                <Th>Reason</Th>
              </Tr>
            </THead>
            <TBody>
              {adjustments.items.map((a) => (
                <Tr key={a.id}>
                  <Td className="whitespace-nowrap">{formatDateTime(a.createdAt)}</Td>
                  <Td className={`text-right tabular-nums ${a.delta > 0 ? 'text-emerald-300' : 'text-red-300'}`}>{a.delta > 0 ? `+${a.delta}` : a.delta}</Td>
                  <Td className="text-right tabular-nums">{a.stockAfter}</Td>
                  <Td>{a.reason}</Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        </div>
      ) : (
        <p className="mt-4 text-sm text-zinc-400">No stock changes yet.</p>
      )}
    </section>
  );
}
