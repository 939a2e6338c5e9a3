/**
 * Sizes of one bench run. `--quick` (or BENCH_QUICK=1) is for developing the bench itself on a
 * busy machine: seconds, not minutes, and small data. The figures that count come from a full run.
 */
export interface BenchOptions {
  quick: boolean;
  only: Set<string> | null;
  users: number;
  smallCards: number;
  largeCards: number;
  ownedCards: number;
  /** Seconds per closed-loop / fixed-rate measurement. */
  seconds: number;
  rates: number[];
  /** HTTP connections of the closed-loop runs; pgbench uses the server's pool size as clients. */
  connections: number;
  poolSize: number;
  sseClients: number;
  sseEvents: number;
  keep: boolean;
  /** --processes=1,2,3: the closed loop against N app processes on one database (lib/processes.ts). */
  processes: number[] | null;
  /** --pooler=postgres://…@127.0.0.1:6433: the app reaches PostgreSQL through this PgBouncer. */
  poolerUrl: string | null;
  /** --no-prepare: the app runs with DATABASE_PREPARE=false (PgBouncer older than 1.21). */
  prepare: boolean;
  /** --ab=<dir>: only the closed loop, this build against the build in <dir> (a copy of dist/), side by side (lib/ab.ts). */
  ab: string | null;
}

export function parseOptions(argv: string[]): BenchOptions {
  const flag = (name: string) => argv.includes(`--${name}`);
  const value = (name: string) => {
    const a = argv.find((x) => x.startsWith(`--${name}=`));
    return a ? a.slice(name.length + 3) : undefined;
  };
  const quick = flag('quick') || process.env.BENCH_QUICK === '1';
  const num = (name: string, full: number, small: number) => Number(value(name) ?? (quick ? small : full));
  return {
    quick,
    only: value('only') ? new Set(value('only')!.split(',')) : null,
    users: num('users', 2000, 200),
    smallCards: num('cards', 1000, 1000),
    largeCards: num('large-cards', 100_000, 10_000),
    ownedCards: num('owned', 1_000_000, 50_000),
    seconds: num('seconds', 15, 3),
    rates: (value('rates') ?? (quick ? '100,250' : '250,500,1000')).split(',').filter(Boolean).map(Number),
    connections: num('connections', 32, 16),
    poolSize: num('pool', 10, 10),
    sseClients: num('sse-clients', 2000, 200),
    sseEvents: num('sse-events', 10, 3),
    keep: flag('keep'),
    processes: value('processes') ? value('processes')!.split(',').map(Number) : null,
    poolerUrl: value('pooler') ?? null,
    prepare: !flag('no-prepare'),
    ab: value('ab') ?? null,
  };
}
