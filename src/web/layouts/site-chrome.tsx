import { lazy, Suspense, useId, useRef, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Menu } from 'lucide-react';
import { Button, buttonClasses } from '@web/components/ui/button';
import { Logo } from '@web/components/ui/logo';
import { Skeleton } from '@web/components/ui/skeleton';
import { useSession } from '@web/features/auth/session';
import { DropWinAnnouncer } from '@web/features/drops/win-announcer';
import { useSiteConfig } from '@web/hooks/use-site-config';
import { HeaderBalance } from './header-balance';
import { FOOTER_NAV, SITE_NAV } from './site-nav';

export { FOOTER_NAV, SITE_NAV } from './site-nav';

// The menus' Radix code is not part of every page: the account menu comes with a signed-in
// header, the phone menu's sheet when its button is first pointed at, focused or pressed.
const loadMobileMenu = () => import('./mobile-menu');
const MobileMenuSheet = lazy(loadMobileMenu);
const AccountMenu = lazy(() => import('./account-menu'));
// The bell's popover (Radix) and inbox load with a signed-in header only.
const NotificationBell = lazy(() => import('@web/features/notifications/bell'));

const navLink =
  'rounded-lg px-3 py-2 text-sm font-medium text-zinc-300 transition-colors hover:bg-white/5 hover:text-white ' +
  'aria-[current=page]:bg-violet-500/15 aria-[current=page]:text-white';

function MobileMenu() {
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const id = useId();
  const preload = () => void loadMobileMenu();
  return (
    <>
      <Button
        ref={button}
        variant="ghost"
        size="icon"
        className="md:hidden"
        aria-label="Open menu"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onPointerEnter={preload}
        onFocus={preload}
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
      >
        <Menu aria-hidden="true" className="size-6" />
      </Button>
      {wanted ? (
        <Suspense fallback={null}>
          <MobileMenuSheet open={open} onOpenChange={setOpen} returnFocus={button} id={id} />
        </Suspense>
      ) : null}
    </>
  );
}

function HeaderAccount() {
  const { data: me, isPending } = useSession();
  if (isPending) return <Skeleton className="h-9 w-28" />;
  if (me) {
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
          {SITE_NAV.map((def) => (
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
  const { siteName, supportEmail } = useSiteConfig();
  return (
    <footer className="mt-16 border-t border-white/10 bg-black/20">
      <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-10 sm:px-6 md:flex-row md:items-start md:justify-between">
        <div className="max-w-sm space-y-2">
          <Logo siteName={siteName} />
          <p className="text-sm text-zinc-400">
            Open packs on screen and own the real cards you pull. Keep them in our vault, sell them back, or have
            them shipped.
          </p>
          {supportEmail ? (
            <p className="text-sm text-zinc-400">
              Questions? Write to{' '}
              <a href={`mailto:${supportEmail}`} className="break-all text-zinc-200 underline hover:text-white">
                {supportEmail}
              </a>
              .
            </p>
          ) : null}
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
