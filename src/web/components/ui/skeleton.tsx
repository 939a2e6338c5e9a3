import type { HTMLAttributes } from 'react';
import { cn } from './cn';

/** A placeholder block; hidden from screen readers (announce loading with aria-busy or a status). */
export function Skeleton({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div aria-hidden="true" className={cn('animate-pulse rounded-lg bg-white/[0.07]', className)} {...props} />;
}

/** A few lines of text-shaped skeletons plus an sr-only "Loading" status. */
export function SkeletonText({ lines = 3, label = 'Loading', className }: { lines?: number; label?: string; className?: string }) {
  return (
    <div className={cn('space-y-2.5', className)}>
      <span role="status" className="sr-only">
        {label}
      </span>
      {Array.from({ length: lines }, (_, i) => (
        <Skeleton key={i} className={cn('h-4', i === lines - 1 ? 'w-2/3' : 'w-full')} />
      ))}
    </div>
  );
}
