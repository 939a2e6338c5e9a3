import { describe, expect, it } from 'vitest';
import { frozenJson } from './frozen-json.ts';

describe('frozenJson', () => {
  it('is JSON.stringify, computed once per object', () => {
    const slots = [{ odds: [{ classId: 'a', weight: 1 }] }];
    expect(frozenJson(slots)).toBe(JSON.stringify(slots));
    const stringify = JSON.stringify;
    let calls = 0;
    JSON.stringify = ((...args: Parameters<typeof stringify>) => {
      calls++;
      return stringify(...args);
    }) as typeof stringify;
    try {
      expect(frozenJson(slots)).toBe('[{"odds":[{"classId":"a","weight":1}]}]');
      expect(calls).toBe(0);
      // An equal but distinct object (a new revision read from the database) gets its own text.
      const next = [{ odds: [{ classId: 'b', weight: 2 }] }];
      expect(frozenJson(next)).toBe('[{"odds":[{"classId":"b","weight":2}]}]');
      expect(calls).toBe(1);
    } finally {
      JSON.stringify = stringify;
    }
  });
});
