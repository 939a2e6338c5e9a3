import type { ReactNode } from 'react';
import { AlertTriangle, CheckCircle2, Info, XCircle } from 'lucide-react';
import { cn } from './cn';

export type NoticeTone = 'info' | 'success' | 'warning' | 'danger';

const tones: Record<NoticeTone, { box: string; icon: ReactNode }> = {
  info: { box: 'border-sky-400/30 bg-sky-500/10 text-sky-100', icon: <Info className="text-sky-300" /> },
  success: {
    box: 'border-emerald-400/30 bg-emerald-500/10 text-emerald-100',
    icon: <CheckCircle2 className="text-emerald-300" />,
  },
  warning: {
    box: 'border-amber-400/30 bg-amber-500/10 text-amber-100',
    icon: <AlertTriangle className="text-amber-300" />,
  },
  danger: { box: 'border-red-400/30 bg-red-500/10 text-red-100', icon: <XCircle className="text-red-300" /> },
};

export interface NoticeProps {
  tone?: NoticeTone;
  title?: ReactNode;
  children?: ReactNode;
  /** Extra controls (e.g. a Retry button). */
  action?: ReactNode;
  className?: string;
  /**
   * Announce it: danger notices are alerts; others are polite status messages. Pass false for
   * static text that is not news.
   */
  live?: boolean;
}

/** An inline message box: errors say what to do next, successes what happened. */
export function Notice({ tone = 'info', title, children, action, className, live = true }: NoticeProps) {
  const t = tones[tone];
  const role = !live ? undefined : tone === 'danger' ? 'alert' : 'status';
  return (
    <div role={role} className={cn('flex gap-3 rounded-xl border p-4 text-sm', t.box, className)}>
      <span aria-hidden="true" className="mt-0.5 shrink-0 [&>svg]:size-5">
        {t.icon}
      </span>
      <div className="min-w-0 flex-1 space-y-1">
        {title ? <p className="font-semibold text-white">{title}</p> : null}
        {children ? <div className="leading-relaxed opacity-95">{children}</div> : null}
        {action ? <div className="pt-2">{action}</div> : null}
      </div>
    </div>
  );
}

/** Same look as Notice; the name screen readers and designers both expect for errors. */
export const Alert = Notice;
