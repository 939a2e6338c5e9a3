import type { ReactNode } from 'react';
import { Button } from '@web/components/ui/button';
import { Notice } from '@web/components/ui/notice';
import { Pagination } from '@web/components/ui/pagination';
import { ApiClientError } from '@web/lib/api';
import { formatCount } from '@web/lib/format';

/*
 * The list controls shared by the public catalog and the back office. Kept apart from
 * admin-kit.tsx (dialogs, uploads, forms) so the public /cards page does not download those.
 */

// Shared with the back office's other lists (admin users): the kit and web/lib hold them.
export { FilterSelect, SearchBox } from '@web/components/ui/list-controls';
export { readUrlState, useUrlState } from '@web/lib/url-state';

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
        {total === 0 ? `No ${noun}` : `Showing ${from}–${to} of ${formatCount(total)} ${noun}`}
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

