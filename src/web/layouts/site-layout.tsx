import { Outlet } from '@tanstack/react-router';
import { SiteFooter, SiteHeader } from './site-chrome';

/** The public shop: header, the page, footer. */
export function SiteLayout() {
  return (
    <div className="vault-backdrop flex min-h-dvh flex-col text-zinc-100">
      <SiteHeader />
      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-7xl flex-1 px-4 py-8 sm:px-6 sm:py-10">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
