import { lazy, Suspense, useState } from 'react';
import type { Me } from '@shared/contracts/me';
import { Skeleton } from '@web/components/ui/skeleton';
import { DropWinAnnouncer } from '@web/features/drops/win-announcer';
import { AccountMenuButton } from './account-menu-button';
import { HeaderBalance } from './header-balance';

// The account menu's Radix code (15 KB gzip, six files with sign-out's) loads when the menu is
// first wanted: pointing at or focusing its button starts it, pressing the button draws the menu
// open. Loaded with the page, it was a sixth of a signed-in page's script and delayed its first
// paint on a phone.
const loadAccountMenu = () => import('./account-menu');
const AccountMenu = lazy(loadAccountMenu);
const NotificationBell = lazy(() => import('@web/features/notifications/bell'));

function AccountMenuSlot({ me }: { me: Me }) {
  const [openedBy, setOpenedBy] = useState<'pointer' | 'keyboard'>();
  const preload = () => void loadAccountMenu();
  const standIn = (
    <AccountMenuButton
      username={me.user.username}
      aria-haspopup="menu"
      aria-expanded={openedBy !== undefined}
      onPointerEnter={preload}
      onFocus={preload}
      // A click from Enter or Space has no pointer detail.
      onClick={(e) => setOpenedBy(e.detail === 0 ? 'keyboard' : 'pointer')}
      onKeyDown={(e) => {
        if (e.key === 'ArrowDown') {
          e.preventDefault();
          setOpenedBy('keyboard');
        }
      }}
    />
  );
  if (!openedBy) return standIn;
  return (
    <Suspense fallback={standIn}>
      <AccountMenu me={me} openedBy={openedBy} />
    </Suspense>
  );
}

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
      <AccountMenuSlot me={me} />
    </div>
  );
}
