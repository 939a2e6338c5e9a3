import type { ReactNode } from 'react';
import { cn } from './cn';

export interface EmptyStateProps {
  icon?: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  /** What the user can do next (a button or link). */
  action?: ReactNode;
  className?: string;
}

export function EmptyState({ icon, title, description, action, className }: EmptyStateProps) {
  return (
    <div
      className={cn(
        'flex flex-col items-center rounded-2xl border border-dashed border-white/15 bg-white/[0.02] px-6 py-12 text-center',
        className,
      )}
    >
      {icon ? (
        <div aria-hidden="true" className="mb-4 rounded-full bg-violet-500/10 p-3 text-violet-300 [&>svg]:size-7">
          {icon}
        </div>
      ) : null}
      <p className="text-base font-semibold text-white">{title}</p>
      {description ? <p className="mt-1.5 max-w-md text-sm text-zinc-400">{description}</p> : null}
      {action ? <div className="mt-5">{action}</div> : null}
    </div>
  );
}
