import { spawnSync } from 'node:child_process';
import { closeSync, constants, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {
  constructor(
    readonly lockFile: string,
    /** The holder's pid as it wrote it in the lock file; undefined when it could not be read yet. */
    readonly pid: number | undefined,
  ) {
    super(
      `The data directory is in use by another Packvault process${pid ? ` (pid ${pid})` : ''}. ` +
        `Stop that process, or set DATA_DIR to another directory. (lock: ${lockFile})`,
    );
    this.name = 'DataDirLockedError';
  }
}

/**
 * Takes an exclusive, non-blocking flock(2) on an open descriptor: true if taken, false if another
 * open file description holds it. Anything else (no such tool, bad fd) throws.
 */
export type FdLocker = (fd: number) => boolean;

/**
 * flock(2) through util-linux's flock(1), run on OUR descriptor: the child gets the lock file as
 * its fd 3, which shares our open file description, and `flock -n 3` locks that description and
 * exits. A flock belongs to the open file description, not to the process that asked for it, so
 * the lock is now held by our descriptor alone, and the kernel drops it when that descriptor is
 * closed: on release, on any exit, and on SIGKILL. Node opens files with O_CLOEXEC, so no other
 * child of ours inherits the descriptor and outlives us with the lock.
 *
 * Why not a package: Node has no flock binding, and the native ones (fs-ext, os-lock) need a
 * node-gyp build. If fs-ext is added, the drop-in is the same syscall on the same descriptor:
 *   (fd) => { try { flockSync(fd, 'exnb'); return true; }
 *             catch (e) { if (e.code === 'EAGAIN' || e.code === 'EWOULDBLOCK') return false; throw e; } }
 */
export const utilLinuxFlock: FdLocker = (fd) => {
  const CONFLICT = 75;
  const r = spawnSync('flock', ['--nonblock', '--exclusive', '--conflict-exit-code', String(CONFLICT), '3'], {
    stdio: ['ignore', 'ignore', 'pipe', fd],
  });
  if (r.error) {
    const missing = (r.error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new Error(
      missing
        ? 'locking the data directory needs flock(1) from util-linux (apt-get install util-linux), or use DATABASE_URL'
        : `flock(1) failed: ${r.error.message}`,
    );
  }
  if (r.status === 0) return true;
  if (r.status === CONFLICT) return false;
  throw new Error(`flock(1) failed (exit ${r.status ?? r.signal}): ${r.stderr.toString().trim()}`);
};

function holderPid(file: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * PGlite is single-process: two processes writing one data directory corrupt it. The lock is an
 * advisory OS lock on an open descriptor of DATA_DIR/pglite.lock (see utilLinuxFlock), so:
 * - it dies with the process, however it ends: no stale lock, and the pid in the file is only
 *   there for the error message, never trusted to decide anything;
 * - taking it is one atomic syscall: of processes starting together exactly one wins.
 * The file is never deleted: unlinking it would let a newcomer lock a fresh inode while a slower
 * process still locks the old one, and both would win.
 */
export function lockDataDir(dir: string, tryLock: FdLocker = utilLinuxFlock): () => void {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'pglite.lock');
  const fd = openSync(file, constants.O_RDWR | constants.O_CREAT, 0o644);
  let locked = false;
  try {
    locked = tryLock(fd);
  } finally {
    if (!locked) closeSync(fd);
  }
  if (!locked) throw new DataDirLockedError(file, holderPid(file));
  ftruncateSync(fd, 0);
  writeSync(fd, `${process.pid}\n`, 0);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    try {
      ftruncateSync(fd, 0);
    } finally {
      closeSync(fd);
    }
  };
}
