import { describe, expect, it } from 'vitest';
import { ByteLru } from './byte-lru.ts';

const lru = (maxBytes: number, maxEntries?: number) => new ByteLru<string>((v) => v.length, { maxBytes, maxEntries });

describe('ByteLru', () => {
  it('drops the least recently used entries past its byte bound', () => {
    const c = lru(10);
    c.set('a', 'aaaa');
    c.set('b', 'bbbb');
    expect(c.get('a')).toBe('aaaa');
    c.set('c', 'cccc');
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toBe('aaaa');
    expect(c.bytes).toBe(8);
  });

  it('drops past its entry bound, and keeps no entry larger than the whole byte bound', () => {
    const c = lru(100, 2);
    c.set('a', '1');
    c.set('b', '2');
    c.set('c', '3');
    expect([c.get('a'), c.get('b'), c.get('c')]).toEqual([undefined, '2', '3']);
    c.set('big', 'x'.repeat(101));
    expect(c.get('big')).toBeUndefined();
    expect(c.size).toBe(2);
  });

  it('counts bytes through replace, delete and clear', () => {
    const c = lru(100);
    c.set('a', 'aaaa');
    c.set('a', 'aa');
    expect(c.bytes).toBe(2);
    c.delete('a');
    c.delete('missing');
    expect(c.bytes).toBe(0);
    c.set('b', 'bbb');
    c.clear();
    expect([c.size, c.bytes]).toEqual([0, 0]);
  });
});
