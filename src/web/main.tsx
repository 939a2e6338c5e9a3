// First: zod's config must be in place before any schema is built (see the module).
import '@web/lib/zod-jitless';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { configureMonitoring, installGlobalErrorHandlers } from '@web/lib/monitoring';
import { ApiClientError } from '@web/lib/api';
import { siteConfigQueryOptions } from '@web/hooks/use-site-config';
import { sessionQueryOptions } from '@web/features/auth/session';
import { buildRouter } from '@web/router';
import './app.css';

installGlobalErrorHandlers();

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      retry: (count, err) => !(err instanceof ApiClientError && err.status >= 400 && err.status < 500) && count < 2,
    },
  },
});

// One request serves both the monitoring DSN and the site name/currency the layouts show.
void queryClient
  .fetchQuery(siteConfigQueryOptions)
  .then((c) => c.monitoringDsn && configureMonitoring(c.monitoringDsn))
  .catch(() => {});
// Who is signed in decides the header; ask at once rather than when the layout first renders.
void queryClient.prefetchQuery(sessionQueryOptions);

const router = buildRouter(queryClient);

// The first HTML of most pages already shows the header (pages/spa.ts). Rendered over it, the app
// would replace it with nothing while its first page is still loading (every route is pending
// until the session, the page's code and its first data are there) and draw it again a moment
// later: a blank flash. So the header waits beside the app's root and leaves in the same frame as
// the app draws its first element (a MutationObserver's callback runs before the next paint).
const rootEl = document.getElementById('root')!;
const shell = rootEl.querySelector(':scope > [data-shell]');
if (shell) {
  rootEl.before(shell);
  new MutationObserver((_, observer) => {
    if (!rootEl.firstElementChild) return;
    shell.remove();
    observer.disconnect();
  }).observe(rootEl, { childList: true });
}

// Render errors are reported by the boundaries that catch them (lib/error-boundary.tsx around the
// layouts, pages/route-error.tsx for a route), and anything that escapes by the global handlers.
// No createRoot error callbacks: the app runs on preact/compat (preact-aliases.ts), which has none.
createRoot(rootEl).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
