import { describe, expect, it } from 'vitest';
import { pullIdSchema } from './contracts/pulls.ts';
import { isPullId } from './pull-path.ts';

describe('isPullId', () => {
  it('agrees with the contract schema', () => {
    for (const id of [
      crypto.randomUUID(),
      crypto.randomUUID().toUpperCase(),
      '00000000-0000-0000-0000-000000000000',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
      '6f1c2d3e-4b5a-0c7d-8e9f-0a1b2c3d4e5f',
      '6f1c2d3e-4b5a-4c7d-ce9f-0a1b2c3d4e5f',
      'not-a-uuid',
      '',
      `${crypto.randomUUID()}x`,
    ]) {
      expect(isPullId(id), id).toBe(pullIdSchema.safeParse(id).success);
    }
  });
});
