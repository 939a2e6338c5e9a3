import type { HTMLAttributes, TdHTMLAttributes, ThHTMLAttributes, ReactNode, TableHTMLAttributes } from 'react';
import { cn } from './cn';

export interface TableProps extends TableHTMLAttributes<HTMLTableElement> {
  /** Table caption; visually hidden with captionHidden but always read by screen readers. */
  caption?: ReactNode;
  captionHidden?: boolean;
}

/**
 * A data table inside a focusable region that scrolls sideways on narrow screens instead of
 * squashing columns (keyboard users scroll it with the arrow keys once focused).
 */
export function Table({ caption, captionHidden, className, children, ...props }: TableProps) {
  // `relative`: a screen-reader-only label in a cell (absolutely placed) scrolls with the table
  // instead of widening the page past the phone's edge.
  return (
    <div
      className="relative overflow-x-auto rounded-xl border border-white/10 bg-surface/60 [-webkit-overflow-scrolling:touch]"
      role="region"
      aria-label={typeof caption === 'string' ? caption : undefined}
      tabIndex={0}
    >
      <table className={cn('w-full min-w-max border-collapse text-left text-sm', className)} {...props}>
        {caption ? (
          <caption className={cn('px-4 pt-3 pb-1 text-left text-sm text-zinc-400', captionHidden && 'sr-only')}>
            {caption}
          </caption>
        ) : null}
        {children}
      </table>
    </div>
  );
}

export function THead({ className, ...props }: HTMLAttributes<HTMLTableSectionElement>) {
  return <thead className={cn('border-b border-white/10 bg-white/[0.03] text-xs uppercase tracking-wide text-zinc-400', className)} {...props} />;
}

export function TBody({ className, ...props }: HTMLAttributes<HTMLTableSectionElement>) {
  return <tbody className={cn('divide-y divide-white/5', className)} {...props} />;
}

export function Tr({ className, ...props }: HTMLAttributes<HTMLTableRowElement>) {
  return <tr className={cn('transition-colors hover:bg-white/[0.03]', className)} {...props} />;
}

export function Th({ className, scope = 'col', ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th scope={scope} className={cn('px-4 py-3 font-semibold whitespace-nowrap', className)} {...props} />;
}

export function Td({ className, ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={cn('px-4 py-3 align-middle text-zinc-200', className)} {...props} />;
}
