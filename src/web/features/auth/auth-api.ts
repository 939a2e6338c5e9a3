import { ApiClientError } from '@web/lib/api';

/**
 * Calls a Better Auth endpoint under /api/auth. Its errors are `{ code, message, fields?, retryAfter? }`
 * at the top level (not our `{ error: … }` shape), so they are normalised into ApiClientError here
 * and the pages handle both kinds of failure the same way.
 */
export async function authPost<T = unknown>(path: string, body: unknown = {}): Promise<T> {
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
      typeof e?.message === 'string' && e.message ? e.message : defaultMessage(res.status),
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

/** "Try again in 14 minutes" from a retryAfter in seconds. */
export function retryText(seconds: number | undefined): string {
  if (!seconds || seconds <= 0) return 'Wait a moment and try again.';
  if (seconds < 60) return `Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`;
  const minutes = Math.ceil(seconds / 60);
  return `Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

/** The first message of each field, in the shape react-hook-form's setError wants. */
export function applyFieldErrors<K extends string>(
  err: unknown,
  known: readonly K[],
  setError: (name: K, error: { type: string; message: string }, opts?: { shouldFocus: boolean }) => void,
): boolean {
  if (!(err instanceof ApiClientError) || !err.fields) return false;
  let applied = false;
  for (const name of known) {
    const msg = err.fields[name]?.[0];
    if (msg) {
      setError(name, { type: 'server', message: msg }, { shouldFocus: !applied });
      applied = true;
    }
  }
  return applied;
}
