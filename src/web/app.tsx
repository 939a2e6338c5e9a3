import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { ApiClientError } from '@web/lib/api';
import { RenderClock } from '@web/lib/hydration';
import type { buildRouter } from '@web/router';

/** The app's query cache, the same in the browser and on the server (entry-server.tsx). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        retry: (count, err) => !(err instanceof ApiClientError && err.status >= 400 && err.status < 500) && count < 2,
      },
    },
  });
}

/**
 * The whole app, as main.tsx renders (or hydrates) it and entry-server.tsx renders it to HTML.
 * `drawnAt` is when the server drew the page: time-dependent text uses it while hydrating
 * (lib/hydration.ts).
 */
export function App({ queryClient, router, drawnAt = null }: { queryClient: QueryClient; router: ReturnType<typeof buildRouter>; drawnAt?: number | null }) {
  return (
    <StrictMode>
      <RenderClock.Provider value={drawnAt}>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </RenderClock.Provider>
    </StrictMode>
  );
}
