import { useId, useState } from 'react';
import type { Upload } from '@shared/contracts/catalog';
import { imageUrl, UPLOAD_ACCEPT, UPLOAD_MAX_BYTES } from '@shared/contracts/catalog-look';
import { ImagePlus } from 'lucide-react';
import { Badge, Button, ConfirmDialog, FieldError, FileButton, Label, toast } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { useEntityAction, useUploadImage, type Entity } from './api';

export { FilterSelect, ListFooter, QueryError, SearchBox, Toolbar, useUrlState } from './list-kit';

export const ARCHIVED_OPTIONS = [
  { value: 'active', label: 'In use' },
  { value: 'archived', label: 'Archived' },
  { value: 'all', label: 'All' },
];

export function StatusBadge({ archivedAt, active }: { archivedAt: string | null; active?: boolean }) {
  if (archivedAt) return <Badge tone="warning">Archived</Badge>;
  if (active === false) return <Badge tone="neutral">Inactive</Badge>;
  return <Badge tone="success">{active === undefined ? 'In use' : 'On sale'}</Badge>;
}

/** Archive / restore / delete buttons with confirmation, for a record's detail page. */
export function RecordActions({
  entity,
  id,
  archived,
  noun,
  onDeleted,
  deleteHint,
}: {
  entity: Entity;
  id: string;
  archived: boolean;
  noun: string;
  onDeleted: () => void;
  deleteHint: string;
}) {
  const action = useEntityAction(entity);
  const run = async (kind: 'archive' | 'restore' | 'delete') => {
    try {
      await action.mutateAsync({ id, action: kind });
      toast({ title: kind === 'delete' ? `The ${noun} was deleted.` : kind === 'archive' ? `The ${noun} was archived.` : `The ${noun} was restored.`, tone: 'success' });
      if (kind === 'delete') onDeleted();
    } catch (err) {
      toast({ title: err instanceof ApiClientError ? err.message : 'That did not work. Try again.', tone: 'danger' });
      throw err;
    }
  };
  return (
    <div className="flex flex-wrap gap-2">
      {archived ? (
        <Button variant="secondary" onClick={() => void run('restore').catch(() => {})} loading={action.isPending}>
          Restore
        </Button>
      ) : (
        <ConfirmDialog
          trigger={<Button variant="secondary">Archive</Button>}
          title={`Archive this ${noun}?`}
          description={`Archived ${noun}s stay on existing records but cannot be picked for new ones. You can restore it later.`}
          confirmLabel="Archive"
          onConfirm={() => run('archive')}
        />
      )}
      <ConfirmDialog
        trigger={<Button variant="danger">Delete</Button>}
        title={`Delete this ${noun} for good?`}
        description={deleteHint}
        confirmLabel="Delete"
        variant="danger"
        onConfirm={() => run('delete')}
      />
    </div>
  );
}

/**
 * Picks an image, checks type and size in the browser for a quick answer, uploads it and
 * reports the stored key. The server checks again from the bytes.
 */
export function ImageUploadField({
  label,
  hint,
  value,
  onChange,
  error,
  previewClassName = 'aspect-[5/7] w-28',
}: {
  label: string;
  hint?: string;
  value: string | undefined;
  onChange: (key: string, upload: Upload) => void;
  error?: string;
  previewClassName?: string;
}) {
  const id = useId();
  const upload = useUploadImage();
  const [localError, setLocalError] = useState<string | null>(null);
  const message = localError ?? error;
  const pick = async (file: File | undefined) => {
    setLocalError(null);
    if (!file) return;
    if (file.size > UPLOAD_MAX_BYTES) {
      setLocalError('This image is larger than 5 MB. Resize it and try again.');
      return;
    }
    try {
      const u = await upload.mutateAsync(file);
      onChange(u.key, u);
    } catch (err) {
      setLocalError(err instanceof ApiClientError ? (err.fields?.file?.[0] ?? err.message) : 'The upload failed. Try again.');
    }
  };
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex items-start gap-4">
        <div className={`${previewClassName} shrink-0 overflow-hidden rounded-lg bg-white/5 ring-1 ring-white/10`}>
          {value ? <img src={imageUrl(value, 'thumb')} alt="" className="size-full object-cover" /> : null}
        </div>
        <div className="min-w-0 space-y-2">
          <FileButton
            id={id}
            accept={UPLOAD_ACCEPT}
            onFile={(f) => void pick(f)}
            loading={upload.isPending}
            buttonLabel={`${value ? 'Replace image' : 'Upload image'}: ${label}`}
            describedBy={`${id}-hint${message ? ` ${id}-error` : ''}`}
            invalid={Boolean(message)}
          >
            <ImagePlus aria-hidden="true" className="size-4" /> {value ? 'Replace image' : 'Upload image'}
          </FileButton>
          <p id={`${id}-hint`} className="text-sm text-zinc-400">
            {upload.isPending ? 'Uploading…' : (hint ?? 'PNG, JPEG or WebP, up to 5 MB.')}
          </p>
          <FieldError id={`${id}-error`}>{message}</FieldError>
        </div>
      </div>
    </div>
  );
}
