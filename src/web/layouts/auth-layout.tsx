import { Link, Outlet } from '@tanstack/react-router';
import { Logo } from '@web/components/ui/logo';
import { useSiteConfig } from '@web/hooks/use-site-config';

/** Sign-in, sign-up and the other account steps: one centred panel under the logo. */
export function AuthLayout() {
  const { siteName } = useSiteConfig();
  return (
    <div className="vault-backdrop flex min-h-dvh flex-col items-center px-4 py-8 text-zinc-100 sm:py-14">
      <header className="mb-8">
        <Link to="/" className="rounded-lg" aria-label={`${siteName} home`}>
          <Logo siteName={siteName} className="text-xl" />
        </Link>
      </header>
      <main
        id="main"
        tabIndex={-1}
        className="w-full max-w-md rounded-2xl border border-white/10 bg-surface/90 p-6 shadow-2xl shadow-black/40 sm:p-8"
      >
        <Outlet />
      </main>
      <footer className="mt-8 flex flex-wrap justify-center gap-x-5 gap-y-2 text-sm text-zinc-400">
        <Link to="/terms-of-service" className="hover:text-white hover:underline">
          Terms
        </Link>
        <Link to="/privacy-policy" className="hover:text-white hover:underline">
          Privacy
        </Link>
        <Link to="/about" className="hover:text-white hover:underline">
          About
        </Link>
      </footer>
    </div>
  );
}
