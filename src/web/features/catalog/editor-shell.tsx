import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Fragment, type ReactNode } from 'react';
import type { FieldErrors, FieldValues, Path } from 'react-hook-form';
import { Button, FormField, Input, Notice } from '@web/components/ui';
import { QueryError, RecordActions } from './admin-kit';
import { BackLink, DetailSkeleton, EditorLayout, FormActions, Header } from './admin-layout-parts';
import { adminOptionsQuery, adminRecordQuery, type AdminRecords, type Entity } from './api';
import { ENTITY_META } from './entity-meta';
import type { EntityEditor } from './use-entity-editor';

/**
 * Loads the record a catalog editor page is for ("new" loads nothing) and shows the editor only
 * once it is there: a skeleton until then, and when it cannot be loaded (not found, no network)
 * the reason with a way back and a retry. The editor is mounted afresh for each id, so its form
 * starts from that record.
 */
export function EditorScreen<E extends Entity>({
  entity,
  id,
  needsOptions = false,
  children,
}: {
  entity: E;
  id: string;
  /** Selects need their options before the form mounts, or they would show the placeholder. */
  needsOptions?: boolean;
  children: (answer: AdminRecords[E] | null) => ReactNode;
}) {
  const meta = ENTITY_META[entity];
  const isNew = id === 'new';
  const q = useQuery({ ...adminRecordQuery(entity, id), enabled: !isNew });
  const options = useQuery({ ...adminOptionsQuery, enabled: needsOptions });
  if (!isNew && q.isError) {
    return (
      <div>
        <BackLink to={meta.list}>{meta.back}</BackLink>
        <Header title={meta.title} kind={meta.kind} />
        <QueryError error={q.error} retry={() => void q.refetch()} what={`this ${meta.noun}`} />
      </div>
    );
  }
  if (needsOptions && options.isError && !options.data) {
    return <QueryError error={options.error} retry={() => void options.refetch()} what="the catalog options" />;
  }
  if ((!isNew && !q.data) || (needsOptions && !options.data)) return <DetailSkeleton />;
  return <Fragment key={id}>{children(isNew ? null : q.data!)}</Fragment>;
}

/**
 * The page around a catalog editor's fields: back link, title, archive/restore/delete, the
 * archived notice, the form with its error summary and submit button, and the live preview.
 */
export function EditorShell<E extends Entity, TIn extends FieldValues, TOut>({
  editor,
  deleteHint,
  archivedNotice,
  preview,
  extraActions,
  after,
  children,
}: {
  editor: EntityEditor<E, TIn, TOut>;
  deleteHint: string;
  archivedNotice: ReactNode;
  preview: ReactNode;
  /** Buttons after the submit button. */
  extraActions?: ReactNode;
  /** Shown under the form, e.g. a panel with its own form. */
  after?: ReactNode;
  /** The entity's fields after its name, which every record has and the shell draws. */
  children: ReactNode;
}) {
  const { entity, existing, form, onSubmit } = editor;
  const meta = ENTITY_META[entity];
  const navigate = useNavigate();
  const { errors, isSubmitting } = form.formState;
  return (
    <div>
      <BackLink to={meta.list}>{meta.back}</BackLink>
      <Header
        title={existing ? `${meta.title}: ${existing.name}` : `New ${meta.noun}`}
        kind={meta.kind}
        actions={
          existing ? (
            <RecordActions
              entity={entity}
              id={existing.id}
              archived={Boolean(existing.archivedAt)}
              noun={meta.noun}
              onDeleted={() => void navigate({ to: meta.list })}
              deleteHint={deleteHint}
            />
          ) : undefined
        }
      />
      {existing?.archivedAt ? (
        <Notice tone="warning" className="mb-4">
          {archivedNotice}
        </Notice>
      ) : null}
      <EditorLayout
        form={
          <div className="space-y-8">
            <form onSubmit={onSubmit} noValidate className="space-y-5">
              {errors.root?.message ? <Notice tone="danger">{errors.root.message}</Notice> : null}
              <FormField label="Name" required error={(errors as FieldErrors<{ name: string }>).name?.message}>
                <Input {...form.register('name' as Path<TIn>)} autoComplete="off" />
              </FormField>
              {children}
              <FormActions>
                <Button type="submit" loading={isSubmitting}>
                  {existing ? `Save ${meta.noun}` : `Create ${meta.noun}`}
                </Button>
                {extraActions}
              </FormActions>
            </form>
            {after}
          </div>
        }
        preview={preview}
      />
    </div>
  );
}
