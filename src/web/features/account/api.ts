import { queryOptions, useQueryClient } from '@tanstack/react-query';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import type { Account, SessionInfo } from '@shared/contracts/account';
import { api, ApiClientError } from '@web/lib/api';

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

/**
 * Calls a Better Auth endpoint under /api/auth. Its errors are `{ code, message, fields?, retryAfter? }`
 * at the top level, so they are normalised into ApiClientError like the rest of the API.
 */
async function authPost<T = unknown>(path: string, body: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`/api/auth${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiClientError(0, 'network_error', 'We could not reach the server. Check your connection and try again.');
  }
  const text = await res.text();
  let data: any;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (!res.ok) {
    const e = data?.error && typeof data.error === 'object' ? data.error : data;
    const header = Number(res.headers.get('Retry-After'));
    const retryAfter = typeof e?.retryAfter === 'number' ? e.retryAfter : Number.isFinite(header) && header > 0 ? header : undefined;
    const fields: Record<string, string[]> | undefined =
      e?.fields && typeof e.fields === 'object'
        ? Object.fromEntries(
            Object.entries(e.fields as Record<string, unknown>).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : [String(v)]]),
          )
        : undefined;
    throw new ApiClientError(
      res.status,
      typeof e?.code === 'string' ? e.code : res.status === 429 ? 'rate_limited' : 'http_error',
      typeof e?.message === 'string' && e.message ? e.message : `The server answered ${res.status}. Try again in a moment.`,
      fields,
      retryAfter,
    );
  }
  return data as T;
}

/** "Try again in 14 minutes" from a retryAfter in seconds. */
export function retryText(seconds: number | undefined): string {
  if (!seconds || seconds <= 0) return 'Wait a moment and try again.';
  if (seconds < 60) return `Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`;
  const minutes = Math.ceil(seconds / 60);
  return `Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

/**
 * Puts the server's per-field messages on the form's fields (the first field gets focus). `rename`
 * maps server field names to form field names when they differ. Returns true when any applied.
 */
export function applyServerFields<T extends FieldValues>(
  err: unknown,
  setError: UseFormSetError<T>,
  known: ReadonlyArray<Path<T>>,
  rename: Record<string, Path<T>> = {},
): boolean {
  if (!(err instanceof ApiClientError) || !err.fields) return false;
  let applied = false;
  for (const [serverName, messages] of Object.entries(err.fields)) {
    const name = rename[serverName] ?? (serverName as Path<T>);
    if (!known.includes(name) || !messages[0]) continue;
    setError(name, { type: 'server', message: messages[0] }, { shouldFocus: !applied });
    applied = true;
  }
  return applied;
}

/** A message for a failure that no field explains: what happened and what to do next. */
export function errorText(err: unknown): string {
  if (err instanceof ApiClientError) {
    if (err.status === 429) return `Too many attempts. ${retryText(err.retryAfter)}`;
    if (err.status === 401 && err.code === 'unauthorized') return 'Your session has ended. Sign in again, then retry.';
    return err.message;
  }
  return 'Something went wrong. Try again in a moment.';
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'long' });
export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));
export const formatDate = (iso: string) => dateOnly.format(new Date(iso));

/** "3 minutes ago", "yesterday"… for last-seen times. */
export function timeAgo(iso: string, now = Date.now()): string {
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  const s = Math.round((new Date(iso).getTime() - now) / 1000);
  const abs = Math.abs(s);
  if (abs < 60) return 'just now';
  if (abs < 3600) return rtf.format(Math.round(s / 60), 'minute');
  if (abs < 86_400) return rtf.format(Math.round(s / 3600), 'hour');
  if (abs < 30 * 86_400) return rtf.format(Math.round(s / 86_400), 'day');
  return formatDate(iso);
}
