import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Me } from '@shared/contracts/me';
import { api, ApiClientError } from '@web/lib/api';

/** The signed-in user, or null. Shared by route guards, the header and every feature. */
export const sessionQueryOptions = queryOptions({
  queryKey: ['session'],
  queryFn: async (): Promise<Me | null> => {
    try {
      return await api.get('/api/me');
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

const RETURNING_AFTER_MS = 24 * 3600_000;

/**
 * "Welcome back" only to someone who has been here before: an account older than a day, or one
 * that has opened a pack. A brand-new account gets "Welcome" (issue 19).
 */
export function welcomeText(me: Me | null | undefined, openedBefore: boolean, now = Date.now()): string {
  if (!me) return 'Welcome';
  const returning = openedBefore || now - new Date(me.user.createdAt).getTime() > RETURNING_AFTER_MS;
  return `${returning ? 'Welcome back' : 'Welcome'}, ${me.user.username}`;
}

export function isAdminRole(me: Me | null | undefined): boolean {
  return me?.user.role === 'admin' || me?.user.role === 'owner';
}
