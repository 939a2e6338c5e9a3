import { keepPreviousData, queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { DropDetail, DropEntry, DropList, PublicDrop } from '@shared/contracts/drops';
import { api, ApiClientError } from '@web/lib/api';
import { useRealtimeEvent } from '@web/lib/realtime';


/** Public and user reads of daily drops (the back office keeps its own keys under ['admin', …]). */
export const dropKeys = {
  all: ['drops'] as const,
  lists: ['drops', 'list'] as const,
  list: (when: 'current' | 'past', page: number) => ['drops', 'list', when, page] as const,
  details: ['drops', 'detail'] as const,
  detail: (id: string) => ['drops', 'detail', id] as const,
  proof: (id: string) => ['drops', 'proof', id] as const,
  myEntry: (id: string) => ['drops', 'my-entry', id] as const,
};

/** A 4xx (no such drop, not drawn yet) will not change by asking again. */
const retryServerErrors = (n: number, err: unknown) => !(err instanceof ApiClientError && err.status >= 400 && err.status < 500) && n < 2;

export const PAST_PAGE_SIZE = 10;

export const dropListQuery = (when: 'current' | 'past', page = 1, pageSize = when === 'past' ? PAST_PAGE_SIZE : 20) =>
  queryOptions({
    queryKey: dropKeys.list(when, page),
    queryFn: ({ signal }) => api.get('/api/drops', { query: { when, page, pageSize }, signal }),
    placeholderData: keepPreviousData,
  });

export const dropQuery = (id: string) =>
  queryOptions({
    queryKey: dropKeys.detail(id),
    queryFn: ({ signal }) => api.get('/api/drops/{id}', { path: { id }, signal }),
    retry: retryServerErrors,
  });

/** A drawn drop's proof never changes, so it is fetched once. */
export const dropProofQuery = (id: string) =>
  queryOptions({
    queryKey: dropKeys.proof(id),
    queryFn: ({ signal }) => api.get('/api/drops/{id}/proof', { path: { id }, signal }),
    staleTime: Infinity,
    retry: retryServerErrors,
  });

/** The signed-in user's own entry, or null when they have not entered (the API's 404). */
export const myEntryQuery = (id: string) =>
  queryOptions({
    queryKey: dropKeys.myEntry(id),
    queryFn: async ({ signal }): Promise<DropEntry | null> => {
      try {
        return (await api.get('/api/drops/{id}/entries/me', { path: { id }, signal })).entry;
      } catch (err) {
        if (err instanceof ApiClientError && err.status === 404) return null;
        throw err;
      }
    },
    retry: retryServerErrors,
  });

/** Writes a new entry count into every cached copy of that drop (detail and lists). */
function setEntryCount(qc: QueryClient, dropId: string, entryCount: number) {
  const patch = (d: PublicDrop) => (d.id === dropId && d.entryCount < entryCount ? { ...d, entryCount } : d);
  qc.setQueryData<DropDetail>(dropKeys.detail(dropId), (old) => (old ? { ...old, drop: patch(old.drop) } : old));
  qc.setQueriesData<DropList>({ queryKey: dropKeys.lists }, (old) => (old ? { ...old, items: old.items.map(patch) } : old));
}

/**
 * Enters a drop. The server keeps one entry per user and answers a retry with the same entry, so
 * sending the request again after a lost answer is safe; the button is disabled while it is in flight.
 */
export function useEnterDrop(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: ['drops', 'enter', id],
    mutationFn: () => api.post('/api/drops/{id}/entries', { path: { id } }),
    onSuccess: (r) => {
      qc.setQueryData(dropKeys.myEntry(id), r.entry);
      qc.setQueryData<DropDetail>(dropKeys.detail(id), (old) => (old ? { ...old, myEntry: r.entry } : old));
      setEntryCount(qc, id, r.entryCount);
    },
    onError: async (err) => {
      // The answer was lost, not necessarily the entry: ask whether it was made before saying no.
      if (!(err instanceof ApiClientError) || (err.status !== 0 && err.status < 500)) return;
      const entry = await qc.fetchQuery({ ...myEntryQuery(id), staleTime: 0 }).catch(() => null);
      if (entry) qc.setQueryData<DropDetail>(dropKeys.detail(id), (old) => (old ? { ...old, myEntry: entry } : old));
    },
    onSettled: () => qc.invalidateQueries({ queryKey: dropKeys.detail(id) }),
  });
}

export interface DropEntriesEvent {
  dropId: string;
  entryCount: number;
}
export interface DropEvent {
  dropId: string;
}

/**
 * Keeps every drop on screen live: entry counts are patched in place (they arrive with every
 * entry, so no refetch), a change of status (opened, drawing, drawn, cancelled) refetches, and a
 * win refetches the vault too.
 */
export function useDropsLiveUpdates() {
  const qc = useQueryClient();
  useRealtimeEvent<DropEntriesEvent>('drop.entries', (e) => {
    if (!e || typeof e.dropId !== 'string' || !Number.isInteger(e.entryCount)) return;
    setEntryCount(qc, e.dropId, e.entryCount);
    // A read in flight may have started before this entry: its answer would put the older count
    // back over the patch, and no later event corrects it. Read again instead.
    if (qc.isFetching({ queryKey: dropKeys.all }) > 0) void qc.invalidateQueries({ queryKey: dropKeys.all });
  });
  const refetch = () => void qc.invalidateQueries({ queryKey: dropKeys.all });
  useRealtimeEvent<DropEvent>('drop.opened', refetch);
  useRealtimeEvent<DropEvent>('drop.drawing', refetch);
  useRealtimeEvent<DropEvent>('drop.closed', refetch);
  useRealtimeEvent<DropEvent>('drop.cancelled', refetch);
  useRealtimeEvent<DropEvent>('drop.won', () => {
    refetch();
    void qc.invalidateQueries({ queryKey: ['collection'] });
  });
}
