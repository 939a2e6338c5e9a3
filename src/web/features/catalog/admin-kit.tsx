import { useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { imageUrl, UPLOAD_ACCEPT, UPLOAD_MAX_BYTES, type Upload } from '@shared/contracts/catalog';
import {
  Badge,
  Button,
  ConfirmDialog,
  FieldError,
  Input,
  Label,
  Notice,
  Pagination,
  Select,
  toast,
} from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { useEntityAction, useUploadImage, type Entity } from './api';

/**
 * List state (search, filters, sort, page) lives in the URL, so a list can be shared, reloaded
 * and navigated back to exactly as it was.
 */
export function useUrlState<T extends Record<string, string>>(defaults: T) {
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const navigate = useNavigate();
  const state = { ...defaults } as T;
  for (const key of Object.keys(defaults) as Array<keyof T>) {
    const v = search[key as string];
    if (v !== undefined && v !== null && v !== '') state[key] = String(v) as T[keyof T];
  }
  /** Changing a filter goes back to page 1 unless keepPage is set. */
  const set = (patch: Partial<T>, opts: { keepPage?: boolean } = {}) => {
    const resetsPage = !opts.keepPage && Object.keys(patch).some((k) => k !== 'page');
    void navigate({
      search: ((prev: Record<string, unknown>) => {
        const next: Record<string, unknown> = { ...prev, ...patch };
        if (resetsPage) delete next.page;
        for (const [k, v] of Object.entries(next)) {
          if (v === '' || v === undefined || v === defaults[k]) delete next[k];
        }
        return next;
      }) as never,
      replace: true,
    } as never);
  };
  return [state, set] as const;
}

/** A search box that waits for the user to pause typing before it filters. */
export function SearchBox({ value, onChange, label, placeholder }: { value: string; onChange: (v: string) => void; label: string; placeholder?: string }) {
  const id = useId();
  const [text, setText] = useState(value);
  const last = useRef(value);
  useEffect(() => {
    if (value !== last.current) {
      last.current = value;
      setText(value);
    }
  }, [value]);
  useEffect(() => {
    if (text === last.current) return;
    const t = setTimeout(() => {
      last.current = text;
      onChange(text.trim());
    }, 250);
    return () => clearTimeout(t);
  }, [text, onChange]);
  return (
    <div className="w-full sm:w-auto sm:min-w-56 sm:max-w-xs sm:flex-1">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} type="search" value={text} placeholder={placeholder} onChange={(e) => setText(e.target.value)} className="mt-1" />
    </div>
  );
}

export function FilterSelect({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  options: Array<{ value: string; label: string }>;
}) {
  const id = useId();
  return (
    <div className="min-w-36 flex-1 sm:flex-none">
      <Label htmlFor={id}>{label}</Label>
      <div className="mt-1">
        <Select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </Select>
      </div>
    </div>
  );
}

export const ARCHIVED_OPTIONS = [
  { value: 'active', label: 'In use' },
  { value: 'archived', label: 'Archived' },
  { value: 'all', label: 'All' },
];

export function Toolbar({ children }: { children: ReactNode }) {
  return (
    <div role="search" className="mb-4 flex flex-wrap items-end gap-3">
      {children}
    </div>
  );
}

/** "Showing 1–25 of 312" plus page links. */
export function ListFooter({ page, pageSize, total, onPage, noun }: { page: number; pageSize: number; total: number; onPage: (p: number) => void; noun: string }) {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  return (
    <div className="mt-4 flex flex-col items-center justify-between gap-3 sm:flex-row">
      <p className="text-sm text-zinc-400" aria-live="polite">
        {total === 0 ? `No ${noun}` : `Showing ${from}–${to} of ${total.toLocaleString()} ${noun}`}
      </p>
      {pageCount > 1 ? <Pagination page={page} pageCount={pageCount} onPageChange={onPage} label={`${noun} pages`} /> : null}
    </div>
  );
}

export function StatusBadge({ archivedAt, active }: { archivedAt: string | null; active?: boolean }) {
  if (archivedAt) return <Badge tone="warning">Archived</Badge>;
  if (active === false) return <Badge tone="neutral">Inactive</Badge>;
  return <Badge tone="success">{active === undefined ? 'In use' : 'On sale'}</Badge>;
}

export function QueryError({ error, retry, what }: { error: unknown; retry: () => void; what: string }) {
  const message = error instanceof ApiClientError ? error.message : 'Something went wrong.';
  return (
    <Notice
      tone="danger"
      title={`We could not load ${what}`}
      action={
        <Button variant="secondary" size="sm" onClick={retry}>
          Try again
        </Button>
      }
    >
      {message} If it keeps happening, reload the page.
    </Notice>
  );
}

/** Copies the server's field messages onto the form (with optional name mapping). */
export function applyServerErrors<T extends FieldValues>(err: unknown, setError: UseFormSetError<T>, map: Record<string, string> = {}): string {
  if (!(err instanceof ApiClientError)) return 'Something went wrong. Try again.';
  if (err.fields) {
    for (const [key, messages] of Object.entries(err.fields)) {
      const name = (map[key] ?? key) as Path<T>;
      setError(name, { type: 'server', message: messages[0] });
    }
  }
  return err.message;
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
          <input
            id={id}
            type="file"
            accept={UPLOAD_ACCEPT}
            aria-invalid={message ? true : undefined}
            aria-describedby={`${id}-hint${message ? ` ${id}-error` : ''}`}
            onChange={(e) => {
              void pick(e.target.files?.[0]);
              e.target.value = '';
            }}
            className="block w-full text-sm text-zinc-300 file:mr-3 file:rounded-lg file:border-0 file:bg-violet-600 file:px-3 file:py-2 file:text-sm file:font-semibold file:text-white hover:file:bg-violet-500"
          />
          <p id={`${id}-hint`} className="text-sm text-zinc-400">
            {upload.isPending ? 'Uploading…' : (hint ?? 'PNG, JPEG or WebP, up to 5 MB.')}
          </p>
          <FieldError id={`${id}-error`}>{message}</FieldError>
        </div>
      </div>
    </div>
  );
}
