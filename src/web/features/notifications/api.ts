import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type {
  NotificationList,
  NotificationPreferences,
  NotificationPreferencesInput,
  UnsubscribeInfo,
} from '@shared/contracts/notifications';
import { api, ApiClientError } from '@web/lib/api';
import { useRealtimeEvent } from '@web/lib/realtime';

const enc = encodeURIComponent;

/** Every notification read lives under ['notifications']; the realtime events refresh them all. */
export const notificationKeys = {
  all: ['notifications'] as const,
  unreadCount: ['notifications', 'unread-count'] as const,
  inbox: ['notifications', 'inbox'] as const,
  preferences: ['notifications', 'preferences'] as const,
  unsubscribe: (token: string) => ['unsubscribe', token] as const,
};

export const INBOX_PAGE_SIZE = 20;

/** A 4xx (a bad link, signed out) will not change by asking again. */
const retryServerErrors = (n: number, err: unknown) =>
  !(err instanceof ApiClientError && err.status >= 400 && err.status < 500) && n < 2;

export const unreadCountQuery = queryOptions({
  queryKey: notificationKeys.unreadCount,
  queryFn: ({ signal }) => api.get<{ unreadCount: number }>('/api/notifications/unread-count', { signal }),
  retry: retryServerErrors,
});

/** The inbox, newest first, a page at a time (`nextCursor` → `before`). */
export const inboxQuery = infiniteQueryOptions({
  queryKey: notificationKeys.inbox,
  queryFn: ({ signal, pageParam }) =>
    api.get<NotificationList>(
      `/api/notifications?limit=${INBOX_PAGE_SIZE}${pageParam ? `&before=${enc(pageParam)}` : ''}`,
      { signal },
    ),
  initialPageParam: null as string | null,
  getNextPageParam: (last) => last.nextCursor,
  retry: retryServerErrors,
});

export const preferencesQuery = queryOptions({
  queryKey: notificationKeys.preferences,
  queryFn: ({ signal }) => api.get<NotificationPreferences>('/api/notifications/preferences', { signal }),
  retry: retryServerErrors,
});

export const unsubscribeInfoQuery = (token: string) =>
  queryOptions({
    queryKey: notificationKeys.unsubscribe(token),
    queryFn: ({ signal }) => api.get<UnsubscribeInfo>(`/api/notifications/unsubscribe?token=${enc(token)}`, { signal }),
    retry: retryServerErrors,
    staleTime: Infinity,
  });

function setUnreadCount(qc: QueryClient, unreadCount: number) {
  qc.setQueryData(notificationKeys.unreadCount, { unreadCount });
  // A count read in flight started before this change and would write the old count back.
  if (qc.isFetching({ queryKey: notificationKeys.unreadCount }) > 0) void qc.invalidateQueries({ queryKey: notificationKeys.unreadCount });
}

/** Marks one entry read (opening it). The list refetches; the count is the server's. */
export function useMarkRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<{ unreadCount: number }>(`/api/notifications/${enc(id)}/read`),
    onSuccess: (r) => {
      setUnreadCount(qc, r.unreadCount);
      void qc.invalidateQueries({ queryKey: notificationKeys.inbox });
    },
  });
}

export function useMarkAllRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ unreadCount: number }>('/api/notifications/read-all'),
    onSuccess: (r) => {
      setUnreadCount(qc, r.unreadCount);
      void qc.invalidateQueries({ queryKey: notificationKeys.inbox });
    },
  });
}

export function useSavePreferences() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: NotificationPreferencesInput) =>
      api.put<NotificationPreferences>('/api/notifications/preferences', input),
    onSuccess: (prefs) => qc.setQueryData(notificationKeys.preferences, prefs),
  });
}

export function useConfirmUnsubscribe(token: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<UnsubscribeInfo>('/api/notifications/unsubscribe', { token }),
    onSuccess: (info) => {
      qc.setQueryData(notificationKeys.unsubscribe(token), info);
      void qc.invalidateQueries({ queryKey: notificationKeys.preferences });
    },
  });
}

/**
 * Keeps every notification query fresh from the event stream: a new entry, one read elsewhere
 * (another tab), a broadcast, or a gap in the stream (`reset`). `onCreated` hears new entries.
 */
export function useNotificationEvents(onCreated?: () => void) {
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: notificationKeys.all });
  useRealtimeEvent<{ unreadCount?: unknown }>('notification.created', () => {
    refresh();
    onCreated?.();
  });
  useRealtimeEvent<{ unreadCount?: unknown }>('notification.read', (e) => {
    if (typeof e?.unreadCount === 'number') setUnreadCount(qc, e.unreadCount);
    void qc.invalidateQueries({ queryKey: notificationKeys.inbox });
  });
  useRealtimeEvent('notification.broadcast', () => {
    refresh();
    onCreated?.();
  });
  useRealtimeEvent('reset', refresh);
}
