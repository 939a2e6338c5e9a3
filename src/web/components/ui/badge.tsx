import type { HTMLAttributes } from 'react';
import { cn } from './cn';

export type BadgeTone = 'neutral' | 'violet' | 'gold' | 'success' | 'warning' | 'danger' | 'info';

const tones: Record<BadgeTone, string> = {
  neutral: 'bg-white/10 text-zinc-200 ring-white/15',
  violet: 'bg-violet-500/15 text-violet-200 ring-violet-400/30',
  gold: 'bg-gold-400/15 text-gold-300 ring-gold-400/40',
  success: 'bg-emerald-500/15 text-emerald-200 ring-emerald-400/30',
  warning: 'bg-amber-500/15 text-amber-200 ring-amber-400/30',
  danger: 'bg-red-500/15 text-red-200 ring-red-400/30',
  info: 'bg-sky-500/15 text-sky-200 ring-sky-400/30',
};

export function Badge({ tone = 'neutral', className, ...props }: HTMLAttributes<HTMLSpanElement> & { tone?: BadgeTone }) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset',
        tones[tone],
        className,
      )}
      {...props}
    />
  );
}
