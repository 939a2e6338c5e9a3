import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness.ts';
import { chunkPayloads, type BusEvent } from './bus.ts';

describe('chunkPayloads', () => {
  it('keeps the order and every event, each chunk a JSON array under the limit', () => {
    const payloads = Array.from({ length: 50 }, (_, i) => JSON.stringify({ id: `e${i}`, topic: 'public', type: 't', data: { pad: 'x'.repeat(100) } }));
    const chunks = chunkPayloads(payloads, 1000);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(Buffer.byteLength(c)).toBeLessThanOrEqual(1000);
    expect(chunks.flatMap((c) => (JSON.parse(c) as BusEvent[]).map((e) => e.id))).toEqual(payloads.map((_, i) => `e${i}`));
  });
});

describe('event ids', () => {
  it('are distinct within a process, also within one millisecond', async () => {
    const t = await createTestContext();
    try {
      const ids = Array.from({ length: 20_000 }, () => t.deps.bus.newEventId());
      expect(new Set(ids).size).toBe(ids.length);
      // time-counter-process tag: the tag is the same for the process, so the counter tells them apart.
      expect(new Set(ids.map((id) => id.split('-')[2])).size).toBe(1);
      expect(ids[0]).toMatch(/^[0-9a-z]+-[0-9a-z]+-[0-9a-f]{12}$/);
    } finally {
      await t.close();
    }
  });
});

describe('bus.publishMany (after the commit, batched)', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it('delivers each event unchanged and in order, interleaved with publish', async () => {
    const seen: BusEvent[] = [];
    const off = t.deps.bus.subscribe((e) => {
      if (e.type.startsWith('bus-test.')) seen.push(e);
    });
    try {
      const many: BusEvent[] = Array.from({ length: 120 }, (_, i) => ({ id: t.deps.bus.newEventId(), topic: 'public', type: 'bus-test.many', data: { i } }));
      const first = t.deps.bus.publish('public', 'bus-test.one', { i: -1 });
      const batch = t.deps.bus.publishMany(many);
      const last = t.deps.bus.publish('public', 'bus-test.one', { i: 999 });
      const [a, , z] = await Promise.all([first, batch, last]);
      await vi.waitFor(() => expect(seen).toHaveLength(122));
      expect(seen.map((e) => e.id)).toEqual([a.id, ...many.map((e) => e.id), z.id]);
      expect(seen.slice(1, -1)).toEqual(many);
      expect(t.deps.bus.since(a.id)?.filter((e) => e.type.startsWith('bus-test.')).map((e) => e.id)).toEqual([...many.map((e) => e.id), z.id]);
    } finally {
      off();
    }
  });
});
