import { describe, expect, it } from 'vitest';
import { architectPatchSchema, cardPatchSchema, classPatchSchema, texturePatchSchema } from './catalog.ts';

describe('PATCH schemas leave out what the request leaves out', () => {
  it('a card rename does not reset active, texture or description', () => {
    expect(cardPatchSchema.parse({ name: 'Renamed' })).toEqual({ name: 'Renamed' });
  });
  it('an empty class, texture or architect patch changes nothing', () => {
    expect(classPatchSchema.parse({})).toEqual({});
    expect(texturePatchSchema.parse({})).toEqual({});
    expect(architectPatchSchema.parse({})).toEqual({});
  });
  it('still validates what is sent', () => {
    expect(cardPatchSchema.safeParse({ name: '' }).success).toBe(false);
    expect(cardPatchSchema.parse({ active: false })).toEqual({ active: false });
  });
});
