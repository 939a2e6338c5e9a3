import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from './lock.ts';

const fixture = path.join(import.meta.dirname, 'lock-holder.fixture.ts');
const children: ChildProcess[] = [];

/** A real OS process running lock-holder.fixture.ts on `dir`. */
function holder(dir: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, dir], { stdio: ['pipe', 'pipe', 'inherit'] });
  children.push(child);
  let out = '';
  child.stdout!.setEncoding('utf8');
  const line = (re: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const m = out.split('\n').find((l) => re.test(l));
        if (m !== undefined) {
          child.stdout!.off('data', onData);
          resolve(m);
        }
      };
      const onData = (d: string) => {
        out += d;
        check();
      };
      child.stdout!.on('data', onData);
      child.once('exit', (code) => reject(new Error(`lock holder exited (${code}) before ${re}: ${out}`)));
      check();
    });
  const ready = line(/^ready$/);
  const result = line(/^(won|lost) /);
  ready.catch(() => {});
  result.catch(() => {});
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, ready, result, exited, go: () => child.stdin!.write('go\n') };
}

afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

const tempDir = () => mkdtempSync(path.join(os.tmpdir(), 'pv-lock-'));

describe('lockDataDir', () => {
  it('refuses a second lock while held, naming the holder, and frees it on release', () => {
    const dir = tempDir();
    const release = lockDataDir(dir);
    expect(readFileSync(path.join(dir, 'pglite.lock'), 'utf8').trim()).toBe(String(process.pid));
    let err: unknown;
    try {
      lockDataDir(dir);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DataDirLockedError);
    expect((err as DataDirLockedError).pid).toBe(process.pid);
    expect((err as Error).message).toMatch(/in use by another Packvault process \(pid \d+\)/);
    release();
    lockDataDir(dir)();
  });

  it('is not blocked by a stale lock file naming a live, unrelated process', () => {
    const dir = tempDir();
    // pid 1 and our parent are alive, and neither holds the lock.
    writeFileSync(path.join(dir, 'pglite.lock'), String(process.ppid));
    const release = lockDataDir(dir);
    release();
    writeFileSync(path.join(dir, 'pglite.lock'), '1');
    lockDataDir(dir)();
  });

  it('lets exactly one of several processes started together win', async () => {
    const dir = tempDir();
    // A lock file left by a dead process: the case where a pid-file lock let two take it over.
    writeFileSync(path.join(dir, 'pglite.lock'), '999999999');
    const racers = Array.from({ length: 4 }, () => holder(dir));
    await Promise.all(racers.map((r) => r.ready));
    for (const r of racers) r.go();
    const results = await Promise.all(racers.map((r) => r.result));
    const winners = results.filter((l) => l.startsWith('won '));
    expect(winners).toHaveLength(1);
    for (const l of results.filter((x) => x.startsWith('lost '))) {
      expect(l).toMatch(/in use by another Packvault process/);
    }
    // The winner still holds it against this process too.
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
  }, 60_000);

  it('is released when the holder is killed with SIGKILL', async () => {
    const dir = tempDir();
    const h = holder(dir);
    await h.ready;
    h.go();
    expect(await h.result).toMatch(/^won /);
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    h.child.kill('SIGKILL');
    await h.exited;
    // The kernel closed its descriptor at death: the lock is free at once, though the file
    // still names the dead pid.
    lockDataDir(dir)();
  }, 60_000);
});
