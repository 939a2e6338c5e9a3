import { describe, expect, it } from 'vitest';
import { qs } from './query-string';

describe('qs', () => {
  it('is empty when nothing is set', () => {
    expect(qs({})).toBe('');
    expect(qs({ a: undefined, b: null, c: '' })).toBe('');
  });

  it('keeps 0 and false, which are values, and encodes', () => {
    expect(qs({ page: 0, graded: false, q: 'a b&c' })).toBe('?page=0&graded=false&q=a+b%26c');
  });

  it('joins arrays with commas', () => {
    expect(qs({ ids: ['x', 'y'], page: 2 })).toBe('?ids=x%2Cy&page=2');
  });
});
