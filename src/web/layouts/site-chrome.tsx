import { useState, type ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { Gift, LayoutDashboard, LogOut, Menu, Package, Sparkles, Store, Trophy, User, Vault, Home, Layers } from 'lucide-react';
import { ROUTES } from '@shared/routes';
import { Button, buttonClasses, cn, DialogClose, Logo, Sheet, Skeleton } from '@web/components/ui';
import { isAdminRole, useSession } from '@web/features/auth/session';
import { useSiteConfig } from '@web/hooks/use-site-config';
import { AccountMenu, useSignOutAction } from './account-menu';
import { HeaderBalance } from './header-balance';

/** The header's main navigation, in the order the shop wants it; labels and paths from the route table. */
export const SITE_NAV = [
  { def: ROUTES.shop, icon: <Store /> },
  { def: ROUTES.openPack, icon: <Package /> },
  { def: ROUTES.cards, icon: <Layers /> },
  { def: ROUTES.topPulls, icon: <Trophy /> },
  { def: ROUTES.dailyDropWinners, icon: <Gift /> },
] as const;

export const FOOTER_NAV = [
  { def: ROUTES.about, label: 'About' },
  { def: ROUTES.termsOfService, label: 'Terms' },
  { def: ROUTES.privacyPolicy, label: 'Privacy' },
  { def: ROUTES.raffleTerms, label: 'Raffle terms' },
  { def: ROUTES.fairness, label: 'Provably fair' },
] as const;

const navLink =
  'rounded-lg px-3 py-2 text-sm font-medium text-zinc-300 transition-colors hover:bg-white/5 hover:text-white ' +
  'aria-[current=page]:bg-violet-500/15 aria-[current=page]:text-white';

function MobileMenu() {
  const { data: me } = useSession();
  const [open, setOpen] = useState(false);
  const signOut = useSignOutAction();
  const item =
    'flex items-center gap-3 rounded-lg px-3 py-2.5 text-base text-zinc-200 hover:bg-white/5 hover:text-white ' +
    'aria-[current=page]:bg-violet-500/15 aria-[current=page]:text-white [&>svg]:size-5 [&>svg]:text-zinc-400';
  const close = (node: ReactNode) => <DialogClose asChild>{node}</DialogClose>;
  return (
    <Sheet
      open={open}
      onOpenChange={setOpen}
      title="Menu"
      trigger={
        <Button variant="ghost" size="icon" className="md:hidden" aria-label="Open menu">
          <Menu aria-hidden="true" className="size-6" />
        </Button>
      }
    >
      <nav aria-label="Mobile" className="flex flex-1 flex-col gap-1">
        {SITE_NAV.map(({ def, icon }) => (
          <DialogClose asChild key={def.path}>
            <Link to={def.path} className={item}>
              <span aria-hidden="true">{icon}</span>
              {def.nav}
            </Link>
          </DialogClose>
        ))}
        <div className="my-3 h-px bg-white/10" />
        {me ? (
          <>
            <p className="px-3 pb-1 text-xs text-zinc-400">
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
                setOpen(false);
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

function HeaderAccount() {
  const { data: me, isPending } = useSession();
  if (isPending) return <Skeleton className="h-9 w-28" />;
  if (me) {
    return (
      <div className="flex items-center gap-2">
        <HeaderBalance className="hidden sm:inline-flex" />
        <AccountMenu me={me} />
      </div>
    );
  }
  return (
    <div className="hidden items-center gap-2 md:flex">
      <Link to="/sign-in" className={buttonClasses({ variant: 'ghost', size: 'sm' })}>
        Sign in
      </Link>
      <Link to="/sign-up" className={buttonClasses({ variant: 'primary', size: 'sm' })}>
        Sign up
      </Link>
    </div>
  );
}

export function SiteHeader() {
  const { siteName } = useSiteConfig();
  return (
    <header className="sticky top-0 z-30 border-b border-white/10 bg-ink/80 backdrop-blur-md">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-4 sm:gap-4 sm:px-6">
        <Link to="/" activeOptions={{ exact: true }} className="shrink-0 rounded-lg" aria-label={`${siteName} home`}>
          {/* On phones the name gives way to the balance and menus; the link keeps its label. */}
          <Logo siteName={siteName} compactOnMobile />
        </Link>
        <nav aria-label="Main" className="hidden flex-1 items-center gap-1 md:flex">
          {SITE_NAV.map(({ def }) => (
            <Link key={def.path} to={def.path} className={navLink}>
              {def.nav}
            </Link>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-2">
          <HeaderAccount />
          <MobileMenu />
        </div>
      </div>
    </header>
  );
}

export function SiteFooter() {
  const { siteName } = useSiteConfig();
  return (
    <footer className="mt-16 border-t border-white/10 bg-black/20">
      <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-10 sm:px-6 md:flex-row md:items-start md:justify-between">
        <div className="max-w-sm space-y-2">
          <Logo siteName={siteName} />
          <p className="text-sm text-zinc-400">
            Open packs on screen and own the real cards you pull. Keep them in our vault, sell them back, or have
            them shipped.
          </p>
        </div>
        <nav aria-label="Footer">
          <ul className="grid grid-cols-2 gap-x-8 gap-y-2 text-sm sm:grid-cols-3">
            {FOOTER_NAV.map(({ def, label }) => (
              <li key={def.path}>
                <Link to={def.path} className="text-zinc-300 hover:text-white hover:underline">
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <p className="mx-auto max-w-7xl px-4 pb-8 text-xs text-zinc-400 sm:px-6">
        © {new Date().getFullYear()} {siteName}. Adults 18+ only. Card values are estimates, not investment advice.
      </p>
    </footer>
  );
}
