import { useState } from 'react';
import { Link, Outlet, useRouterState } from '@tanstack/react-router';
import { ArrowLeft, ChevronDown } from 'lucide-react';
import { ADMIN_NAV_GROUPS, ROUTE_LIST } from '@shared/routes';
import { cn, Logo } from '@web/components/ui';
import { useSession } from '@web/features/auth/session';
import { useSiteConfig } from '@web/hooks/use-site-config';
import { AccountMenu } from './account-menu';

/** Every admin screen with a nav label, grouped in ADMIN_NAV_GROUPS order. */
export const ADMIN_NAV = ADMIN_NAV_GROUPS.map((group) => ({
  group,
  items: ROUTE_LIST.filter((d) => d.area === 'admin' && d.nav && d.group === group),
})).filter((g) => g.items.length > 0);

function AdminNav({ isOwner, onNavigate }: { isOwner: boolean; onNavigate?: () => void }) {
  return (
    <div className="space-y-5">
      {ADMIN_NAV.map(({ group, items }) => {
        const visible = items.filter((d) => d.access !== 'owner' || isOwner);
        if (!visible.length) return null;
        const headingId = `admin-nav-${group.toLowerCase()}`;
        return (
          <div key={group} role="group" aria-labelledby={headingId}>
            <p id={headingId} className="mb-1.5 px-3 text-xs font-semibold tracking-widest text-zinc-400 uppercase">
              {group}
            </p>
            <ul className="space-y-0.5">
              {visible.map((def) => (
                <li key={def.id}>
                  <Link
                    to={def.path}
                    activeOptions={{ exact: def.path === '/admin' || def.path === '/admin/shipping' }}
                    onClick={onNavigate}
                    className={
                      'block rounded-lg px-3 py-1.5 text-sm text-zinc-300 transition-colors hover:bg-white/5 hover:text-white ' +
                      'aria-[current=page]:bg-violet-500/15 aria-[current=page]:font-medium aria-[current=page]:text-white'
                    }
                  >
                    {def.nav}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </div>
  );
}

/** Back office: its own slim header, grouped side navigation (a disclosure on phones), the page. */
export function AdminLayout() {
  const { siteName } = useSiteConfig();
  const { data: me } = useSession();
  const [navOpen, setNavOpen] = useState(false);
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const current = ROUTE_LIST.find((d) => d.area === 'admin' && d.nav && d.path === pathname);
  const isOwner = me?.user.role === 'owner';
  return (
    <div className="flex min-h-dvh flex-col bg-ink text-zinc-100">
      <header className="sticky top-0 z-30 border-b border-white/10 bg-ink/90 backdrop-blur-md">
        <div className="flex h-14 items-center gap-3 px-4 sm:px-6">
          <Link to="/admin" activeOptions={{ exact: true }} className="rounded-lg" aria-label={`${siteName} back office`}>
            <Logo siteName={siteName} compactOnMobile />
          </Link>
          <span className="rounded-md bg-fuchsia-500/15 px-2 py-0.5 text-xs font-semibold tracking-wide text-fuchsia-200 uppercase ring-1 ring-fuchsia-400/30 ring-inset">
            Admin
          </span>
          <div className="ml-auto flex items-center gap-2">
            <Link
              to="/shop"
              className="inline-flex items-center gap-1.5 rounded-lg px-2.5 py-1.5 text-sm text-zinc-300 hover:bg-white/5 hover:text-white"
            >
              <ArrowLeft aria-hidden="true" className="size-4" />
              <span>
                Back<span className="hidden sm:inline"> to the shop</span>
              </span>
            </Link>
            {me ? <AccountMenu me={me} /> : null}
          </div>
        </div>
      </header>
      <div className="flex flex-1 flex-col lg:flex-row">
        <nav aria-label="Admin" className="border-b border-white/10 bg-surface/60 lg:w-60 lg:shrink-0 lg:border-r lg:border-b-0">
          <button
            type="button"
            className="flex w-full items-center justify-between px-4 py-3 text-sm font-medium text-zinc-200 lg:hidden"
            aria-expanded={navOpen}
            aria-controls="admin-nav-list"
            onClick={() => setNavOpen((o) => !o)}
          >
            <span>
              Admin menu{current ? <span className="text-zinc-400"> · {current.nav}</span> : null}
            </span>
            <ChevronDown aria-hidden="true" className={cn('size-4 transition-transform', navOpen && 'rotate-180')} />
          </button>
          <div
            id="admin-nav-list"
            className={cn('px-2 pb-4 lg:sticky lg:top-14 lg:block lg:max-h-[calc(100dvh-3.5rem)] lg:overflow-y-auto lg:py-6', !navOpen && 'hidden')}
          >
            <AdminNav isOwner={isOwner} onNavigate={() => setNavOpen(false)} />
          </div>
        </nav>
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 px-4 py-6 sm:px-6 lg:px-10 lg:py-8">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
