// First: zod's config must be in place before any schema is built (see the module).
import '@web/lib/zod-jitless';
import { hydrate, type DehydratedState } from '@tanstack/react-query';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { configureMonitoring, installGlobalErrorHandlers, reportError } from '@web/lib/monitoring';
import { siteConfigQueryOptions } from '@web/hooks/use-site-config';
import { sessionQueryOptions } from '@web/features/auth/session';
import { buildRouter } from '@web/router';
import { readServerState } from '@shared/ssr-state';
import { App, createQueryClient } from './app';
import './app.css';

installGlobalErrorHandlers();

const queryClient = createQueryClient();
const rootEl = document.getElementById('root')!;
// A public page the server drew (server/modules/pages/ssr.ts): its HTML is in #root, and the data
// it was drawn from is in the page as JSON.
const server = readServerState(document);
if (server) hydrate(queryClient, server.state as DehydratedState);

// One request serves both the monitoring DSN and the site name/currency the layouts show.
void queryClient
  .fetchQuery(siteConfigQueryOptions)
  .then((c) => c.monitoringDsn && configureMonitoring(c.monitoringDsn))
  .catch(() => {});
// Who is signed in decides the header; ask at once rather than when the layout first renders.
void queryClient.prefetchQuery(sessionQueryOptions);

const router = buildRouter(queryClient);

if (server) {
  // The first client render must be the server's: the route matched, its code loaded and its
  // data (from the page's state) in the cache before React hydrates. `ssr` set tells the router
  // the page was drawn on the server, so it renders the same tree (no Suspense boundary of its
  // own around the matches, which the server's HTML does not have).
  router.ssr = { manifest: undefined };
  void router.load().then(() => {
    // As a transition, hydration yields to the browser every few milliseconds instead of holding
    // the main thread for the whole page: the page is already painted and readable, and a click
    // or key on it makes React finish hydrating at once and replay it.
    startTransition(() => {
      hydrateRoot(rootEl, <App queryClient={queryClient} router={router} drawnAt={server.drawnAt} />, {
        // A hydration mismatch React recovered from by rendering on the client: a bug to report
        // (and, logged, it fails the e2e suite like any console error).
        onRecoverableError: (err) => {
          console.error('hydration', err);
          reportError(err);
        },
      });
    });
    markStarted();
  });
} else {
  // The first HTML of most other pages already shows the header (pages/spa.ts). Rendered over it,
  // the app would replace it with nothing while its first page is still loading (every route is
  // pending until the session, the page's code and its first data are there) and draw it again a
  // moment later: a blank flash. So the header waits beside the app's root and leaves in the same
  // frame as the app draws its first element (a MutationObserver's callback runs before the next paint).
  const shell = rootEl.querySelector(':scope > [data-shell]');
  if (shell) {
    rootEl.before(shell);
    new MutationObserver((_, observer) => {
      if (!rootEl.firstElementChild) return;
      shell.remove();
      observer.disconnect();
    }).observe(rootEl, { childList: true });
  }
  // Render errors are reported by the boundaries that catch them (lib/error-boundary.tsx around
  // the layouts, pages/route-error.tsx for a route), and anything that escapes by the global handlers.
  createRoot(rootEl).render(<App queryClient={queryClient} router={router} />);
  markStarted();
}

/**
 * The app has its root: from here a click is the app's (React replays one made while it is still
 * hydrating). A drawn page's code starts after its first paint (server/http/boot-script.ts), so the
 * browser's `load` no longer says this; the e2e suite waits for the mark after each navigation.
 */
function markStarted() {
  document.documentElement.dataset.app = 'started';
}
