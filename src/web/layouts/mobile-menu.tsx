import type { ReactNode, RefObject } from 'react';
import { Link } from '@tanstack/react-router';
import { Gift, Home, Layers, LayoutDashboard, LogOut, Package, Sparkles, Store, Trophy, User, Vault } from 'lucide-react';
import { ROUTES } from '@shared/routes';
import { buttonClasses, cn, DialogClose, Sheet } from '@web/components/ui';
import { isAdminRole, useSession } from '@web/features/auth/session';
import { HeaderBalance } from './header-balance';
import { SITE_NAV } from './site-nav';
import { useSignOutAction } from './use-sign-out-action';

const ICONS: Record<string, ReactNode> = {
  [ROUTES.shop.path]: <Store />,
  [ROUTES.openPack.path]: <Package />,
  [ROUTES.cards.path]: <Layers />,
  [ROUTES.topPulls.path]: <Trophy />,
  [ROUTES.dailyDropWinners.path]: <Gift />,
};

export interface MobileMenuSheetProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The header's menu button (focus goes back to it on close). */
  returnFocus: RefObject<HTMLButtonElement | null>;
  id: string;
}

/**
 * The phone menu's sheet. Its own chunk: the dialog code is downloaded when the menu button is
 * first pointed at, focused or pressed (site-chrome.tsx), not with every page.
 */
export default function MobileMenuSheet({ open, onOpenChange, returnFocus, id }: MobileMenuSheetProps) {
  const { data: me } = useSession();
  const signOut = useSignOutAction();
  const item =
    'flex items-center gap-3 rounded-lg px-3 py-2.5 text-base text-zinc-200 hover:bg-white/5 hover:text-white ' +
    'aria-[current=page]:bg-violet-500/15 aria-[current=page]:text-white [&>svg]:size-5 [&>svg]:text-zinc-400';
  const close = (node: ReactNode) => <DialogClose asChild>{node}</DialogClose>;
  return (
    <Sheet open={open} onOpenChange={onOpenChange} title="Menu" returnFocus={returnFocus} id={id}>
      <nav aria-label="Mobile" className="flex flex-1 flex-col gap-1">
        {SITE_NAV.map((def) => (
          <DialogClose asChild key={def.path}>
            <Link to={def.path} className={item}>
              <span aria-hidden="true">{ICONS[def.path]}</span>
              {def.nav}
            </Link>
          </DialogClose>
        ))}
        <div className="my-3 h-px bg-white/10" />
        {me ? (
          <>
            <p className="px-3 pb-1 text-xs text-zinc-400 wrap-anywhere">
              Signed in as <span className="font-semibold text-zinc-200">{me.user.username}</span>
            </p>
            <HeaderBalance className="mx-3 mb-2 self-start" />
            {close(
              <Link to="/home" className={item}>
                <Home aria-hidden="true" /> Home
              </Link>,
            )}
            {close(
              <Link to="/collect" className={item}>
                <Vault aria-hidden="true" /> My vault
              </Link>,
            )}
            {close(
              <Link to="/profile/account" className={item}>
                <User aria-hidden="true" /> Profile
              </Link>,
            )}
            {isAdminRole(me)
              ? close(
                  <Link to="/admin" className={item}>
                    <LayoutDashboard aria-hidden="true" /> Admin
                  </Link>,
                )
              : null}
            <button
              type="button"
              className={cn(item, 'text-left text-red-300')}
              disabled={signOut.pending}
              onClick={() => {
                onOpenChange(false);
                signOut.run();
              }}
            >
              <LogOut aria-hidden="true" /> Sign out
            </button>
          </>
        ) : (
          <div className="grid gap-2 px-1">
            {close(
              <Link to="/sign-up" className={buttonClasses({ variant: 'primary', size: 'lg' })}>
                <Sparkles aria-hidden="true" className="size-4" /> Create account
              </Link>,
            )}
            {close(
              <Link to="/sign-in" className={buttonClasses({ variant: 'secondary', size: 'lg' })}>
                Sign in
              </Link>,
            )}
          </div>
        )}
      </nav>
    </Sheet>
  );
}
