import { spawn, type SpawnOptions } from 'node:child_process';
import { readFileSync } from 'node:fs';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function log(msg: string) {
  process.stdout.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
}

/** Nearest-rank percentile of unsorted numbers (copies and sorts). */
export function percentile(values: number[], p: number): number | null {
  if (!values.length) return null;
  const s = Float64Array.from(values).sort();
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return s[i]!;
}

export const round = (n: number | null | undefined, digits = 1): number | null =>
  n === null || n === undefined || !Number.isFinite(n) ? null : Math.round(n * 10 ** digits) / 10 ** digits;

/** Runs a command to completion, collecting output; rejects on a non-zero exit. */
export function run(cmd: string, args: string[], opts: SpawnOptions & { input?: string } = {}): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'], ...opts });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve({ stdout, stderr });
      else reject(new Error(`${cmd} exited with ${code}\n${stderr.slice(-1500)}`));
    });
    if (opts.input !== undefined) child.stdin!.end(opts.input);
    else child.stdin!.end();
  });
}

/** A plain-text table for the console. */
export function table(rows: Array<Array<string | number | null>>): string {
  const cells = rows.map((r) => r.map((c) => (c === null ? '—' : String(c))));
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

/** 1-minute load average and core count, recorded with every result (the machine is shared). */
export async function machine() {
  const os = await import('node:os');
  return { cpus: os.cpus().length, loadavg: os.loadavg().map((l) => round(l, 2)), node: process.version };
}

/** USER_HZ on Linux: the unit of the CPU times in /proc. */
export const CLK_TCK = 100;

/**
 * The fields of /proc/<pid>/stat after the command name (state is index 0; utime, stime, cutime,
 * cstime are indexes 11–14), or null when there is no such process.
 */
export function procStat(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}
