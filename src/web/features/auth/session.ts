import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Me } from '@shared/contracts/me';
import { api, ApiClientError } from '@web/lib/api';
import { authPost } from '@web/lib/auth-post';

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

export function isAdminRole(me: Me | null | undefined): boolean {
  return me?.user.role === 'admin' || me?.user.role === 'owner';
}

/**
 * Signs out and forgets everything cached for the old identity (balances, vault, …): the next
 * screen refetches as a visitor.
 */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => authPost('/sign-out', {}),
    onSettled: async () => {
      queryClient.setQueryData(sessionQueryOptions.queryKey, null);
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'session' && q.queryKey[0] !== 'config' });
      await queryClient.invalidateQueries({ queryKey: sessionQueryOptions.queryKey });
    },
  });
}

/** After any sign-in step: reload who we are, and drop caches that belonged to a visitor. */
export async function refreshSession(queryClient: ReturnType<typeof useQueryClient>) {
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'session' && q.queryKey[0] !== 'config' });
  return queryClient.fetchQuery({ ...sessionQueryOptions, staleTime: 0 });
}
