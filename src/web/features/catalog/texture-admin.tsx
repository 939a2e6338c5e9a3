import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { BLEND_MODES, imageUrl, UPLOAD_KEY, type BlendMode, type Texture } from '@shared/contracts/catalog';
import { FormField, Select } from '@web/components/ui';
import { FilterSelect, ImageUploadField } from './admin-kit';
import { adminListQuery, adminOptionsQuery } from './api';
import { CardView } from './card-view';
import { EditorScreen, EditorShell } from './editor-shell';
import { ListShell, TileGrid, useListState } from './list-shell';
import { previewLook } from './look';
import { useEntityEditor } from './use-entity-editor';

const BLEND_LABELS: Record<BlendMode, string> = {
  'color-dodge': 'Colour dodge (bright holo)',
  overlay: 'Overlay (rich foil)',
  screen: 'Screen (sparkles on dark)',
  'soft-light': 'Soft light (subtle sheen)',
  'hard-light': 'Hard light (strong foil)',
  lighten: 'Lighten',
  'plus-lighter': 'Plus lighter (glow)',
  multiply: 'Multiply (darkening pattern)',
};

export function TextureListScreen() {
  const state = useListState({ q: '', archived: 'active', blendMode: '', sort: 'name', page: '1' });
  const { s, set, page } = state;
  const list = useQuery(
    adminListQuery('textures', { q: s.q || undefined, archived: s.archived, blendMode: s.blendMode || undefined, sort: s.sort, page, pageSize: 24 }),
  );
  return (
    <ListShell
      entity="textures"
      list={list}
      state={state}
      sorts={[
        { value: 'name', label: 'Name' },
        { value: 'newest', label: 'Newest' },
        { value: 'oldest', label: 'Oldest' },
      ]}
      filters={
        <FilterSelect
          label="Blend mode"
          value={s.blendMode}
          onChange={(blendMode) => set({ blendMode })}
          options={[{ value: '', label: 'Any' }, ...BLEND_MODES.map((m) => ({ value: m, label: m }))]}
        />
      }
      emptyHint="Upload a foil image to create the first texture."
    >
      {(data) => (
        <TileGrid
          entity="textures"
          items={data.items}
          image={(t) => <img src={imageUrl(t.imageKey, 'thumb')} alt="" loading="lazy" className="aspect-[5/7] w-full object-cover" />}
          details={(t) => `${t.blendMode} · ${t.opacity}% · used by ${t.usage ?? 0}`}
        />
      )}
    </ListShell>
  );
}

const textureFormSchema = z.object({
  name: z.string().trim().min(1, 'Name is required.').max(60, 'Name must be at most 60 characters.'),
  imageKey: z.string().regex(UPLOAD_KEY, 'Upload the foil image.'),
  blendMode: z.enum(BLEND_MODES, { message: 'Pick a blend mode.' }),
  opacity: z.number({ message: 'Opacity must be a number.' }).int().min(0, 'Opacity is 0–100%.').max(100, 'Opacity is 0–100%.'),
});

export function TextureDetailScreen({ id }: { id: string }) {
  return <EditorScreen entity="textures" id={id}>{(answer) => <TextureEditor existing={answer?.texture ?? null} />}</EditorScreen>;
}

function TextureEditor({ existing }: { existing: Texture | null }) {
  const options = useQuery(adminOptionsQuery);
  const editor = useEntityEditor({
    entity: 'textures',
    existing,
    schema: textureFormSchema,
    defaultValues: existing
      ? { name: existing.name, imageKey: existing.imageKey, blendMode: existing.blendMode, opacity: existing.opacity }
      : { name: '', imageKey: '', blendMode: 'color-dodge', opacity: 60 },
    toInput: (values) => values,
  });
  const { form, values: v } = editor;
  const { register, formState, setValue } = form;
  const previewClass = options.data?.classes.find((c) => c.defaultTextureId === existing?.id) ?? options.data?.classes.at(-1) ?? null;

  return (
    <EditorShell
      editor={editor}
      deleteHint="Only a texture no card or class uses can be deleted; otherwise archive it."
      archivedNotice="This texture is archived: cards that have it keep it, but it cannot be picked for new ones."
      preview={
        <CardView
          fluid
          size="md"
          look={previewLook({
            name: 'Sample card',
            valueCents: 4200,
            imageKey: options.data?.sampleImageKey,
            cls: previewClass,
            architect: options.data?.architects[0] ?? null,
            texture: v.imageKey ? { imageKey: v.imageKey, blendMode: (v.blendMode ?? 'color-dodge') as BlendMode, opacity: Number.isFinite(v.opacity) ? v.opacity! : 0 } : null,
          })}
        />
      }
    >
      <ImageUploadField
        label="Foil image"
        hint="A pattern or gradient; it is stretched over the whole card. PNG, JPEG or WebP, up to 5 MB."
        value={v.imageKey}
        onChange={(key) => setValue('imageKey', key, { shouldValidate: true, shouldDirty: true })}
        error={formState.errors.imageKey?.message}
      />
      <FormField label="Blend mode" required hint="How the foil mixes with the card under it." error={formState.errors.blendMode?.message}>
        <Select {...register('blendMode')}>
          {BLEND_MODES.map((m) => (
            <option key={m} value={m}>
              {BLEND_LABELS[m]}
            </option>
          ))}
        </Select>
      </FormField>
      <FormField label={`Opacity: ${Number.isFinite(v.opacity) ? v.opacity : 0}%`} required error={formState.errors.opacity?.message}>
        <input type="range" min={0} max={100} step={1} aria-label="Opacity (%)" {...register('opacity', { valueAsNumber: true })} className="w-full accent-violet-500" />
      </FormField>
    </EditorShell>
  );
}
