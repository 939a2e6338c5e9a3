/**
 * One run per key at a time, shared by every caller who asks meanwhile, and forgettable: after
 * `clear()` (a write to what the runs read), callers start fresh runs, and a run that began before
 * is told it is no longer current, so it does not keep what it read (catalog/response-cache.ts,
 * pages/page-cache.ts).
 */
export class SingleFlight<T> {
  readonly #inflight = new Map<string, Promise<T>>();
  #generation = 0;

  /** The run in progress for `key`, if any. */
  pending(key: string): Promise<T> | undefined {
    return this.#inflight.get(key);
  }

  /** Starts `work` for `key` (callers that may join a run ask `pending` first). */
  async run(key: string, work: (current: () => boolean) => Promise<T>): Promise<T> {
    const generation = this.#generation;
    const run = work(() => generation === this.#generation);
    this.#inflight.set(key, run);
    try {
      return await run;
    } finally {
      if (this.#inflight.get(key) === run) this.#inflight.delete(key);
    }
  }

  clear(): void {
    this.#generation++;
    this.#inflight.clear();
  }
}
