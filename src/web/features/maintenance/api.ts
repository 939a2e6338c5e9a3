import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { MaintenanceInput } from '@shared/contracts/maintenance';
import { api } from '@web/lib/api';

export const maintenanceKeys = {
  public: ['maintenance'] as const,
  admin: ['admin', 'maintenance'] as const,
};

/** The public switch (answers during maintenance too). */
export const maintenanceQuery = queryOptions({
  queryKey: maintenanceKeys.public,
  queryFn: () => api.get('/api/maintenance'),
  staleTime: 30_000,
});

export const adminMaintenanceQuery = queryOptions({
  queryKey: maintenanceKeys.admin,
  queryFn: () => api.get('/api/admin/maintenance'),
});

export function useSetMaintenance() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: MaintenanceInput) => api.put('/api/admin/maintenance', { body: input }),
    onSuccess: (data) => {
      qc.setQueryData(maintenanceKeys.admin, data);
      const { changedBy: _by, ...state } = data;
      qc.setQueryData(maintenanceKeys.public, state);
    },
  });
}

/** "Tuesday 14:30" style end, in the reader's zone and language. */
export function formatEnd(iso: string | null): string | null {
  if (!iso) return null;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return null;
  return new Intl.DateTimeFormat(undefined, { weekday: 'long', day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' }).format(d);
}
