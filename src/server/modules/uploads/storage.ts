import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Where uploaded files live. Keys are content-addressed file names (`<sha256>-<variant>.webp`),
 * so a key never changes meaning and `put` of an existing key is a no-op in effect.
 * The filesystem implementation is the default; an S3-compatible one can implement the same three calls.
 */
export interface Storage {
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<{ data: Buffer; contentType: string } | null>;
  exists(key: string): Promise<boolean>;
  /** Used only to undo a half-finished upload. */
  delete(key: string): Promise<void>;
}

const SAFE_KEY = /^[a-z0-9][a-z0-9._-]{0,199}$/;

function assertKey(key: string) {
  if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`Unsafe storage key: ${key}`);
}

const TYPES: Record<string, string> = { '.webp': 'image/webp', '.png': 'image/png', '.jpg': 'image/jpeg' };

export function createFsStorage(dir: string): Storage {
  const fileOf = (key: string) => {
    assertKey(key);
    return path.join(dir, key);
  };
  return {
    async put(key, data) {
      const file = fileOf(key);
      await mkdir(dir, { recursive: true });
      // Write then rename, so a reader never sees a half-written file.
      const tmp = path.join(dir, `.tmp-${randomBytes(6).toString('hex')}`);
      await writeFile(tmp, data);
      await rename(tmp, file);
    },
    async get(key) {
      try {
        const data = await readFile(fileOf(key));
        return { data, contentType: TYPES[path.extname(key)] ?? 'application/octet-stream' };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async exists(key) {
      try {
        return (await stat(fileOf(key))).isFile();
      } catch {
        return false;
      }
    },
    async delete(key) {
      await unlink(fileOf(key)).catch(() => {});
    },
  };
}

const cache = new Map<string, Storage>();
/** One storage per data directory (tests use their own). */
export function storageFor(dataDir: string): Storage {
  const dir = path.join(dataDir, 'uploads');
  let s = cache.get(dir);
  if (!s) {
    s = createFsStorage(dir);
    cache.set(dir, s);
  }
  return s;
}
