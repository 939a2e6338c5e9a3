import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReferralSettings, ReferralStatus, VoidReferralInput } from '@shared/contracts/referrals';
import { api } from '@web/lib/api';

/** The back office's side of referrals: /api/admin/referrals (role + two-factor). */

export interface AdminReferralListParams {
  status?: ReferralStatus | undefined;
  q?: string | undefined;
  page: number;
  pageSize: number;
}


export const adminReferralKeys = {
  all: ['admin', 'referrals'] as const,
  list: (p: AdminReferralListParams) => ['admin', 'referrals', 'list', p] as const,
  one: (id: string) => ['admin', 'referrals', 'one', id] as const,
  settings: ['admin', 'referrals', 'settings'] as const,
};

export const adminReferralsQuery = (p: AdminReferralListParams) =>
  queryOptions({
    queryKey: adminReferralKeys.list(p),
    queryFn: ({ signal }) => api.get('/api/admin/referrals', { query: p, signal }),
    placeholderData: keepPreviousData,
  });

export const adminReferralQuery = (id: string) =>
  queryOptions({
    queryKey: adminReferralKeys.one(id),
    queryFn: ({ signal }) => api.get('/api/admin/referrals/{id}', { path: { id }, signal }),
  });

export const referralSettingsQuery = queryOptions({
  queryKey: adminReferralKeys.settings,
  queryFn: ({ signal }) => api.get('/api/admin/referrals/settings', { signal }),
});

export function useSaveReferralSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (s: ReferralSettings) => api.put('/api/admin/referrals/settings', { body: s }),
    onSuccess: (r) => {
      qc.setQueryData(adminReferralKeys.settings, r);
      // The public offer follows the settings.
      void qc.invalidateQueries({ queryKey: ['referrals'] });
    },
  });
}

export function useVoidReferral(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: VoidReferralInput) => api.post('/api/admin/referrals/{id}/void', { path: { id }, body: input }),
    onSuccess: (r) => {
      qc.setQueryData(adminReferralKeys.one(id), r);
      void qc.invalidateQueries({ queryKey: adminReferralKeys.all });
    },
  });
}
