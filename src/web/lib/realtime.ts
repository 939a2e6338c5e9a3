import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import type { RealtimeEventType } from '@shared/realtime';
import { authRequestsSettled } from './auth-post';

export type RealtimeStatus = 'idle' | 'connecting' | 'open' | 'reconnecting';
type Handler = (data: unknown, event: MessageEvent<string>) => void;

const MAX_BACKOFF_MS = 30_000;
/** The browser retries a dropped stream by itself; after this many failures in a row we start over. */
const NATIVE_RETRIES = 3;

/**
 * The app's one connection to /api/events. Every `useRealtimeEvent` shares it, so a page with a
 * balance, a notification bell and a live top-pulls list still holds a single stream.
 */
class RealtimeConnection {
  private source: EventSource | null = null;
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly attached = new Set<string>();
  private lastEventId: string | null = null;
  private failures = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private wanted = false;
  private statusValue: RealtimeStatus = 'idle';
  private readonly statusListeners = new Set<() => void>();

  constructor(private readonly url = '/api/events') {}

  get status() {
    return this.statusValue;
  }

  private setStatus(s: RealtimeStatus) {
    if (s === this.statusValue) return;
    this.statusValue = s;
    this.statusListeners.forEach((l) => l());
  }

  onStatus(listener: () => void) {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  start() {
    this.wanted = true;
    if (!this.source && !this.retryTimer) this.open();
  }

  stop() {
    this.wanted = false;
    this.close();
    this.setStatus('idle');
  }

  /** A new identity (sign in/out): the server picks the user's stream when the connection opens. */
  restart() {
    this.lastEventId = null;
    this.failures = 0;
    this.close();
    if (this.wanted) this.open();
  }

  on(type: RealtimeEventType, handler: Handler): () => void {
    let set = this.handlers.get(type);
    if (!set) this.handlers.set(type, (set = new Set()));
    set.add(handler);
    this.attach(type);
    return () => {
      set.delete(handler);
    };
  }

  private attach(type: string) {
    if (!this.source || this.attached.has(type)) return;
    this.attached.add(type);
    this.source.addEventListener(type, (e) => this.dispatch(type, e as MessageEvent<string>));
  }

  private dispatch(type: string, event: MessageEvent<string>) {
    if (event.lastEventId) this.lastEventId = event.lastEventId;
    let data: unknown;
    try {
      data = event.data ? JSON.parse(event.data) : null;
    } catch {
      data = event.data;
    }
    for (const h of this.handlers.get(type) ?? []) {
      try {
        h(data, event);
      } catch (err) {
        // One broken handler must not stop the others (or the stream).
        setTimeout(() => {
          throw err;
        });
      }
    }
  }

  private open() {
    if (typeof EventSource === 'undefined') return;
    const url = this.lastEventId ? `${this.url}?lastEventId=${encodeURIComponent(this.lastEventId)}` : this.url;
    const source = new EventSource(url, { withCredentials: true });
    this.source = source;
    this.attached.clear();
    this.setStatus(this.failures ? 'reconnecting' : 'connecting');
    source.onopen = () => {
      this.failures = 0;
      this.setStatus('open');
    };
    source.onerror = () => {
      if (this.source !== source) return;
      this.failures++;
      this.setStatus('reconnecting');
      // CLOSED: the browser gave up (e.g. a 5xx or a non-stream answer). Too many native retries in
      // a row: start over ourselves, spaced out, so a restarting server is not hammered.
      if (source.readyState === EventSource.CLOSED || this.failures >= NATIVE_RETRIES) {
        this.close();
        this.scheduleReopen();
      }
    };
    for (const type of this.handlers.keys()) this.attach(type);
  }

  private scheduleReopen() {
    if (!this.wanted || this.retryTimer) return;
    const exp = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(this.failures, 5));
    const delay = exp / 2 + Math.random() * (exp / 2);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.wanted) this.open();
    }, delay);
  }

  private close() {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.source?.close();
    this.source = null;
    this.attached.clear();
  }
}

export const realtime = new RealtimeConnection();

/** Calls handler for every event of this type on the shared stream, while the component is mounted. */
export function useRealtimeEvent<T = unknown>(type: RealtimeEventType, handler: (data: T, event: MessageEvent<string>) => void) {
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(() => realtime.on(type, (data, e) => ref.current(data as T, e)), [type]);
}

export function useRealtimeStatus(): RealtimeStatus {
  return useSyncExternalStore(
    (l) => realtime.onStatus(l),
    () => realtime.status,
    () => 'idle' as const,
  );
}

/**
 * Keeps the shared connection open for the app's lifetime (mounted once, by the root layout).
 * `identity` is the signed-in user id (or null); when it changes the stream is reopened so the
 * server attaches the right user stream. `reset` (a gap too long to replay) refetches everything.
 */
export function useRealtimeConnection(identity: string | null, ready: boolean) {
  const queryClient = useQueryClient();
  const previous = useRef<string | null | undefined>(undefined);
  useEffect(() => {
    if (!ready) return;
    if (previous.current !== undefined && previous.current !== identity) realtime.restart();
    previous.current = identity;
    realtime.start();
  }, [identity, ready]);
  useEffect(() => () => realtime.stop(), []);
  useRealtimeEvent('reset', () => {
    void queryClient.invalidateQueries();
  });
  // The session behind this stream ended elsewhere: /api/me is asked first, so nothing of the
  // signed-in page is read again with a dead session (a row of 401s). Still signed in (a role
  // change): everything is read again under the new role. Signed out: the router's guards run
  // again and send a signed-in page to sign-in. The identity change reopens the stream as that.
  const router = useRouter();
  useRealtimeEvent('session.ended', () => {
    void (async () => {
      // A sign-in step of this page that replaced the session ends the old one first: ask who is
      // signed in once its answer (and the new session's cookie) is here, not before.
      await authRequestsSettled();
      await queryClient.invalidateQueries({ refetchType: 'none' });
      // The session query (features/auth/session.ts), by its key: lib does not import features.
      await queryClient.refetchQueries({ queryKey: ['session'], exact: true }).catch(() => {});
      if (queryClient.getQueryData(['session'])) await queryClient.invalidateQueries();
      else await router.invalidate();
    })();
  });
}
