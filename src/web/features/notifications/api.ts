import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type {
  NotificationPreferencesInput,
} from '@shared/contracts/notifications';
import { api, ApiClientError } from '@web/lib/api';
import { useRealtimeEvent } from '@web/lib/realtime';

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
  queryFn: ({ signal }) => api.get('/api/notifications/unread-count', { signal }),
  retry: retryServerErrors,
});

/** The inbox, newest first, a page at a time (`nextCursor` → `before`). */
export const inboxQuery = infiniteQueryOptions({
  queryKey: notificationKeys.inbox,
  queryFn: ({ signal, pageParam }) =>
    api.get('/api/notifications', { query: { limit: INBOX_PAGE_SIZE, before: pageParam ?? undefined }, signal }),
  initialPageParam: null as string | null,
  getNextPageParam: (last) => last.nextCursor,
  retry: retryServerErrors,
});

export const preferencesQuery = queryOptions({
  queryKey: notificationKeys.preferences,
  queryFn: ({ signal }) => api.get('/api/notifications/preferences', { signal }),
  retry: retryServerErrors,
});

export const unsubscribeInfoQuery = (token: string) =>
  queryOptions({
    queryKey: notificationKeys.unsubscribe(token),
    queryFn: ({ signal }) => api.get('/api/notifications/unsubscribe', { query: { token }, signal }),
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
    mutationFn: (id: string) => api.post('/api/notifications/{id}/read', { path: { id } }),
    onSuccess: (r) => {
      setUnreadCount(qc, r.unreadCount);
      void qc.invalidateQueries({ queryKey: notificationKeys.inbox });
    },
  });
}

export function useMarkAllRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.post('/api/notifications/read-all'),
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
      api.put('/api/notifications/preferences', { body: input }),
    onSuccess: (prefs) => qc.setQueryData(notificationKeys.preferences, prefs),
  });
}

export function useConfirmUnsubscribe(token: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.post('/api/notifications/unsubscribe', { body: { token } }),
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
