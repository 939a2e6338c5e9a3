import { useMutation, useQueryClient } from '@tanstack/react-query';
import { authPost } from '@web/lib/auth-post';
import { sessionQueryOptions } from './session';

// Apart from session.ts, which the app's entry imports: signing in and out is for the pages and
// menus that do it, and auth-post.ts should not ride along on every visitor's first page.

/** Everything cached that may belong to an identity (all but who we are and the site config). */
const identityScoped = (q: { queryKey: readonly unknown[] }) => q.queryKey[0] !== 'session' && q.queryKey[0] !== 'config';

/**
 * Signs out and forgets everything cached for the old identity (balances, vault, …): the next
 * screen refetches as a visitor. Callers leave signed-in screens first (useSignOutAction): a
 * mounted query of one would refetch as a visitor and fail with 401 (issue 19).
 */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => authPost('/sign-out', {}),
    onSettled: async () => {
      // A request of the old identity still in flight must not land in the visitor's cache.
      await queryClient.cancelQueries({ predicate: identityScoped });
      queryClient.setQueryData(sessionQueryOptions.queryKey, null);
      queryClient.removeQueries({ predicate: identityScoped });
      await queryClient.invalidateQueries({ queryKey: sessionQueryOptions.queryKey });
    },
  });
}

/** After any sign-in step: reload who we are, and drop caches that belonged to a visitor. */
export async function refreshSession(queryClient: ReturnType<typeof useQueryClient>) {
  queryClient.removeQueries({ predicate: identityScoped });
  return queryClient.fetchQuery({ ...sessionQueryOptions, staleTime: 0 });
}
