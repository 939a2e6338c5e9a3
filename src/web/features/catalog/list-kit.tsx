import { useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Button } from '@web/components/ui/button';
import { Input, Select } from '@web/components/ui/input';
import { Label } from '@web/components/ui/form-field';
import { Notice } from '@web/components/ui/notice';
import { Pagination } from '@web/components/ui/pagination';
import { ApiClientError } from '@web/lib/api';

/*
 * The list controls shared by the public catalog and the back office. Kept apart from
 * admin-kit.tsx (dialogs, uploads, forms) so the public /cards page does not download those.
 */

/**
 * List state (search, filters, sort, page) lives in the URL, so a list can be shared, reloaded
 * and navigated back to exactly as it was.
 */
export function useUrlState<T extends Record<string, string>>(defaults: T) {
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const navigate = useNavigate();
  const state = readUrlState(defaults, search);
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

/** The list state in parsed search params, over the defaults (what useUrlState reads). */
export function readUrlState<T extends Record<string, string>>(defaults: T, search: Record<string, unknown>): T {
  const state = { ...defaults } as T;
  for (const key of Object.keys(defaults) as Array<keyof T>) {
    const v = search[key as string];
    if (v !== undefined && v !== null && v !== '') state[key] = String(v) as T[keyof T];
  }
  return state;
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

