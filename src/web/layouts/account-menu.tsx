import { useNavigate } from '@tanstack/react-router';
import { ChevronDown, Home, LayoutDashboard, LogOut, Shield, User, Vault } from 'lucide-react';
import type { Me } from '@shared/contracts/me';
import {
  Button,
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@web/components/ui';
import { isAdminRole } from '@web/features/auth/session';
import { useSignOutAction } from './use-sign-out-action';

/** The signed-in user's menu. Loaded on its own chunk: visitors never download the menu code. */
export function AccountMenu({ me }: { me: Me }) {
  const navigate = useNavigate();
  const signOut = useSignOutAction();
  const initial = me.user.username.slice(0, 1).toUpperCase();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" className="gap-2 px-2" aria-label={`Account menu for ${me.user.username}`}>
          {/* The avatar's letter is drawn by CSS, not a text node: it is decoration, and as text it
              became part of the button's visible label ("D demo"), which the accessible name
              "Account menu for demo" then did not contain (WCAG 2.5.3, label in name). */}
          <span
            aria-hidden="true"
            data-initial={initial}
            className="grid size-8 place-items-center rounded-full bg-gradient-to-br from-violet-500 to-fuchsia-500 text-sm font-bold text-white before:content-[attr(data-initial)]"
          />
          <span className="hidden max-w-32 truncate lg:inline">{me.user.username}</span>
          <ChevronDown aria-hidden="true" className="size-4 text-zinc-400" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuLabel>
          <span className="block font-semibold text-zinc-100">{me.user.username}</span>
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
