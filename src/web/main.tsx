import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { configureMonitoring, installGlobalErrorHandlers } from '@web/lib/monitoring';
import { ApiClientError } from '@web/lib/api';
import { buildRouter } from '@web/router';
import './app.css';

installGlobalErrorHandlers();
void fetch('/api/config')
  .then((r) => (r.ok ? r.json() : null))
  .then((c: { monitoringDsn?: string } | null) => c?.monitoringDsn && configureMonitoring(c.monitoringDsn))
  .catch(() => {});

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      retry: (count, err) => !(err instanceof ApiClientError && err.status >= 400 && err.status < 500) && count < 2,
    },
  },
});
const router = buildRouter(queryClient);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
