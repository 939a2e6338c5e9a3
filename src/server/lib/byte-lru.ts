/**
 * Entries by key, bounded by count and by the bytes they hold, least recently used out first: the
 * store of the caches of serialized answers (catalog/response-cache.ts, pages/page-cache.ts).
 * An entry larger than the whole byte bound is not kept.
 */
export class ByteLru<V> {
  readonly #entries = new Map<string, V>();
  readonly #sizeOf: (v: V) => number;
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  #bytes = 0;

  constructor(sizeOf: (v: V) => number, bounds: { maxBytes: number; maxEntries?: number }) {
    this.#sizeOf = sizeOf;
    this.#maxBytes = bounds.maxBytes;
    this.#maxEntries = bounds.maxEntries ?? Number.POSITIVE_INFINITY;
  }

  get size(): number {
    return this.#entries.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** The entry at `key`, counted as just used. */
  get(key: string): V | undefined {
    const v = this.#entries.get(key);
    if (v !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, v);
    }
    return v;
  }

  delete(key: string): void {
    const old = this.#entries.get(key);
    if (old === undefined) return;
    this.#entries.delete(key);
    this.#bytes -= this.#sizeOf(old);
  }

  set(key: string, v: V): void {
    const size = this.#sizeOf(v);
    if (size > this.#maxBytes) return;
    this.delete(key);
    this.#entries.set(key, v);
    this.#bytes += size;
    for (const [k, e] of this.#entries) {
      if (this.#entries.size <= this.#maxEntries && this.#bytes <= this.#maxBytes) break;
      this.#entries.delete(k);
      this.#bytes -= this.#sizeOf(e);
    }
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }
}
