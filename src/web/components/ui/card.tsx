import type { HTMLAttributes, ReactNode } from 'react';
import { cn } from './cn';

/** A surface on the dark background. */
export function Card({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return (
    <div
      className={cn('rounded-2xl border border-white/10 bg-surface/80 p-5 shadow-lg shadow-black/20 sm:p-6', className)}
      {...props}
    />
  );
}

export interface PanelProps extends Omit<HTMLAttributes<HTMLElement>, 'title'> {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  /** Heading level of the title (default 2). */
  level?: 2 | 3;
}

/** A titled section: a Card with a heading row, labelled by that heading. */
export function Panel({ title, description, actions, level = 2, className, children, id, ...props }: PanelProps) {
  const H = level === 2 ? 'h2' : 'h3';
  const headingId = id ? `${id}-title` : undefined;
  return (
    <section
      id={id}
      aria-labelledby={headingId}
      className={cn('rounded-2xl border border-white/10 bg-surface/80 shadow-lg shadow-black/20', className)}
      {...props}
    >
      <div className="flex flex-wrap items-start justify-between gap-3 border-b border-white/10 px-5 py-4 sm:px-6">
        <div>
          <H id={headingId} className="text-base font-semibold text-white">
            {title}
          </H>
          {description ? <p className="mt-1 text-sm text-zinc-400">{description}</p> : null}
        </div>
        {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
      </div>
      <div className="p-5 sm:p-6">{children}</div>
    </section>
  );
}
