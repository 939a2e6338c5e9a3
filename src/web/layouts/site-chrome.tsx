import { lazy, Suspense } from 'react';
import { Link } from '@tanstack/react-router';
import { Menu } from 'lucide-react';
import { Button, buttonClasses } from '@web/components/ui/button';
import { Logo } from '@web/components/ui/logo';
import { Skeleton } from '@web/components/ui/skeleton';
import { useSession } from '@web/features/auth/session';
import { useLazyDialog } from '@web/hooks/use-lazy-dialog';
import { useSiteConfig } from '@web/hooks/use-site-config';
import { HEADER_CLASSES } from '@shared/site-shell';
import { FOOTER_NAV, SITE_NAV } from './site-nav';

export { FOOTER_NAV, SITE_NAV } from './site-nav';

// The menus' Radix code is not part of every page: the account menu comes with a signed-in
// header (signed-in-header.tsx), the phone menu's sheet when its button is first pointed at,
// focused or pressed.
const loadMobileMenu = () => import('./mobile-menu');
const MobileMenuSheet = lazy(loadMobileMenu);
// The signed-in half of the header (balance, drop announcer, bell, account menu) is a chunk of its
// own: a visitor's first page never needs it.
const SignedInHeader = lazy(() => import('./signed-in-header'));

const navLink = HEADER_CLASSES.navLink;

function MobileMenu() {
  const menu = useLazyDialog(loadMobileMenu);
  return (
    <>
      <Button {...menu.triggerProps} variant="ghost" size="icon" className="md:hidden" aria-label="Open menu">
        <Menu aria-hidden="true" className="size-6" />
      </Button>
      {menu.wanted ? (
        <Suspense fallback={null}>
          <MobileMenuSheet open={menu.open} onOpenChange={menu.setOpen} returnFocus={menu.trigger} id={menu.id} />
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
      <Suspense fallback={<Skeleton className="h-9 w-28" />}>
        <SignedInHeader me={me} />
      </Suspense>
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
    <header className={HEADER_CLASSES.header}>
      <div className={HEADER_CLASSES.bar}>
        <Link to="/" activeOptions={{ exact: true }} className={HEADER_CLASSES.logoLink} aria-label={`${siteName} home`}>
          {/* On phones the name gives way to the balance and menus; the link keeps its label. */}
          <Logo siteName={siteName} compactOnMobile />
        </Link>
        <nav aria-label="Main" className={HEADER_CLASSES.nav}>
          {SITE_NAV.map((def) => (
            <Link key={def.path} to={def.path} className={navLink}>
              {def.nav}
            </Link>
          ))}
        </nav>
        <div className={HEADER_CLASSES.end}>
          <HeaderAccount />
          <MobileMenu />
        </div>
      </div>
    </header>
  );
}

export function SiteFooter() {
  const { siteName, supportEmail } = useSiteConfig();
  // Compact on phones (links in a wrapping row, no blurb) so the footer never fills the screen.
  return (
    <footer className="mt-10 border-t border-white/10 bg-black/20 md:mt-16">
      <div className="mx-auto flex max-w-7xl flex-col gap-3 px-4 py-5 sm:px-6 md:flex-row md:items-start md:justify-between md:gap-6 md:py-10">
        <div className="max-w-sm space-y-2">
          <Logo siteName={siteName} />
          <p className="hidden text-sm text-zinc-400 md:block">
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
          <ul className="flex flex-wrap gap-x-5 gap-y-1 text-sm md:grid md:grid-cols-3 md:gap-x-8 md:gap-y-2">
            {FOOTER_NAV.map(({ def, label }) => (
              <li key={def.path}>
                {/* py on phones: a 24 px tap target in the tighter row. */}
                <Link to={def.path} className="inline-block py-1 text-zinc-300 hover:text-white hover:underline md:py-0">
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <p className="mx-auto max-w-7xl px-4 pb-5 text-xs text-zinc-400 sm:px-6 md:pb-8">
        © {new Date().getFullYear()} {siteName}. Adults 18+ only. Card values are estimates, not investment advice.
      </p>
    </footer>
  );
}
