import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { z } from 'zod';
import { BLEND_MODES, imageUrl, UPLOAD_KEY, type BlendMode, type Texture } from '@shared/contracts/catalog';
import { FormField, Select } from '@web/components/ui';
import { ARCHIVED_OPTIONS, FilterSelect, ImageUploadField, SearchBox, StatusBadge, useUrlState } from './admin-kit';
import { adminListQuery, adminOptionsQuery } from './api';
import { CardView } from './card-view';
import { EditorScreen, EditorShell } from './editor-shell';
import { ListShell } from './list-shell';
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
  const [s, set] = useUrlState({ q: '', archived: 'active', blendMode: '', sort: 'name', page: '1' });
  const page = Number(s.page) || 1;
  const list = useQuery(
    adminListQuery<Texture>('textures', { q: s.q || undefined, archived: s.archived, blendMode: s.blendMode || undefined, sort: s.sort, page, pageSize: 24 }),
  );
  return (
    <ListShell
      entity="textures"
      list={list}
      page={page}
      onPage={(p) => set({ page: String(p) })}
      filtered={Boolean(s.q)}
      emptyHint="Upload a foil image to create the first texture."
      toolbar={
        <>
          <SearchBox label="Search textures" value={s.q} onChange={(q) => set({ q })} />
          <FilterSelect
            label="Blend mode"
            value={s.blendMode}
            onChange={(blendMode) => set({ blendMode })}
            options={[{ value: '', label: 'Any' }, ...BLEND_MODES.map((m) => ({ value: m, label: m }))]}
          />
          <FilterSelect label="Status" value={s.archived} onChange={(archived) => set({ archived })} options={ARCHIVED_OPTIONS} />
          <FilterSelect
            label="Sort"
            value={s.sort}
            onChange={(sort) => set({ sort })}
            options={[
              { value: 'name', label: 'Name' },
              { value: 'newest', label: 'Newest' },
              { value: 'oldest', label: 'Oldest' },
            ]}
          />
        </>
      }
    >
      {(data) => (
        <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4" aria-label="Textures">
          {data.items.map((t) => (
            <li key={t.id} className="overflow-hidden rounded-xl border border-white/10 bg-surface/80">
              <Link to="/admin/textures/$id" params={{ id: t.id }} className="block focus-visible:outline-2 focus-visible:outline-violet-400">
                <img src={imageUrl(t.imageKey, 'thumb')} alt="" loading="lazy" className="aspect-[5/7] w-full object-cover" />
                <div className="space-y-1 p-3">
                  <p className="truncate font-medium text-white">{t.name}</p>
                  <p className="text-xs text-zinc-400">
                    {t.blendMode} · {t.opacity}% · used by {t.usage ?? 0}
                  </p>
                  <StatusBadge archivedAt={t.archivedAt} />
                </div>
              </Link>
            </li>
          ))}
        </ul>
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
