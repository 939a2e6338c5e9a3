import { pgbench } from './pgbench.ts';
import { round } from './util.ts';

export interface MachineProbe {
  /** `select 1` round trips per second, one pgbench client, 3 s: the cost of waking a backend and back. */
  select1_per_s: number;
  /** PostgreSQL's CPU per `select 1`, µs (null when the server is not local). */
  select1_db_cpu_us: number | null;
  /** A fixed integer loop in this Node process, ms: the CPU's own speed. */
  js_loop_ms: number;
}

/**
 * Two readings of the machine itself, taken before the bench loads it, so runs on different
 * machines of the same kind can be compared. Session 39's machine (2 "AMD EPYC" cores, like the
 * others) ran every figure at half session 38's rates, and nothing had recorded why; there a
 * `select 1` took about 0.25 ms on one connection and the loop about 1.3 s
 * (docs/performance.md, "A quiet machine"; session 39: `git show 7e84b7c:docs/performance.md`).
 */
export async function probeMachine(url: string): Promise<MachineProbe> {
  const r = await pgbench({
    url,
    scripts: [{ script: { shape: 'select 1', text: 'select 1;\n', defines: {}, statements: 1 }, weight: 1 }],
    clients: 1,
    seconds: 3,
    mode: 'prepared',
  });
  const t0 = performance.now();
  let x = 0;
  for (let i = 0; i < 200_000_000; i++) x = (x * 31 + i) | 0;
  const js = performance.now() - t0;
  // Keeps the loop from being removed as dead code.
  if (x === 0.5) console.log(x);
  return { select1_per_s: r.tps, select1_db_cpu_us: r.db_cpu_ms_per_tx === null ? null : round(r.db_cpu_ms_per_tx * 1000, 0), js_loop_ms: round(js, 0)! };
}
