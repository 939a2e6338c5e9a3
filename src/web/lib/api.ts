import type { ApiError, ClientErrorCode } from '@shared/api-error';
import type { paths } from './api-schema.gen';
import { localizeMessage } from './format';
import { qs } from './query-string';

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

/**
 * What sends a request: the browser's fetch, or, when the server draws a page
 * (entry-server.tsx), its own API answering in-process (server/modules/pages/ssr.ts).
 */
let send: (path: string, init: RequestInit) => Promise<Response> = (path, init) => fetch(path, init);

export function setServerFetch(f: (path: string, init: RequestInit) => Promise<Response>): void {
  send = f;
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
    res = await send(path, { method, headers, body: payload, credentials: 'same-origin', signal: opts.signal });
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
      e?.message ? localizeMessage(e.message) : `The server answered ${res.status}. Try again in a moment.`,
      e?.fields,
      e?.retryAfter,
    );
  }
  return data as T;
}

/*
 * The client is typed from the server's own route definitions (ADR 0029): api-schema.gen.ts is what
 * openapi-typescript makes of /api/openapi.json (scripts/gen-api-types.ts, run before typecheck and
 * build). A path is written as the route declares it (`/api/shop/products/{id}`), its parameters,
 * query and body are checked against the route's zod schemas, and the answer's type is the route's
 * success response: a renamed or removed response field fails the web's build.
 */
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Operation = { parameters: { path?: unknown; query?: unknown }; requestBody?: unknown; responses: unknown };
type Op<P extends keyof paths, M extends Method> = Extract<paths[P][M], Operation>;
/** The paths that answer method M. */
export type ApiPath<M extends Method> = { [P in keyof paths]: paths[P][M] extends Operation ? P : never }[keyof paths];

type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : undefined;
type SuccessOf<O> = O extends { responses: infer R }
  ? { [S in keyof R]: S extends 200 | 201 | 202 | 204 ? JsonOf<R[S]> : never }[keyof R]
  : never;
/** The query parameters of method M on path P. */
export type ApiQuery<P extends keyof paths, M extends Method = 'get'> = NonNullable<Op<P, M>['parameters']['query']>;

/** What method M on path P answers on success. */
export type ApiResponse<P extends keyof paths, M extends Method = 'get'> = SuccessOf<Op<P, M>>;

type PathPart<O extends Operation> = O['parameters']['path'] extends Record<string, unknown>
  ? { path: O['parameters']['path'] }
  : { path?: never };
type QueryPart<O extends Operation> = [NonNullable<O['parameters']['query']>] extends [never]
  ? { query?: never }
  : object extends Pick<O['parameters'], 'query'>
    ? { query?: O['parameters']['query'] }
    : { query: NonNullable<O['parameters']['query']> };
type BodyOf<B> = B extends { content: infer C }
  ? (C extends { 'application/json': infer J } ? J : never) | (C extends { 'multipart/form-data': unknown } ? FormData : never)
  : never;
// A route that reads a multipart form itself (an upload) declares no body.
type BodyPart<O extends Operation> = [BodyOf<O['requestBody']>] extends [never]
  ? { body?: FormData }
  : undefined extends O['requestBody']
    ? { body?: BodyOf<O['requestBody']> }
    : { body: BodyOf<O['requestBody']> };
type Init<O extends Operation> = PathPart<O> & QueryPart<O> & BodyPart<O> & RequestOptions;
type Empty = Record<never, never>;
type Args<O extends Operation> = Empty extends Init<O> ? [init?: Init<O>] : [init: Init<O>];

/** `/api/x/{id}` with `{ id }` filled in (encoded), plus the query string. */
function urlOf(template: string, init: { path?: unknown; query?: unknown } = {}): string {
  const params = (init.path ?? {}) as Record<string, string | number>;
  const filled = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined) throw new Error(`missing path parameter "${name}" for ${template}`);
    return encodeURIComponent(String(v));
  });
  return filled + (init.query ? qs(init.query) : '');
}

function typed<M extends Method>(method: M) {
  return <P extends ApiPath<M>>(path: P, ...[init]: Args<Op<P, M>>): Promise<ApiResponse<P, M>> => {
    const i = (init ?? {}) as { path?: unknown; query?: unknown; body?: unknown } & RequestOptions;
    return request<ApiResponse<P, M>>(method.toUpperCase(), urlOf(path, i), i.body, i);
  };
}

export const api = {
  get: typed('get'),
  post: typed('post'),
  put: typed('put'),
  patch: typed('patch'),
  delete: typed('delete'),
};

/** A fresh key per user intent (one click), reused on retries of that same intent. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

/**
 * Untyped requests, only for the catalog editor kit's list and save (features/catalog/api.ts),
 * whose path is built from a generic entity: there the `<T>` is read from the generated schema per
 * entity, never written by hand (ADR 0029). Everything else goes through `api`.
 */
export const untypedApi = {
  get: <T>(path: string, opts?: RequestOptions) => request<T>('GET', path, undefined, opts),
  post: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('POST', path, body, opts),
  put: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PUT', path, body, opts),
  patch: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PATCH', path, body, opts),
  delete: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('DELETE', path, body, opts),
};
