import { FlaskConical } from 'lucide-react';
import { cn } from '@web/components/ui';

/** Shown wherever a test-mode (sandbox) payment appears: no real money moves. */
export function TestModeBadge({ className }: { className?: string }) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-md bg-amber-400/15 px-2 py-0.5 text-xs font-bold tracking-wider text-amber-200 uppercase ring-1 ring-amber-400/40 ring-inset',
        className,
      )}
    >
      <FlaskConical aria-hidden="true" className="size-3.5" />
      Test mode
    </span>
  );
}

export function TestModeBanner({ children }: { children?: React.ReactNode }) {
  return (
    <div
      role="note"
      className="flex flex-wrap items-center gap-2 rounded-xl border border-amber-400/40 bg-amber-500/10 px-4 py-3 text-sm text-amber-100"
    >
      <TestModeBadge />
      <span>{children ?? 'Payments here are simulated. No card is charged and no real money moves.'}</span>
    </div>
  );
}
