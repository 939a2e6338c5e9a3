import { useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { Home, LayoutDashboard, LogOut, Shield, User, Vault } from 'lucide-react';
import type { Me } from '@shared/contracts/me';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@web/components/ui';
import { isAdminRole } from '@web/features/auth/session';
import { AccountMenuButton } from './account-menu-button';
import { useSignOutAction } from './use-sign-out-action';

export type AccountMenuProps = {
  me: Me;
  /** How the stand-in button was pressed (the press that loaded the menu): it opens at once. */
  openedBy?: 'pointer' | 'keyboard';
};

/**
 * The signed-in user's menu. Its Radix code (15 KB gzip) loads when the menu is first wanted, not
 * with the page (signed-in-header.tsx draws AccountMenuButton until then).
 */
export function AccountMenu({ me, openedBy }: AccountMenuProps) {
  const navigate = useNavigate();
  const signOut = useSignOutAction();
  // Opened from the stand-in button by keyboard: Radix did not see that key press and focuses the
  // menu itself; a keyboard user expects the first item, as Radix gives when it sees the key. After
  // Radix's own focus on mount (a child's effect, so it runs first), and a frame later for its
  // positioning pass.
  useEffect(() => {
    if (openedBy !== 'keyboard') return;
    const frame = requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-account-menu] [role="menuitem"]')?.focus());
    return () => cancelAnimationFrame(frame);
  }, [openedBy]);
  return (
    <DropdownMenu defaultOpen={openedBy !== undefined}>
      <DropdownMenuTrigger asChild>
        <AccountMenuButton username={me.user.username} />
      </DropdownMenuTrigger>
      <DropdownMenuContent data-account-menu="">
        <DropdownMenuLabel>
          <span className="block font-semibold text-zinc-100 wrap-anywhere">{me.user.username}</span>
          <span className="block truncate">{me.user.email}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem icon={<Home />} onSelect={() => void navigate({ to: '/home' })}>
          Home
        </DropdownMenuItem>
        <DropdownMenuItem icon={<Vault />} onSelect={() => void navigate({ to: '/collect' })}>
          My vault
        </DropdownMenuItem>
        <DropdownMenuItem icon={<User />} onSelect={() => void navigate({ to: '/profile/account' })}>
          Profile
        </DropdownMenuItem>
        {!me.user.twoFactorEnabled ? (
          <DropdownMenuItem icon={<Shield />} onSelect={() => void navigate({ to: '/register-mfa' })}>
            Set up two-factor
          </DropdownMenuItem>
        ) : null}
        {isAdminRole(me) ? (
          <DropdownMenuItem icon={<LayoutDashboard />} onSelect={() => void navigate({ to: '/admin' })}>
            Admin
          </DropdownMenuItem>
        ) : null}
        <DropdownMenuSeparator />
        <DropdownMenuItem icon={<LogOut />} danger disabled={signOut.pending} onSelect={signOut.run}>
          Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

export default AccountMenu;
