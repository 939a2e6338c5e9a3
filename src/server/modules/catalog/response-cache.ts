import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip as gzipCb } from 'node:zlib';
import type { Context } from 'hono';
import { ByteLru } from '../../lib/byte-lru.ts';
import { SingleFlight } from '../../lib/single-flight.ts';

const gzip = promisify(gzipCb);
/** Below this, gzip's header and the CPU are not worth it. */
const GZIP_ABOVE = 1024;

/** A response body kept ready to send: encoded, compressed and hashed once. */
export interface CachedResponse {
  body: Uint8Array<ArrayBuffer>;
  /** The same body gzipped, for clients that accept it (null when the body is small). */
  gzip: Uint8Array<ArrayBuffer> | null;
  /** Weak, so one tag validates both the plain and the gzipped representation. */
  etag: string;
  /** When the data was read (ms since the epoch), for the Age header. */
  storedAt: number;
}

export interface ResponseCacheOptions {
  ttlMs: number;
  maxEntries: number;
  /** Sum of body sizes kept; free-text search can make any number of distinct keys. */
  maxBytes: number;
  now?: () => number;
}

/**
 * Serialized responses per normalized request key, for data that changes only when an admin edits
 * it. Bounded (entries and bytes, least recently used out first), expiring after `ttlMs`, and
 * single-flight: concurrent misses on one key share one load, so a burst after an edit or an
 * expiry runs the queries once instead of once per waiting request.
 *
 * `clear()` is the writers' half of the contract. It also bumps a generation so that a load which
 * started before the write (and may have read the old rows) neither lands in the cache nor is
 * joined by requests arriving after the write.
 */
export class ResponseCache {
  readonly #entries: ByteLru<CachedResponse>;
  readonly #flights = new SingleFlight<CachedResponse>();
  readonly #opts: Required<ResponseCacheOptions>;

  constructor(opts: ResponseCacheOptions) {
    this.#opts = { now: Date.now, ...opts };
    this.#entries = new ByteLru(sizeOf, opts);
  }

  get size(): number {
    return this.#entries.size;
  }

  get bytes(): number {
    return this.#entries.bytes;
  }

  async get(key: string, load: () => Promise<unknown>): Promise<CachedResponse> {
    const now = this.#opts.now();
    const hit = this.#entries.get(key);
    if (hit) {
      if (now - hit.storedAt < this.#opts.ttlMs) return hit;
      this.#entries.delete(key);
    }
    const pending = this.#flights.pending(key);
    if (pending) return pending;

    return this.#flights.run(key, async (current) => {
      const storedAt = this.#opts.now();
      const body = Buffer.from(JSON.stringify(await load()));
      const entry: CachedResponse = {
        body,
        gzip: body.byteLength > GZIP_ABOVE ? await gzip(body) : null,
        etag: weakEtag(body),
        storedAt,
      };
      if (current()) this.#entries.set(key, entry);
      return entry;
    });
  }

  clear(): void {
    this.#flights.clear();
    this.#entries.clear();
  }
}

const sizeOf = (e: CachedResponse) => e.body.byteLength + (e.gzip?.byteLength ?? 0);

/** A weak tag of `body`: one tag for its plain and its gzipped representation. */
export function weakEtag(body: Uint8Array): string {
  return `W/"${createHash('sha1').update(body).digest('base64url')}"`;
}

/**
 * Sends a body kept ready (plain, maybe gzipped, tagged) the way the request asks: 304 when its
 * If-None-Match holds the tag, the gzip when it takes gzip, else the plain bytes. `headers` go on
 * every answer (Cache-Control, Vary…); `type` only on one with a body.
 */
export function sendPrepared(
  c: Context,
  r: { body: Uint8Array<ArrayBuffer>; gzip: Uint8Array<ArrayBuffer> | null; etag: string },
  status: 200 | 404,
  type: string,
  headers: Record<string, string>,
): Response {
  const out: Record<string, string> = { ...headers, ETag: r.etag, Vary: 'Accept-Encoding' };
  if (etagMatches(c.req.header('if-none-match'), r.etag)) return c.body(null, 304, out);
  out['Content-Type'] = type;
  if (r.gzip && acceptsGzip(c.req.header('accept-encoding'))) {
    out['Content-Encoding'] = 'gzip';
    return c.body(r.gzip, status, out);
  }
  return c.body(r.body, status, out);
}

/** RFC 9110 If-None-Match: weak comparison, a list of tags, or `*`. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  const want = bare(etag);
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || bare(t) === want);
}

/** Whether Accept-Encoding allows gzip: listed (or `*`) with a q above 0. */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding) return false;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [coding = '', ...params] = part.split(';').map((x) => x.trim().toLowerCase());
    const weight = params.find((x) => x.startsWith('q='));
    q.set(coding, weight ? Number(weight.slice(2)) || 0 : 1);
  }
  return (q.get('gzip') ?? q.get('x-gzip') ?? q.get('*') ?? 0) > 0;
}
