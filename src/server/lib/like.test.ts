import { describe, expect, it } from 'vitest';
import { likePattern } from './like.ts';

describe('likePattern', () => {
  it('matches the text anywhere', () => {
    expect(likePattern('char')).toBe('%char%');
  });

  it('escapes the wildcards and the escape character, so they match themselves', () => {
    expect(likePattern('50%_off')).toBe('%50\\%\\_off%');
    expect(likePattern('a\\b')).toBe('%a\\\\b%');
  });
});
