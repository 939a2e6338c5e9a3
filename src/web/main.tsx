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

// Render errors are reported by the boundaries that catch them (lib/error-boundary.tsx around the
// layouts, pages/route-error.tsx for a route), and anything that escapes by the global handlers.
// No createRoot error callbacks: the app runs on preact/compat (preact-aliases.ts), which has none.
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
