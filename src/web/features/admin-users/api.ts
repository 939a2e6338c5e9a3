import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import type { AdminUserDetail, AdminUserList, AdminUserListQuery, BanUserInput } from '@shared/contracts/admin-users';
import type { AuditList, AuditListQuery } from '@shared/contracts/audit';
import type { z } from 'zod';
import type { adminAccountListSchema, adminAccountSchema } from '@shared/contracts/admin-users';
import { api, ApiClientError } from '@web/lib/api';

export type AdminAccount = z.infer<typeof adminAccountSchema>;

function qs(params: Record<string, string | number | undefined | null>): string {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') u.set(k, String(v));
  const s = u.toString();
  return s ? `?${s}` : '';
}

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
    queryFn: ({ signal }) => api.get<AdminUserList>(`/api/admin/users${qs(q)}`, { signal }),
    placeholderData: keepPreviousData,
  });

export const userDetailQuery = (id: string) =>
  queryOptions({
    queryKey: adminUserKeys.detail(id),
    queryFn: () => api.get<AdminUserDetail>(`/api/admin/users/${encodeURIComponent(id)}`),
  });

export const adminsQuery = queryOptions({
  queryKey: adminUserKeys.admins,
  queryFn: async () => (await api.get<z.infer<typeof adminAccountListSchema>>('/api/admin/admins')).items,
});

export const auditQuery = (q: Partial<AuditListQuery>) =>
  queryOptions({
    queryKey: adminUserKeys.audit(q),
    queryFn: ({ signal }) => api.get<AuditList>(`/api/admin/audit${qs(q)}`, { signal }),
    placeholderData: keepPreviousData,
  });

export const adminUsersApi = {
  ban: (id: string, body: BanUserInput) => api.post<AdminUserDetail>(`/api/admin/users/${encodeURIComponent(id)}/ban`, body),
  unban: (id: string) => api.post<AdminUserDetail>(`/api/admin/users/${encodeURIComponent(id)}/unban`, {}),
  resetTwoFactor: (id: string) => api.post<AdminUserDetail>(`/api/admin/users/${encodeURIComponent(id)}/reset-two-factor`, {}),
  sendReset: (email: string) => api.post<{ sent: true }>('/api/admin/reset-password', { email }),
  promote: (userId: string) => api.post<AdminAccount>('/api/admin/admins/promote', { userId }),
  demote: (id: string) => api.post<{ id: string; role: 'user' }>(`/api/admin/admins/${encodeURIComponent(id)}/demote`, {}),
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

