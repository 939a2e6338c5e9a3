import type { Context, MiddlewareHandler } from 'hono';
import { AppError, respondError } from './errors.ts';
import type { AppEnv } from './types.ts';

/**
 * One guard for bytes no handler should see (issue 39): a NUL, malformed percent-encoding (`%ZZ`,
 * a lone `%`), or percent-encoded bytes that are not UTF-8 (`%FF`, `%C3%28`) in the path or the
 * query, and a NUL, a lone UTF-16 surrogate or bytes that are not UTF-8 in a JSON body. PostgreSQL
 * refuses a NUL in text (a 500 whose log held the query and its parameters), and
 * decodeURIComponent throws on the rest (a URIError, another 500) — in our code, Hono's, or
 * Better Auth's. So they are refused here, before any handler: the API and the monitoring tunnel
 * answer 400 `invalid_encoding`, a page 404 (no page has such an address).
 */

const BAD_PERCENT = /%(?![0-9A-Fa-f]{2})/;
// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** True when a raw (still percent-encoded) path or query decodes cleanly to text without NUL. */
export function isCleanUrlPart(raw: string): boolean {
  if (raw === '') return true;
  if (raw.includes('\0') || BAD_PERCENT.test(raw)) return false;
  if (!raw.includes('%')) return true;
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return false;
  }
  return !decoded.includes('\0');
}

/** True when no string (value or key) anywhere in a parsed JSON value holds a NUL or a lone surrogate. */
export function isCleanJsonValue(value: unknown): boolean {
  if (typeof value === 'string') return !value.includes('\0') && !LONE_SURROGATE.test(value);
  if (Array.isArray(value)) return value.every(isCleanJsonValue);
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) if (!isCleanJsonValue(k) || !isCleanJsonValue(v)) return false;
  }
  return true;
}

/**
 * Where a parsed JSON value holds odd text, as field names the way validation names them (`city`,
 * `items.0.name`; a bad key is named by its parent), so the 400 says which field to fix.
 */
export function oddJsonFields(value: unknown, at = ''): string[] {
  const here = at === '' ? 'body' : at;
  if (typeof value === 'string') return isCleanJsonValue(value) ? [] : [here];
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : value !== null && typeof value === 'object' ? Object.entries(value) : [];
  const out: string[] = [];
  for (const [k, v] of entries) {
    if (!isCleanJsonValue(k)) out.push(here);
    else out.push(...oddJsonFields(v, at === '' ? k : `${at}.${k}`));
  }
  return [...new Set(out)];
}

/** The path and query of a request URL as sent (before any decoding), without the fragment. */
function rawPathAndQuery(url: string): { path: string; query: string } {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  const rest = start === -1 ? '/' : url.slice(start);
  const hash = rest.indexOf('#');
  const noHash = hash === -1 ? rest : rest.slice(0, hash);
  const q = noHash.indexOf('?');
  return q === -1 ? { path: noHash, query: '' } : { path: noHash.slice(0, q), query: noHash.slice(q + 1) };
}

function isApiPath(path: string): boolean {
  return path.startsWith('/api/') || path === '/api' || path === '/monitoring' || path === '/metrics';
}

const invalidEncoding = (where: string, fields?: string[]) =>
  new AppError(
    400,
    'invalid_encoding',
    `The request ${where} holds a NUL character or bytes that are not valid UTF-8 / percent-encoding. Remove them and try again.`,
    fields && fields.length > 0 ? Object.fromEntries(fields.map((f) => [f, ['Remove the NUL or broken character from this field.']])) : undefined,
  );

function pageNotFound(c: Context<AppEnv>) {
  c.header('Cache-Control', 'no-cache');
  return c.html(
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
      '<title>Page not found</title></head><body><main><h1>Page not found</h1>' +
      '<p>This address holds characters no page of the shop uses. Check the link, or <a href="/">go to the home page</a>.</p>' +
      '</main></body></html>',
    404,
  );
}

/** Refuses odd bytes in the path and query: 400 for the API, 404 for pages. Runs first. */
export function urlEncodingGuard(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { path, query } = rawPathAndQuery(c.req.url);
    const pathOk = isCleanUrlPart(path);
    const queryOk = isCleanUrlPart(query.replace(/\+/g, ' '));
    if (pathOk && queryOk) return next();
    if (!isApiPath(pathOk ? c.req.path : path)) return pageNotFound(c);
    return respondError(c, invalidEncoding(pathOk ? 'query' : 'path'));
  };
}

/**
 * Refuses a JSON body with odd bytes (400). Runs after the body limit, before the origin check,
 * the actor and every handler. The body is read once: for our own routes through Hono's body
 * cache, where the route's validator finds the text again; Better Auth's routes and the Stripe
 * webhook read the raw request themselves, so there a copy is checked and the original left unread.
 */
export function jsonEncodingGuard(rawReaders: (path: string) => boolean): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!UNSAFE_METHODS.has(c.req.method)) return next();
    const type = c.req.header('content-type');
    if (!type || !JSON_TYPE.test(type)) return next();
    let bytes: ArrayBuffer;
    try {
      bytes = rawReaders(c.req.path) ? await c.req.raw.clone().arrayBuffer() : await c.req.arrayBuffer();
    } catch {
      // A body that cannot be read (the client went away) fails where the handler reads it.
      return next();
    }
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      return respondError(c, invalidEncoding('body'));
    }
    if (!rawReaders(c.req.path)) {
      // The route's c.req.json() / text() takes this text instead of decoding the bytes again.
      (c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve(text);
    }
    if (text.includes('\0') || text.includes('\\u0000') || text.includes('\\uD') || text.includes('\\ud')) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        // Not JSON (or a raw NUL, which JSON does not allow): the handler answers its own 400.
        return text.includes('\0') ? respondError(c, invalidEncoding('body')) : next();
      }
      if (!isCleanJsonValue(parsed)) return respondError(c, invalidEncoding('body', oddJsonFields(parsed)));
    }
    return next();
  };
}
