import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from './lock.ts';

describe('lockDataDir', () => {
  it('refuses a directory another live process holds', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pv-lock-'));
    // pid 1 is always alive: it stands for "another process".
    writeFileSync(path.join(dir, 'pglite.lock'), '1');
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
  });

  it('takes over a lock left by a dead process, and releases it', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pv-lock-'));
    writeFileSync(path.join(dir, 'pglite.lock'), '999999999');
    const release = lockDataDir(dir);
    expect(existsSync(path.join(dir, 'pglite.lock'))).toBe(true);
    release();
    expect(existsSync(path.join(dir, 'pglite.lock'))).toBe(false);
  });
});
