/**
 * A child process for lock.test.ts: says "ready", waits for "go" on stdin, tries to lock the
 * directory given as argv[2], prints "won <pid>" or "lost <message>", then holds on until its
 * stdin closes (or it is killed).
 */
import { DataDirLockedError, lockDataDir } from './lock.ts';

const dir = process.argv[2]!;
process.stdout.write('ready\n');
process.stdin.setEncoding('utf8');
let buf = '';
process.stdin.on('data', (chunk: string) => {
  buf += chunk;
  if (!buf.includes('go\n') || buf.includes('done')) return;
  buf += 'done';
  try {
    lockDataDir(dir);
    process.stdout.write(`won ${process.pid}\n`);
  } catch (err) {
    if (!(err instanceof DataDirLockedError)) throw err;
    process.stdout.write(`lost ${err.message}\n`);
  }
});
process.stdin.on('end', () => process.exit(0));
