import { useQuery } from '@tanstack/react-query';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import type { z } from 'zod';
import {
  architectInputSchema,
  architectLayoutSchema,
  DEFAULT_LAYOUT,
  imageUrl,
  type Architect,
  type ArchitectLayout,
} from '@shared/contracts/catalog';
import { Button, FormField, Input, Select } from '@web/components/ui';
import { ImageUploadField } from './admin-kit';
import { adminListQuery, adminOptionsQuery } from './api';
import { CardView } from './card-view';
import { EditorScreen, EditorShell } from './editor-shell';
import { ListShell, TileGrid, useListState } from './list-shell';
import { effectiveTexture, previewLook } from './look';
import { useEntityEditor } from './use-entity-editor';
import { plural } from '@web/lib/format';

export function ArchitectListScreen() {
  const state = useListState({ q: '', archived: 'active', sort: 'name', page: '1' });
  const { s, page } = state;
  const list = useQuery(adminListQuery('architects', { q: s.q || undefined, archived: s.archived, sort: s.sort, page, pageSize: 24 }));
  return (
    <ListShell
      entity="architects"
      list={list}
      state={state}
      sorts={[
        { value: 'name', label: 'Name' },
        { value: 'cards', label: 'Most cards' },
        { value: 'newest', label: 'Newest' },
        { value: 'oldest', label: 'Oldest' },
      ]}
      emptyHint="Upload a frame to create the first card template."
    >
      {(data) => (
        <TileGrid
          entity="architects"
          items={data.items}
          image={(a) => (
            <div className="bg-[repeating-conic-gradient(#27272a_0_25%,#18181b_0_50%)] bg-[length:16px_16px] p-3">
              <img src={imageUrl(a.frameImageKey, 'thumb')} alt="" loading="lazy" className="aspect-[5/7] w-full object-fill" />
            </div>
          )}
          details={(a) => plural(a.cardCount ?? 0, 'card')}
        />
      )}
    </ListShell>
  );
}

type FormIn = z.input<typeof architectInputSchema>;

export function ArchitectDetailScreen({ id }: { id: string }) {
  return <EditorScreen entity="architects" id={id}>{(answer) => <ArchitectEditor existing={answer?.architect ?? null} />}</EditorScreen>;
}

const num = { valueAsNumber: true } as const;

function NumberField({ label, name, register, error }: { label: string; name: Parameters<UseFormRegister<FormIn>>[0]; register: UseFormRegister<FormIn>; error?: string }) {
  return (
    <FormField label={label} error={error}>
      <Input type="number" step="0.1" inputMode="decimal" {...register(name, num)} />
    </FormField>
  );
}

function SlotFields({ slot, title, register, errors }: { slot: 'name' | 'class' | 'value'; title: string; register: UseFormRegister<FormIn>; errors: FieldErrors<FormIn> }) {
  const e = errors.layout?.[slot];
  return (
    <fieldset className="rounded-xl border border-white/10 p-4">
      <legend className="px-1 text-sm font-semibold text-zinc-200">{title}</legend>
      {e?.root?.message || e?.message ? <p className="mb-2 text-sm text-red-300">{e?.root?.message ?? e?.message}</p> : null}
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        <NumberField label="Left %" name={`layout.${slot}.x`} register={register} error={e?.x?.message} />
        <NumberField label="Top %" name={`layout.${slot}.y`} register={register} error={e?.y?.message} />
        <NumberField label="Width %" name={`layout.${slot}.w`} register={register} error={e?.w?.message} />
        <NumberField label="Text size (% of width)" name={`layout.${slot}.size`} register={register} error={e?.size?.message} />
        <FormField label="Align" error={e?.align?.message}>
          <Select {...register(`layout.${slot}.align`)}>
            <option value="left">Left</option>
            <option value="center">Centre</option>
            <option value="right">Right</option>
          </Select>
        </FormField>
        <FormField label="Colour" error={e?.colour?.message}>
          <Input {...register(`layout.${slot}.colour`)} className="font-mono" />
        </FormField>
      </div>
    </fieldset>
  );
}

function ArchitectEditor({ existing }: { existing: Architect | null }) {
  const options = useQuery(adminOptionsQuery);
  const editor = useEntityEditor({
    entity: 'architects',
    existing,
    schema: architectInputSchema,
    defaultValues: existing
      ? { name: existing.name, frameImageKey: existing.frameImageKey, layout: existing.layout }
      : { name: '', frameImageKey: '', layout: DEFAULT_LAYOUT },
    toInput: (values) => values,
  });
  const { form, values: v } = editor;
  const { register, formState, setValue } = form;
  const parsedLayout = architectLayoutSchema.safeParse(v.layout);
  const layout: ArchitectLayout = parsedLayout.success ? parsedLayout.data : (existing?.layout ?? DEFAULT_LAYOUT);
  const cls = options.data?.classes.at(-1);
  const texture = effectiveTexture(null, cls, options.data?.textures ?? []);
  const artErr = formState.errors.layout?.art;

  return (
    <EditorShell
      editor={editor}
      deleteHint="Only an architect no card uses can be deleted; otherwise archive it."
      archivedNotice="This architect is archived: its cards keep the frame, but new cards cannot use it."
      extraActions={
        <Button type="button" variant="ghost" onClick={() => setValue('layout', DEFAULT_LAYOUT, { shouldDirty: true, shouldValidate: true })}>
          Reset positions
        </Button>
      }
      preview={
        <CardView
          fluid
          size="lg"
          look={previewLook({
            name: 'Sample card name',
            valueCents: 12500,
            imageKey: options.data?.sampleImageKey,
            cls: cls ?? { name: 'Legendary', colour: '#f59e0b' },
            architect: { frameImageKey: v.frameImageKey || null, layout },
            texture,
          })}
        />
      }
    >
      <ImageUploadField
        label="Frame image"
        hint="Portrait 5:7, with a transparent window where the artwork shows (PNG or WebP with transparency)."
        value={v.frameImageKey}
        onChange={(key) => setValue('frameImageKey', key, { shouldValidate: true, shouldDirty: true })}
        error={formState.errors.frameImageKey?.message}
      />
      <p className="text-sm text-zinc-400">Positions are percentages of the card: left/top from the top-left corner, width/height of the box.</p>
      <fieldset className="rounded-xl border border-white/10 p-4">
        <legend className="px-1 text-sm font-semibold text-zinc-200">Art window</legend>
        {artErr?.root?.message || artErr?.message ? <p className="mb-2 text-sm text-red-300">{artErr?.root?.message ?? artErr?.message}</p> : null}
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          <NumberField label="Left %" name="layout.art.x" register={register} error={artErr?.x?.message} />
          <NumberField label="Top %" name="layout.art.y" register={register} error={artErr?.y?.message} />
          <NumberField label="Width %" name="layout.art.w" register={register} error={artErr?.w?.message} />
          <NumberField label="Height %" name="layout.art.h" register={register} error={artErr?.h?.message} />
        </div>
      </fieldset>
      <SlotFields slot="name" title="Card name" register={register} errors={formState.errors} />
      <SlotFields slot="class" title="Class" register={register} errors={formState.errors} />
      <SlotFields slot="value" title="Value" register={register} errors={formState.errors} />
    </EditorShell>
  );
}
