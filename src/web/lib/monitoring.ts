/**
 * Reports browser errors as Sentry envelopes to the same-origin /monitoring tunnel.
 * Hand-written (a few hundred bytes) instead of the Sentry SDK, to keep public pages light.
 */
let dsn: string | null = null;
let sent = 0;
const MAX_PER_PAGE = 20;

/** Errors that happen before /api/config has told us the DSN wait here (a few at most). */
const pending: Array<[unknown, Record<string, unknown> | undefined]> = [];

export function configureMonitoring(configuredDsn: string) {
  dsn = configuredDsn;
  for (const [error, extra] of pending.splice(0)) reportError(error, extra);
}

function uuid32() {
  return crypto.randomUUID().replace(/-/g, '');
}

/** The same error object can reach us twice (an error boundary and React's root callbacks). */
const reported = new WeakSet<object>();

export function reportError(error: unknown, extra?: Record<string, unknown>) {
  if (!dsn) {
    if (pending.length < 5) pending.push([error, extra]);
    return;
  }
  if (sent >= MAX_PER_PAGE) return;
  if (typeof error === 'object' && error !== null) {
    if (reported.has(error)) return;
    reported.add(error);
  }
  sent++;
  const err = error instanceof Error ? error : new Error(String(error));
  const eventId = uuid32();
  const event = {
    event_id: eventId,
    timestamp: Date.now() / 1000,
    platform: 'javascript',
    level: 'error',
    request: { url: location.href, headers: { 'User-Agent': navigator.userAgent } },
    exception: { values: [{ type: err.name, value: err.message, stacktrace: { frames: [] }, raw_stack: err.stack }] },
    extra,
  };
  const body = [
    JSON.stringify({ event_id: eventId, sent_at: new Date().toISOString(), dsn }),
    JSON.stringify({ type: 'event' }),
    JSON.stringify(event),
  ].join('\n');
  void fetch('/monitoring', {
    method: 'POST',
    body,
    keepalive: true,
    headers: { 'Content-Type': 'application/x-sentry-envelope' },
  }).catch(() => {});
}

export function installGlobalErrorHandlers() {
  window.addEventListener('error', (e) => reportError(e.error ?? e.message));
  window.addEventListener('unhandledrejection', (e) => reportError(e.reason));
}
