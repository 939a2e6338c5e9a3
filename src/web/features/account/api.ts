import { queryOptions, useQueryClient } from '@tanstack/react-query';

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
  queryFn: () => api.get('/api/account'),
});

export const sessionsQuery = queryOptions({
  queryKey: accountKeys.sessions,
  queryFn: async () => (await api.get('/api/account/sessions')).sessions,
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
    api.get('/api/account/username-available', { query: { username }, signal }),
  changeUsername: (username: string) => api.patch('/api/account/username', { body: { username } }),
  revokeSession: (id: string) => api.delete('/api/account/sessions/{id}', { path: { id } }),
  revokeOthers: () => api.post('/api/account/sessions/revoke-others', ),
  deleteAccount: (body: { password: string; code?: string; confirm: 'DELETE' }) =>
    api.post('/api/account/delete', { body }),
  changeEmail: (newEmail: string) => authPost('/change-email', { newEmail, callbackURL: '/profile/account' }),
  changePassword: (currentPassword: string, newPassword: string) =>
    authPost('/change-password', { currentPassword, newPassword, revokeOtherSessions: true }),
  disableTwoFactor: (password: string, code: string) => authPost('/two-factor/disable', { password, code }),
  regenerateBackupCodes: (password: string, code: string) =>
    authPost<{ status: boolean; backupCodes: string[] }>('/two-factor/generate-backup-codes', { password, code }),
};

