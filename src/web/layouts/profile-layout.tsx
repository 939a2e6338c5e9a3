import { Link, Outlet } from '@tanstack/react-router';
import { ROUTE_LIST } from '@shared/routes';

/** The /profile screens, in route-table order. */
export const PROFILE_NAV = ROUTE_LIST.filter((d) => d.area === 'profile' && d.nav);

/** Profile area, under the site's header (ChromeLayout): a side navigation (a horizontal scroller on phones), the page. */
export function ProfileLayout() {
  return (
    <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col gap-6 px-4 py-6 sm:px-6 md:flex-row md:gap-10 md:py-10">
      <nav aria-label="Profile" className="md:w-56 md:shrink-0">
        <p className="mb-3 hidden px-3 text-xs font-semibold tracking-widest text-zinc-400 uppercase md:block">
          Your profile
        </p>
        <ul className="-mx-4 flex snap-x scroll-px-4 gap-1 overflow-x-auto px-4 pb-1 [scrollbar-width:none] md:mx-0 md:flex-col md:overflow-visible md:px-0">
          {PROFILE_NAV.map((def) => (
            <li key={def.id} className="snap-start">
              <Link
                to={def.path}
                className={
                  'block rounded-lg px-3 py-2 text-sm font-medium whitespace-nowrap text-zinc-300 ring-1 ring-white/10 transition-colors ring-inset ' +
                  'hover:bg-white/5 hover:text-white md:ring-0 ' +
                  'aria-[current=page]:bg-violet-500/15 aria-[current=page]:text-white aria-[current=page]:ring-violet-400/40'
                }
              >
                {def.nav}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1} className="min-w-0 flex-1">
        <Outlet />
      </main>
    </div>
  );
}
