import type { ApiError, ClientErrorCode } from '@shared/api-error';

/** A failed API call, carrying the server's error shape so forms can show field messages. */
export class ApiClientError extends Error {
  constructor(
    readonly status: number,
    readonly code: ClientErrorCode,
    message: string,
    readonly fields?: Record<string, string[]>,
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'ApiClientError';
  }
}

/**
 * Signals from every API answer that the whole app reacts to: `maintenance` (a 503 with that code,
 * detail = the error) lets the maintenance feature send the visitor to /maintenance at once.
 */
export const apiSignals = new EventTarget();

export interface RequestOptions {
  idempotencyKey?: string;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

async function request<T>(method: string, path: string, body?: unknown, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  if (opts.idempotencyKey) headers['Idempotency-Key'] = opts.idempotencyKey;
  let res: Response;
  try {
    // A first page's GETs match the HTML's `<link rel="preload" as="fetch">` (pages/spa.ts): same
    // URL, CORS mode and same-origin credentials, so the browser answers them from that preload.
    res = await fetch(path, { method, headers, body: payload, credentials: 'same-origin', signal: opts.signal });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiClientError(0, 'network_error', 'We could not reach the server. Check your connection and try again.');
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let data: unknown = undefined;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
  }
  if (!res.ok) {
    const e = (data as { error?: ApiError } | undefined)?.error;
    if (res.status === 503 && e?.code === 'maintenance') apiSignals.dispatchEvent(new CustomEvent('maintenance', { detail: e }));
    throw new ApiClientError(
      res.status,
      // The server sends only ERROR_CODES (AppError is typed with them).
      (e?.code as ClientErrorCode | undefined) ?? 'http_error',
      e?.message ?? `The server answered ${res.status}. Try again in a moment.`,
      e?.fields,
      e?.retryAfter,
    );
  }
  return data as T;
}

export const api = {
  get: <T>(path: string, opts?: RequestOptions) => request<T>('GET', path, undefined, opts),
  post: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('POST', path, body, opts),
  put: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PUT', path, body, opts),
  patch: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PATCH', path, body, opts),
  delete: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('DELETE', path, body, opts),
};

/** A fresh key per user intent (one click), reused on retries of that same intent. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
