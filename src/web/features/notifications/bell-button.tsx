import { forwardRef, type ButtonHTMLAttributes } from 'react';
import { Bell } from 'lucide-react';
import { cn } from '@web/components/ui';

/** The bell's accessible name: exactly "Notifications" with nothing unread. */
export function bellLabel(unread: number): string {
  return unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
}

/** The badge text: the count, capped at 99+. */
export function badgeText(unread: number): string {
  return unread > 99 ? '99+' : String(unread);
}

/** The header's bell: its name carries the count; the visible badge is for sighted users only. */
export const BellButton = forwardRef<HTMLButtonElement, ButtonHTMLAttributes<HTMLButtonElement> & { unread: number }>(
  function BellButton({ unread, className, ...props }, ref) {
    return (
      <button
        ref={ref}
        type="button"
        aria-label={bellLabel(unread)}
        className={cn(
          'relative inline-flex size-10 items-center justify-center rounded-lg text-zinc-200 transition-colors',
          'hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400',
          'data-[state=open]:bg-white/10',
          className,
        )}
        {...props}
      >
        <Bell aria-hidden="true" className="size-5" />
        {unread > 0 ? (
          <span
            aria-hidden="true"
            data-testid="notification-badge"
            className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-fuchsia-600 px-1 text-center text-[11px] leading-5 font-bold text-white ring-2 ring-ink"
          >
            {badgeText(unread)}
          </span>
        ) : null}
      </button>
    );
  },
);
