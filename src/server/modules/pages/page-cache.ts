import { promisify } from 'node:util';
import { gzip as gzipCb } from 'node:zlib';
import { ByteLru } from '../../lib/byte-lru.ts';
import { SingleFlight } from '../../lib/single-flight.ts';
import { weakEtag } from '../catalog/response-cache.ts';

const gzip = promisify(gzipCb);

/** A visitor's page as the page server made it. */
export interface PageAnswer {
  status: number;
  html: string;
  /**
   * False for an answer that must not be served to anyone else: drawn from a read that failed for
   * a passing reason (a 5xx or 429), an error page, or the SPA's shell (the shop in maintenance).
   */
  cacheable: boolean;
}

/** A page kept ready to send: encoded, compressed and tagged once. */
export interface CachedPage {
  status: number;
  body: Uint8Array<ArrayBuffer>;
  gzip: Uint8Array<ArrayBuffer>;
  /** Weak: one tag for the plain and the gzipped bytes. */
  etag: string;
  /** When the page was last made or confirmed from its reads (ms since the epoch). */
  checkedAt: number;
  /** The process state it was made under (settings, maintenance), compared by identity. */
  stamp: readonly unknown[];
}

export interface PageCacheOptions {
  /** How long a page is sent as it is before its reads are made again (0: never kept). */
  freshMs: number;
  /** Sum of the pages' bytes (plain + gzipped) kept; least recently used out first. */
  maxBytes: number;
  /** What else a page depends on in this process, compared item by item by identity. */
  stamp: () => readonly unknown[];
  now?: () => number;
}

/**
 * A visitor's server-drawn pages, whole: the HTML as sent, gzipped and tagged once (ADR 0037).
 * A page the renderer just made is sent to everyone asking for the same address for `freshMs`;
 * after that, the next request has it made again from its reads (which reuse the drawing when the
 * data is unchanged, ssr.ts) while the kept one is still sent, so a page is at most `freshMs`
 * plus one making older than its reads. Unchanged HTML keeps its compressed bytes. `clear()` is
 * for the writers of what the pages show (the catalog, the products: through the invalidation
 * bus, every process), and the stamp drops a page made under other settings or another
 * maintenance state.
 */
export class PageCache {
  readonly #entries: ByteLru<CachedPage>;
  readonly #flights = new SingleFlight<CachedPage | PageAnswer>();
  readonly #opts: Required<PageCacheOptions>;

  constructor(opts: PageCacheOptions) {
    this.#opts = { now: Date.now, ...opts };
    this.#entries = new ByteLru(sizeOf, opts);
  }

  get size(): number {
    return this.#entries.size;
  }

  /**
   * The page at `key`: kept, or made by `make` (once for all who ask meanwhile). A kept page past
   * `freshMs` is still sent while one request's `make` runs in the background: under load the
   * remaking reads queue behind the requests, and no request waits for them. One that no longer
   * matches the stamp (or was cleared) is never sent again: those requests wait for the new page.
   */
  async get(key: string, make: () => Promise<PageAnswer>): Promise<CachedPage | PageAnswer> {
    const hit = this.#entries.get(key);
    if (hit && sameStamp(hit.stamp, this.#opts.stamp())) {
      if (this.#opts.now() - hit.checkedAt >= this.#opts.freshMs && !this.#flights.pending(key)) {
        // Failures are the make's to report (the page server logs and answers them); here the
        // kept page simply stays until a later request makes it again.
        this.#start(key, make, hit).catch(() => {});
      }
      return hit;
    }
    if (hit) this.#entries.delete(key);
    return this.#flights.pending(key) ?? this.#start(key, make, undefined);
  }

  #start(key: string, make: () => Promise<PageAnswer>, previous: CachedPage | undefined): Promise<CachedPage | PageAnswer> {
    return this.#flights.run(key, async (current): Promise<CachedPage | PageAnswer> => {
      // Taken before the reads: a change during them leaves a page that the next request remakes.
      const stamp = this.#opts.stamp();
      const checkedAt = this.#opts.now();
      const answer = await make();
      if (!answer.cacheable || this.#opts.freshMs <= 0) {
        // Not for others: a kept page it was to replace is not sent again either.
        if (previous && current() && this.#entries.get(key) === previous) this.#entries.delete(key);
        return answer;
      }
      const body = Buffer.from(answer.html);
      const etag = weakEtag(body);
      const entry: CachedPage = {
        status: answer.status,
        body,
        // The same page again (the usual case when it is remade): its compressed bytes too.
        gzip: previous && previous.etag === etag ? previous.gzip : await gzip(body),
        etag,
        checkedAt,
        stamp,
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

export const isCachedPage = (p: CachedPage | PageAnswer): p is CachedPage => 'etag' in p;

const sizeOf = (e: CachedPage) => e.body.byteLength + e.gzip.byteLength;

function sameStamp(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
