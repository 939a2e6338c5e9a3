import { queryOptions } from '@tanstack/react-query';
import type { SharedPull } from '@shared/contracts/pulls';
import { isPullId } from '@shared/pull-path';
import { api } from '@web/lib/api';

export const sharedPullQuery = (id: string) =>
  queryOptions({
    queryKey: ['pulls', id] as const,
    queryFn: () => api.get<SharedPull>(`/api/pulls/${encodeURIComponent(id)}`),
    // A pull is history: it changes only if the card or the user is renamed.
    staleTime: 60_000,
    retry: false,
    enabled: isPullId(id),
  });
