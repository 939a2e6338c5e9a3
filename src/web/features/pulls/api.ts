import { queryOptions } from '@tanstack/react-query';

import { isPullId } from '@shared/pull-path';
import { api } from '@web/lib/api';

export const sharedPullQuery = (id: string) =>
  queryOptions({
    queryKey: ['pulls', id] as const,
    queryFn: () => api.get('/api/pulls/{id}', { path: { id } }),
    // A pull is history: it changes only if the card or the user is renamed.
    staleTime: 60_000,
    retry: false,
    enabled: isPullId(id),
  });
