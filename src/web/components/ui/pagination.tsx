import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from './button';
import { cn } from './cn';

export interface PaginationProps {
  /** 1-based current page. */
  page: number;
  pageCount: number;
  onPageChange: (page: number) => void;
  className?: string;
  /** Names the navigation landmark when a page has more than one. */
  label?: string;
}

/** Page numbers with ellipses around the current page: 1 … 4 5 6 … 20. */
export function pageWindow(page: number, pageCount: number): Array<number | 'gap'> {
  const out: Array<number | 'gap'> = [];
  const pages = new Set([1, pageCount, page - 1, page, page + 1]);
  let last = 0;
  for (let p = 1; p <= pageCount; p++) {
    if (!pages.has(p)) continue;
    if (p - last > 1) out.push('gap');
    out.push(p);
    last = p;
  }
  return out;
}

export function Pagination({ page, pageCount, onPageChange, className, label = 'Pagination' }: PaginationProps) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label={label} className={cn('flex flex-wrap items-center justify-center gap-1', className)}>
      <Button
        variant="ghost"
        size="sm"
        disabled={page <= 1}
        onClick={() => onPageChange(page - 1)}
        aria-label="Previous page"
      >
        <ChevronLeft aria-hidden="true" className="size-4" />
        <span className="hidden sm:inline">Previous</span>
      </Button>
      <ul className="flex items-center gap-1">
        {pageWindow(page, pageCount).map((p, i) =>
          p === 'gap' ? (
            <li key={`gap-${i}`} aria-hidden="true" className="px-1 text-zinc-500">
              …
            </li>
          ) : (
            <li key={p}>
              <Button
                variant={p === page ? 'secondary' : 'ghost'}
                size="sm"
                className={cn('min-w-8 px-2', p === page && 'ring-violet-400/60')}
                aria-current={p === page ? 'page' : undefined}
                aria-label={`Page ${p}`}
                onClick={() => p !== page && onPageChange(p)}
              >
                {p}
              </Button>
            </li>
          ),
        )}
      </ul>
      <Button
        variant="ghost"
        size="sm"
        disabled={page >= pageCount}
        onClick={() => onPageChange(page + 1)}
        aria-label="Next page"
      >
        <span className="hidden sm:inline">Next</span>
        <ChevronRight aria-hidden="true" className="size-4" />
      </Button>
    </nav>
  );
}
