import { lazy, Suspense } from 'react';
import type { Me } from '@shared/contracts/me';
import { Skeleton } from '@web/components/ui/skeleton';
import { DropWinAnnouncer } from '@web/features/drops/win-announcer';
import { HeaderBalance } from './header-balance';

// The menus' Radix code comes later still: the account menu and the bell's popover and inbox.
const AccountMenu = lazy(() => import('./account-menu'));
const NotificationBell = lazy(() => import('@web/features/notifications/bell'));

/**
 * The header's signed-in half: balance, win announcer, bell and account menu. A chunk of its own
 * (site-chrome.tsx loads it for a signed-in session only), so a visitor's first page does not
 * carry the wallet's balance query, its live updates or the drop announcer.
 */
export default function SignedInHeader({ me }: { me: Me }) {
  return (
    <div className="flex items-center gap-2">
      <DropWinAnnouncer />
      <HeaderBalance className="hidden sm:inline-flex" />
      <Suspense fallback={<Skeleton className="size-10" />}>
        <NotificationBell />
      </Suspense>
      <Suspense fallback={<Skeleton className="h-10 w-[4.5rem] lg:w-44" />}>
        <AccountMenu me={me} />
      </Suspense>
    </div>
  );
}
