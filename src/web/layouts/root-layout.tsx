import { Outlet } from '@tanstack/react-router';
import { useEffect } from 'react';
import { Button } from '@web/components/ui/button';
import { CurrencyContext } from '@web/components/ui/money';
import { Toaster } from '@web/components/ui/toast';
import { useSession } from '@web/features/auth/session';
import { MaintenanceWatch } from '@web/features/maintenance/watch';
import { useRouteDef } from '@web/hooks/use-route-def';
import { useSiteConfig } from '@web/hooks/use-site-config';
import { ErrorBoundary } from '@web/lib/error-boundary';
import { useRealtimeConnection } from '@web/lib/realtime';

function skipToMain(e: React.MouseEvent<HTMLAnchorElement>) {
  const main = document.getElementById('main');
  if (!main) return;
  // Focus rather than follow the hash, so the router does not treat it as a navigation.
  e.preventDefault();
  main.focus();
  main.scrollIntoView();
}

/** Last line of defence when a layout itself fails to render. */
function CrashPage({ reset }: { reset: () => void }) {
  return (
    <main id="main" className="mx-auto max-w-xl px-4 py-24 text-center text-zinc-100">
      <h1 className="text-2xl font-bold">Something went wrong</h1>
      <p className="mt-3 text-zinc-300">
        This page stopped working. We have been told about it. Try again, or reload the page.
      </p>
      <div className="mt-6 flex justify-center gap-3">
        <Button onClick={reset}>Try again</Button>
        <Button variant="secondary" onClick={() => location.reload()}>
          Reload
        </Button>
      </div>
    </main>
  );
}

export function RootLayout() {
  const def = useRouteDef();
  const config = useSiteConfig();
  const session = useSession();
  useRealtimeConnection(session.data?.user.id ?? null, !session.isPending);

  useEffect(() => {
    document.title = def ? `${def.title} · ${config.siteName}` : config.siteName;
  }, [def, config.siteName]);

  return (
    <CurrencyContext.Provider value={config.currency}>
      <a
        href="#main"
        onClick={skipToMain}
        className="sr-only z-[70] rounded-lg bg-violet-600 px-4 py-2 font-semibold text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <MaintenanceWatch me={session.data} sessionReady={!session.isPending} />
      <ErrorBoundary fallback={({ reset }) => <CrashPage reset={reset} />}>
        <Outlet />
      </ErrorBoundary>
      <Toaster />
    </CurrencyContext.Provider>
  );
}
