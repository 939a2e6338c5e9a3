import { describe, expect, it, vi } from 'vitest';
import { createTestContext } from '../test/harness.ts';
import { warnIfAutovacuumOff } from './autovacuum.ts';

const logger = () => ({ warn: vi.fn() });

describe('warnIfAutovacuumOff', () => {
  it('warns once when PostgreSQL runs with autovacuum off, and says what to do', async () => {
    const log = logger();
    const run = vi.fn().mockResolvedValue([{ on: false }]);
    expect(await warnIfAutovacuumOff({ kind: 'postgres', run }, log)).toBe(true);
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(log.warn.mock.calls[0]![0]).toMatch(/autovacuum off.*Turn autovacuum on/);
  });

  it('stays quiet when autovacuum is on, and never asks PGlite', async () => {
    const log = logger();
    const on = vi.fn().mockResolvedValue([{ on: true }]);
    expect(await warnIfAutovacuumOff({ kind: 'postgres', run: on }, log)).toBe(false);
    const pglite = vi.fn();
    expect(await warnIfAutovacuumOff({ kind: 'pglite', run: pglite }, log)).toBe(false);
    expect(pglite).not.toHaveBeenCalled();
    expect(log.warn).not.toHaveBeenCalled();
  });

  it('reads the real setting of the database under test', async () => {
    const t = await createTestContext();
    try {
      const log = logger();
      const warned = await warnIfAutovacuumOff(t.deps.dbh, log);
      if (t.deps.dbh.kind === 'postgres') {
        const [row] = await t.deps.dbh.run<{ setting: string }>(`select current_setting('autovacuum') as setting`, []);
        expect(warned).toBe(row!.setting === 'off');
      } else expect(warned).toBe(false);
      expect(log.warn).toHaveBeenCalledTimes(warned ? 1 : 0);
    } finally {
      await t.close();
    }
  });
});
