import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminSettings, SettingEntry } from '@shared/contracts/settings';
import { api } from '@web/lib/api';

/** /api/admin/settings (role + two-factor; some keys the owner only). */

export const adminSettingsKey = ['admin', 'settings'] as const;

export const adminSettingsQuery = queryOptions({
  queryKey: adminSettingsKey,
  queryFn: ({ signal }) => api.get<AdminSettings>('/api/admin/settings', { signal }),
});

export function useSaveSetting() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ key, value }: { key: string; value: unknown }) =>
      api.put<SettingEntry>(`/api/admin/settings/${encodeURIComponent(key)}`, { value }),
    onSuccess: async () => {
      // The history below the forms, and the public config (site name in titles and the footer).
      await Promise.all([qc.invalidateQueries({ queryKey: adminSettingsKey }), qc.invalidateQueries({ queryKey: ['config'] })]);
    },
  });
}
