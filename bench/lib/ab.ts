import { existsSync } from 'node:fs';
import path from 'node:path';
import { startAutoanalyze } from './autoanalyze.ts';
import type { BenchOptions } from './options.ts';
import { appLoop, userRotation, warmEveryUser } from './open.ts';
import { startServer } from './server.ts';
import { log, round } from './util.ts';

export interface AbRound {
  build: 'a' | 'b';
  rps: number;
  ok: number;
  cpu_ms_per_open: number | null;
  db_cpu_ms_per_open: number | null;
}

export interface AbResult {
  /** This tree's dist/ (a) and the other build (b). */
  builds: { a: string; b: string };
  rounds: AbRound[];
  a: { rps: number; cpu_ms_per_open: number | null; db_cpu_ms_per_open: number | null };
  b: { rps: number; cpu_ms_per_open: number | null; db_cpu_ms_per_open: number | null };
  /** Mean opens/s of b ÷ a. */
  ratio: number | null;
  opened: { a: number; b: number };
}

/**
 * Two builds of the server side by side, for a change whose effect is smaller than this machine's
 * drift (±10 % over minutes, up to ±12 % between two 12-second runs of the same build): one
 * server per build, each on its own copy of the same seeded database, every user warmed on both,
 * then closed loops in the order a, b, b, a repeated `pairs` times. Only the rounds' means count.
 */
export async function abBench(o: BenchOptions, opts: { bDist: string; urls: { a: string; b: string }; pairs: number }): Promise<AbResult> {
  const bEntry = path.resolve(opts.bDist, 'server/main.mjs');
  // Inside the repository (e.g. dist-b/, git-ignored), so the build finds node_modules.
  if (!existsSync(bEntry)) throw new Error(`--ab: no build at ${bEntry} (copy a built dist/ to dist-b/ in the repository)`);
  const a = await startServer({ databaseUrl: opts.urls.a, poolSize: o.poolSize });
  const b = await startServer({ databaseUrl: opts.urls.b, poolSize: o.poolSize, entry: bEntry }).catch(async (err: unknown) => {
    await a.stop();
    throw err;
  });
  const servers = { a, b };
  const analyzers = [startAutoanalyze(opts.urls.a), startAutoanalyze(opts.urls.b)];
  try {
    const users = userRotation(o.users);
    await users.prepare();
    const opened = { a: 0, b: 0 };
    for (const build of ['a', 'b'] as const) opened[build] += await warmEveryUser(servers[build], users, o.users);
    const rounds: AbRound[] = [];
    for (let i = 0; i < opts.pairs; i++) {
      for (const build of ['a', 'b', 'b', 'a'] as const) {
        log(`a/b: round ${rounds.length + 1} of ${opts.pairs * 4}, build ${build} (${o.connections} connections, ${o.seconds} s)`);
        const { r, cpu, dbCpu } = await appLoop(servers[build], users, o.seconds, o.connections);
        opened[build] += r.ok;
        rounds.push({ build, rps: r.rps, ok: r.ok, cpu_ms_per_open: r.ok ? round(cpu / r.ok, 2) : null, db_cpu_ms_per_open: r.ok && dbCpu !== null ? round(dbCpu / r.ok, 2) : null });
      }
    }
    const side = (build: 'a' | 'b') => {
      const of = rounds.filter((x) => x.build === build);
      const mean = (pick: (x: AbRound) => number | null) => {
        const v = of.map(pick).filter((x): x is number => x !== null);
        return v.length ? round(v.reduce((s, x) => s + x, 0) / v.length, 2) : null;
      };
      return { rps: mean((x) => x.rps)!, cpu_ms_per_open: mean((x) => x.cpu_ms_per_open), db_cpu_ms_per_open: mean((x) => x.db_cpu_ms_per_open) };
    };
    const meanA = side('a');
    const meanB = side('b');
    return { builds: { a: 'dist/', b: opts.bDist }, rounds, a: meanA, b: meanB, ratio: meanA.rps ? round(meanB.rps / meanA.rps, 3) : null, opened };
  } finally {
    await servers.a.stop();
    await servers.b.stop();
    for (const x of analyzers) await x.stop();
  }
}
