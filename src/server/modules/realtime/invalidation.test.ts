import { describe, expect, it } from 'vitest';
import { createLogger } from '../../lib/logger.ts';
import { CACHE_INVALIDATED, invalidate, onInvalidate } from './invalidation.ts';
import type { Bus } from './bus.ts';
import { memoryBus } from './test-support.ts';

const log = createLogger('silent');

describe('cross-process cache invalidation', () => {
  it('clears the writer at once and every other process through the bus, each once', async () => {
    const { bus, sent } = memoryBus();
    // Three processes: three databases handles (the caches' keys), each with its own registration.
    const procs = [{ db: {} }, { db: {} }, { db: {} }].map((p) => ({ ...p, bus, log, catalog: 0, products: 0 }));
    for (const p of procs) {
      onInvalidate(p, 'catalog', () => p.catalog++);
      onInvalidate(p, 'products', () => p.products++);
    }
    await invalidate(procs[0]!.db, 'catalog');
    expect(procs.map((p) => p.catalog)).toEqual([1, 1, 1]);
    expect(procs.map((p) => p.products)).toEqual([0, 0, 0]);
    expect(sent).toHaveLength(1);
    // Internal: no browser stream carries it (the fanout sends only 'public' and 'user:…').
    expect(sent[0]).toMatchObject({ topic: 'internal', type: CACHE_INVALIDATED, data: { scope: 'catalog' } });

    await invalidate(procs[2]!.db, 'products');
    expect(procs.map((p) => p.products)).toEqual([1, 1, 1]);
  });

  it('still clears this process when the bus fails, and does nothing for a database no app runs on', async () => {
    const { bus } = memoryBus();
    const failing: Bus = { ...bus, publish: () => Promise.reject(new Error('LISTEN connection gone')), subscribe: bus.subscribe };
    const p = { db: {}, bus: failing, log, n: 0 };
    onInvalidate(p, 'catalog', () => p.n++);
    await expect(invalidate(p.db, 'catalog')).resolves.toBeUndefined();
    expect(p.n).toBe(1);
    await expect(invalidate({}, 'catalog')).resolves.toBeUndefined();
  });
});
