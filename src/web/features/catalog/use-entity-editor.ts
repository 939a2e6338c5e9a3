import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from '@tanstack/react-router';
import type { BaseSyntheticEvent } from 'react';
import { useForm, useWatch, type DeepPartialSkipArrayKey, type DefaultValues, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { toast } from '@web/components/ui';
import { applyServerFields, errorText } from '@web/lib/api-errors';
import { useSaveEntity, type Entity, type SaveInputs, type SaveOutputs } from './api';
import { ENTITY_META } from './entity-meta';

/** The fields every editable catalog record has, which is all the shell needs of it. */
export interface EditableRecord {
  id: string;
  name: string;
  archivedAt: string | null;
}

/**
 * Every path a form has, nested ones included ("layout", "layout.art", "layout.art.x"), so a
 * server message for any of them can land on its field; the server names fields the same way.
 */
export function fieldPaths(values: unknown, prefix = ''): string[] {
  if (values === null || typeof values !== 'object' || Array.isArray(values)) return [];
  return Object.entries(values).flatMap(([key, v]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return [path, ...fieldPaths(v, path)];
  });
}

/** A form's zod schema: what the fields hold (input) and what a valid form parses to (output). */
type FormSchema = z.ZodType<unknown, FieldValues>;

export type { FormSchema };

export interface EntityEditorOptions<E extends Entity, S extends FormSchema> {
  entity: E;
  /** null when creating. */
  existing: EditableRecord | null;
  schema: S;
  defaultValues: z.input<S>;
  /** The form's parsed values as the API takes them. */
  toInput: (values: z.output<S>) => Partial<SaveInputs[E]>;
  /** Server field name → form field name, where the form edits a value in another shape. */
  serverFields?: Record<string, Path<z.input<S>>>;
  /** After a save of an existing record: true when it told the user itself (no "saved" toast). */
  onSaved?: (answer: SaveOutputs[E]) => boolean;
}

/**
 * The form of one catalog editor: zod validation, save (create or update) with a toast, the
 * server's field messages on their fields and anything else above the form, and on create a
 * move to the new record's page. Every catalog query is refreshed by the save itself.
 */
export function useEntityEditor<E extends Entity, S extends FormSchema>({
  entity,
  existing,
  schema,
  defaultValues,
  toInput,
  serverFields = {},
  onSaved,
}: EntityEditorOptions<E, S>): EntityEditor<E, z.input<S>, z.output<S>> {
  const meta = ENTITY_META[entity];
  const navigate = useNavigate();
  const save = useSaveEntity(entity);
  type TIn = z.input<S>;
  const form = useForm<TIn, unknown, z.output<S>>({ resolver: zodResolver(schema), defaultValues: defaultValues as DefaultValues<TIn> });
  const values = useWatch({ control: form.control });
  const known = [...fieldPaths(defaultValues), ...Object.values(serverFields)] as Path<TIn>[];

  const onSubmit = form.handleSubmit(async (parsed) => {
    try {
      const answer = await save.mutateAsync({ id: existing?.id, values: toInput(parsed) });
      if (existing && onSaved?.(answer as SaveOutputs[E])) return;
      toast({ title: `${meta.title} ${existing ? 'saved' : 'created'}.`, tone: 'success' });
      if (!existing) void navigate({ to: meta.detail, params: { id: (answer as Record<string, EditableRecord>)[meta.kind]!.id } });
    } catch (err) {
      applyServerFields(err, form.setError, known, serverFields);
      form.setError('root', { message: errorText(err) });
    }
  });

  return { entity, existing, form, values, onSubmit };
}

/** What the hook gives its editor, and what the editor hands the shell. */
export interface EntityEditor<E extends Entity, TIn extends FieldValues, TOut> {
  entity: E;
  existing: EditableRecord | null;
  form: UseFormReturn<TIn, unknown, TOut>;
  /** The fields as they are now, for the live preview. */
  values: DeepPartialSkipArrayKey<TIn>;
  onSubmit: (event?: BaseSyntheticEvent) => Promise<void>;
}
