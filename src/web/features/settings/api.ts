import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@web/lib/api';

/** /api/admin/settings (role + two-factor; some keys the owner only). */

export const adminSettingsKey = ['admin', 'settings'] as const;

export const adminSettingsQuery = queryOptions({
  queryKey: adminSettingsKey,
  queryFn: ({ signal }) => api.get('/api/admin/settings', { signal }),
});

export function useSaveSetting() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ key, value }: { key: string; value: unknown }) =>
      api.put('/api/admin/settings/{key}', { path: { key }, body: { value } }),
    onSuccess: async () => {
      // The history below the forms, and the public config (site name in titles and the footer).
      await Promise.all([qc.invalidateQueries({ queryKey: adminSettingsKey }), qc.invalidateQueries({ queryKey: ['config'] })]);
    },
  });
}
