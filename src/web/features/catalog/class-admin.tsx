import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { z } from 'zod';
import { HEX_COLOUR, type CardClass } from '@shared/contracts/catalog';
import { FormField, Input, Select, Table, TBody, Td, Th, THead, Tr } from '@web/components/ui';
import { StatusBadge } from './admin-kit';
import { adminListQuery, adminOptionsQuery } from './api';
import { CardView } from './card-view';
import { EditorScreen, EditorShell } from './editor-shell';
import { ListShell, useListState } from './list-shell';
import { previewLook } from './look';
import { useEntityEditor } from './use-entity-editor';
import { bpsToPercentText, percentToBps } from '@shared/money';

const SORTS = [
  { value: 'order', label: 'Display order' },
  { value: 'name', label: 'Name' },
  { value: 'cards', label: 'Most cards' },
  { value: 'newest', label: 'Newest' },
];

export function ClassListScreen() {
  const state = useListState({ q: '', archived: 'active', sort: 'order', page: '1' });
  const { s, page } = state;
  const list = useQuery(adminListQuery('classes', { q: s.q || undefined, archived: s.archived, sort: s.sort, page, pageSize: 25 }));
  const options = useQuery(adminOptionsQuery);
  const textureName = (id: string | null) => (id ? (options.data?.textures.find((t) => t.id === id)?.name ?? 'Archived texture') : '—');
  return (
    <ListShell
      entity="classes"
      list={list}
      state={state}
      sorts={SORTS}
      emptyHint="Create the first rarity tier, e.g. Common."
    >
      {(data) => (
        <Table caption="Classes" captionHidden>
          <THead>
            <Tr>
              <Th>Name</Th>
              <Th>Order</Th>
              <Th>Default texture</Th>
              <Th>Buyback</Th>
              <Th>Cards</Th>
              <Th>Status</Th>
            </Tr>
          </THead>
          <TBody>
            {data.items.map((c) => (
              <Tr key={c.id}>
                <Td>
                  <Link to="/admin/class/$id" params={{ id: c.id }} className="inline-flex items-center gap-2 font-medium text-white hover:text-violet-200">
                    <span aria-hidden="true" className="size-3 rounded-full" style={{ background: c.colour, boxShadow: `0 0 8px ${c.colour}` }} />
                    {c.name}
                  </Link>
                </Td>
                <Td>{c.sortOrder}</Td>
                <Td>{textureName(c.defaultTextureId)}</Td>
                <Td>{c.buybackRateBp === null ? 'Site default' : `${(c.buybackRateBp / 100).toFixed(2)}%`}</Td>
                <Td>{c.cardCount ?? 0}</Td>
                <Td>
                  <StatusBadge archivedAt={c.archivedAt} />
                </Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      )}
    </ListShell>
  );
}

const percent = z
  .string()
  .trim()
  .refine((v) => v === '' || /^\d{1,3}(\.\d{1,2})?$/.test(v), 'Use a percentage such as 85 or 87.5.')
  .refine((v) => v === '' || Number(v) <= 100, 'Buyback rate cannot exceed 100%.');

const classFormSchema = z.object({
  name: z.string().trim().min(1, 'Name is required.').max(40, 'Name must be at most 40 characters.'),
  colour: z.string().trim().regex(HEX_COLOUR, 'Use a hex colour such as #a855f7.'),
  sortOrder: z.number({ message: 'Order must be a number.' }).int('Order must be a whole number.').min(0, 'Order cannot be negative.').max(10000),
  defaultTextureId: z.string(),
  buybackPercent: percent,
});

/** The form's percent text as basis points: blank is no rate of its own (the field was validated). */
const percentToBp = (v: string): number | null => (v.trim() === '' ? null : percentToBps(v));
const bpToPercent = (bp: number | null): string => (bp === null ? '' : bpsToPercentText(bp));

export function ClassDetailScreen({ id }: { id: string }) {
  return (
    <EditorScreen entity="classes" id={id} needsOptions>
      {(answer) => <ClassEditor existing={answer?.class ?? null} />}
    </EditorScreen>
  );
}

function ClassEditor({ existing }: { existing: CardClass | null }) {
  const options = useQuery(adminOptionsQuery);
  const editor = useEntityEditor({
    entity: 'classes',
    existing,
    schema: classFormSchema,
    defaultValues: existing
      ? {
          name: existing.name,
          colour: existing.colour,
          sortOrder: existing.sortOrder,
          defaultTextureId: existing.defaultTextureId ?? '',
          buybackPercent: bpToPercent(existing.buybackRateBp),
        }
      : { name: '', colour: '#a855f7', sortOrder: 10, defaultTextureId: '', buybackPercent: '' },
    toInput: (v) => ({
      name: v.name,
      colour: v.colour,
      sortOrder: v.sortOrder,
      defaultTextureId: v.defaultTextureId || null,
      buybackRateBp: percentToBp(v.buybackPercent),
    }),
    serverFields: { buybackRateBp: 'buybackPercent' },
  });
  const { form, values } = editor;
  const { register, formState } = form;
  const textures = options.data?.textures ?? [];
  const architect = options.data?.architects[0] ?? null;
  const texture = textures.find((t) => t.id === values.defaultTextureId) ?? null;
  const colourOk = HEX_COLOUR.test(values.colour ?? '');

  return (
    <EditorShell
      editor={editor}
      deleteHint="Only a class no card uses can be deleted; otherwise archive it."
      archivedNotice="This class is archived: its cards keep it, but new cards cannot use it."
      preview={
        <CardView
          fluid
          size="md"
          look={previewLook({
            name: 'Sample card',
            valueCents: 1234,
            cls: { name: values.name || 'Class name', colour: colourOk ? values.colour! : '#a1a1aa' },
            architect,
            texture,
          })}
        />
      }
    >
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField label="Colour" required hint="Used for the glow and the class badge." error={formState.errors.colour?.message}>
          <div className="flex items-center gap-2">
            <input
              type="color"
              aria-label="Pick colour"
              value={colourOk ? values.colour : '#a855f7'}
              onChange={(e) => form.setValue('colour', e.target.value, { shouldValidate: true, shouldDirty: true })}
              className="h-10 w-12 cursor-pointer rounded-lg border border-white/15 bg-zinc-900"
            />
            <Input {...register('colour')} className="font-mono" />
          </div>
        </FormField>
        <FormField label="Display order" required hint="Lower comes first (Common before Legendary)." error={formState.errors.sortOrder?.message}>
          <Input type="number" inputMode="numeric" {...register('sortOrder', { valueAsNumber: true })} />
        </FormField>
      </div>
      <FormField label="Default texture" hint="The foil for this class's cards that have none of their own." error={formState.errors.defaultTextureId?.message}>
        <Select {...register('defaultTextureId')}>
          <option value="">No foil</option>
          {textures.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </Select>
      </FormField>
      <FormField label="Buyback rate (%)" hint="Leave empty to use the site's default buyback rate." error={formState.errors.buybackPercent?.message}>
        <Input inputMode="decimal" placeholder="e.g. 85" {...register('buybackPercent')} />
      </FormField>
    </EditorShell>
  );
}
