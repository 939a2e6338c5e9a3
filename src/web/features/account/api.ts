import { queryOptions, useQueryClient } from '@tanstack/react-query';
import type { Account, SessionInfo } from '@shared/contracts/account';
import { api } from '@web/lib/api';
import { authPost } from '@web/lib/auth-post';

/** The signed-in user's own account: profile, sessions, two-factor, export, deletion. */

export const accountKeys = {
  all: ['account'] as const,
  account: ['account', 'me'] as const,
  sessions: ['account', 'sessions'] as const,
};

export const accountQuery = queryOptions({
  queryKey: accountKeys.account,
  queryFn: () => api.get<Account>('/api/account'),
});

export const sessionsQuery = queryOptions({
  queryKey: accountKeys.sessions,
  queryFn: async () => (await api.get<{ sessions: SessionInfo[] }>('/api/account/sessions')).sessions,
});

/** Refetches the account and the sessions after a change (and `['session']`, the header's who-am-I). */
export function useRefreshAccount() {
  const qc = useQueryClient();
  return async () => {
    await Promise.all([
      qc.invalidateQueries({ queryKey: accountKeys.all }),
      qc.invalidateQueries({ queryKey: ['session'] }),
    ]);
  };
}

export const accountApi = {
  usernameAvailable: (username: string, signal?: AbortSignal) =>
    api.get<{ available: boolean }>(`/api/account/username-available?username=${encodeURIComponent(username)}`, { signal }),
  changeUsername: (username: string) => api.patch<Account>('/api/account/username', { username }),
  revokeSession: (id: string) => api.delete<void>(`/api/account/sessions/${encodeURIComponent(id)}`),
  revokeOthers: () => api.post<{ revoked: number }>('/api/account/sessions/revoke-others', {}),
  deleteAccount: (body: { password: string; code?: string; confirm: 'DELETE' }) =>
    api.post<{ deleted: true }>('/api/account/delete', body),
  changeEmail: (newEmail: string) => authPost('/change-email', { newEmail, callbackURL: '/profile/account' }),
  changePassword: (currentPassword: string, newPassword: string) =>
    authPost('/change-password', { currentPassword, newPassword, revokeOtherSessions: true }),
  disableTwoFactor: (password: string, code: string) => authPost('/two-factor/disable', { password, code }),
  regenerateBackupCodes: (password: string, code: string) =>
    authPost<{ status: boolean; backupCodes: string[] }>('/two-factor/generate-backup-codes', { password, code }),
};

