import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import type { AdminUserListQuery, BanUserInput } from '@shared/contracts/admin-users';
import type { AuditListQuery } from '@shared/contracts/audit';
import type { z } from 'zod';
import type { adminAccountSchema } from '@shared/contracts/admin-users';
import { api, ApiClientError } from '@web/lib/api';

export type AdminAccount = z.infer<typeof adminAccountSchema>;

export const adminUserKeys = {
  all: ['admin-users'] as const,
  list: (q: Partial<AdminUserListQuery>) => ['admin-users', 'list', q] as const,
  detail: (id: string) => ['admin-users', 'detail', id] as const,
  admins: ['admin-users', 'admins'] as const,
  audit: (q: Partial<AuditListQuery>) => ['admin-users', 'audit', q] as const,
};

export const userListQuery = (q: Partial<AdminUserListQuery>) =>
  queryOptions({
    queryKey: adminUserKeys.list(q),
    queryFn: ({ signal }) => api.get('/api/admin/users', { query: q, signal }),
    placeholderData: keepPreviousData,
  });

export const userDetailQuery = (id: string) =>
  queryOptions({
    queryKey: adminUserKeys.detail(id),
    queryFn: () => api.get('/api/admin/users/{id}', { path: { id } }),
  });

export const adminsQuery = queryOptions({
  queryKey: adminUserKeys.admins,
  queryFn: async () => (await api.get('/api/admin/admins')).items,
});

export const auditQuery = (q: Partial<AuditListQuery>) =>
  queryOptions({
    queryKey: adminUserKeys.audit(q),
    queryFn: ({ signal }) => api.get('/api/admin/audit', { query: q, signal }),
    placeholderData: keepPreviousData,
  });

export const adminUsersApi = {
  ban: (id: string, body: BanUserInput) => api.post('/api/admin/users/{id}/ban', { path: { id }, body }),
  unban: (id: string) => api.post('/api/admin/users/{id}/unban', { path: { id } }),
  resetTwoFactor: (id: string) => api.post('/api/admin/users/{id}/reset-two-factor', { path: { id } }),
  sendReset: (email: string) => api.post('/api/admin/reset-password', { body: { email } }),
  promote: (userId: string) => api.post('/api/admin/admins/promote', { body: { userId } }),
  demote: (id: string) => api.post('/api/admin/admins/{id}/demote', { path: { id } }),
};

export { useUrlState } from '@web/lib/url-state';

/** Puts the server's per-field messages on the form's fields. Returns true when any applied. */
export function applyServerFields<T extends FieldValues>(err: unknown, setError: UseFormSetError<T>, known: ReadonlyArray<Path<T>>): boolean {
  if (!(err instanceof ApiClientError) || !err.fields) return false;
  let applied = false;
  for (const [name, messages] of Object.entries(err.fields)) {
    if (!known.includes(name as Path<T>) || !messages[0]) continue;
    setError(name as Path<T>, { type: 'server', message: messages[0] }, { shouldFocus: !applied });
    applied = true;
  }
  return applied;
}

/** What went wrong and what to do next, for failures no field explains. */
export function errorText(err: unknown): string {
  if (err instanceof ApiClientError) {
    if (err.status === 401) return 'Your session has ended. Sign in again, then retry.';
    if (err.code === 'mfa_required') return 'This needs a session that passed two-factor. Sign in again with your code.';
    if (err.code === 'owner_role_required') return 'Only an owner can do this. Ask an owner.';
    if (err.status === 429) return `Too many requests. Wait ${err.retryAfter ? `${err.retryAfter} seconds` : 'a moment'} and try again.`;
    return err.message;
  }
  return 'Something went wrong. Try again in a moment.';
}

