import { ApiClientError } from './api';
import { localizeMessage } from './format';

/**
 * Calls a Better Auth endpoint under /api/auth. Its errors are `{ code, message, fields?, retryAfter? }`
 * at the top level (not our `{ error: … }` shape), so they are normalised into ApiClientError here
 * and the pages handle both kinds of failure the same way.
 */
export async function authPost<T = unknown>(path: string, body: unknown = {}): Promise<T> {
  inFlight++;
  try {
    return await send<T>(path, body);
  } finally {
    if (--inFlight === 0) for (const settle of waiters.splice(0)) settle();
  }
}

/**
 * Better Auth requests of this page still on their way. A sign-in step (two-factor on or off, a
 * new password) replaces the session: the old one's event stream hears `session.ended` before
 * this page has the new session's cookie, and asking /api/me at that moment answers "signed out"
 * for a browser that is about to be signed in (lib/realtime.ts waits for this first).
 */
let inFlight = 0;
const waiters: Array<() => void> = [];

/** Resolves once no Better Auth request of this page is on its way (at once when none is). */
export function authRequestsSettled(): Promise<void> {
  return inFlight === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve));
}

async function send<T>(path: string, body: unknown): Promise<T> {
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
    throw new ApiClientError(
      res.status,
      typeof e?.code === 'string' ? e.code : res.status === 429 ? 'rate_limited' : 'http_error',
      typeof e?.message === 'string' && e.message ? localizeMessage(e.message) : defaultMessage(res.status),
      e?.fields && typeof e.fields === 'object' ? normaliseFields(e.fields) : undefined,
      retryAfter,
    );
  }
  return data as T;
}

function defaultMessage(status: number) {
  if (status === 429) return 'Too many attempts. Wait a moment and try again.';
  if (status >= 500) return 'Something went wrong on our side. Try again in a moment.';
  return `The server answered ${status}. Try again in a moment.`;
}

function normaliseFields(fields: Record<string, unknown>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(fields)) {
    if (Array.isArray(v)) out[k] = v.map(String);
    else if (typeof v === 'string') out[k] = [v];
  }
  return out;
}
