import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Me } from '@shared/contracts/me';
import { api, ApiClientError } from '@web/lib/api';

/** The signed-in user, or null. Shared by route guards, the header and every feature. */
export const sessionQueryOptions = queryOptions({
  queryKey: ['session'],
  queryFn: async (): Promise<Me | null> => {
    try {
      return await api.get<Me>('/api/me');
    } catch (err) {
      if (err instanceof ApiClientError && (err.status === 401 || err.status === 404)) return null;
      throw err;
    }
  },
  staleTime: 30_000,
});

export function useSession() {
  return useQuery(sessionQueryOptions);
}
