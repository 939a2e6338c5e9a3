import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { jobRuns } from '../db/schema/index.ts';
import type { Deps } from '../deps.ts';

/**
 * Scheduled jobs (ADR 0009): a timer in every app process, and a claim in the database so each
 * job runs once per interval however many processes share it.
 */
export interface Job {
  name: string;
  /** At most one run per this many ms, across every process. */
  everyMs: number;
  /** Should return soon after `signal` aborts (shutdown). */
  run(deps: Deps, signal: AbortSignal): Promise<void>;
}

export type RunOutcome = 'ran' | 'skipped' | 'failed';

/**
 * Claims the current run of a job. Under `pg_try_advisory_xact_lock` (keyed by the job's name),
 * so a process that finds another one claiming moves on at once instead of waiting; then one
 * conditional upsert moves `started_at` forward only if the last run started at least `everyMs`
 * ago (database time, the same clock for every process). True: this process runs it now.
 */
export async function claimRun(db: Db, job: Pick<Job, 'name' | 'everyMs'>): Promise<boolean> {
  return db.transaction(async (tx) => {
    const res = await tx.execute<{ ok: boolean }>(
      sql`select pg_try_advisory_xact_lock(hashtext('packvault:jobs'), hashtext(${job.name})) as ok`,
    );
    const rows = Array.isArray(res) ? res : (res as unknown as { rows: Array<{ ok: boolean }> }).rows;
    if (!rows[0]?.ok) return false;
    const claimed = await tx
      .insert(jobRuns)
      .values({ name: job.name, startedAt: sql`now()` })
      .onConflictDoUpdate({
        target: jobRuns.name,
        set: { startedAt: sql`now()`, finishedAt: null },
        setWhere: sql`${jobRuns.startedAt} <= now() - make_interval(secs => ${job.everyMs / 1000})`,
      })
      .returning({ name: jobRuns.name });
    return claimed.length === 1;
  });
}

/** Claims and, if this process won, runs the job once. Never throws: failures are logged. */
export async function runJobOnce(deps: Deps, job: Job, signal: AbortSignal = deps.shutdown): Promise<RunOutcome> {
  const log = deps.log.child({ job: job.name });
  let claimed: boolean;
  try {
    claimed = await claimRun(deps.db, job);
  } catch (err) {
    log.error('job claim failed', { err });
    return 'failed';
  }
  if (!claimed) return 'skipped';
  let outcome: RunOutcome = 'ran';
  try {
    await job.run(deps, signal);
  } catch (err) {
    log.error('job failed', { err });
    outcome = 'failed';
  }
  await deps.db
    .update(jobRuns)
    .set({ finishedAt: sql`now()` })
    .where(eq(jobRuns.name, job.name))
    .catch((err: unknown) => log.error('job finish not recorded', { err }));
  return outcome;
}

export interface JobRunner {
  /** Stops the timer and waits for a run in progress (which sees the abort) to end. */
  stop(): Promise<void>;
}

/**
 * Ticks every `tickMs` (a minute at most, so a job's interval is kept whichever process's timer
 * fires first) and runs the due jobs one after another; a tick that finds the previous one
 * still running does nothing. The first tick waits `firstDelayMs`, out of start-up's way.
 */
export function startJobs(
  deps: Deps,
  jobs: Job[],
  opts: { tickMs?: number; firstDelayMs?: number } = {},
): JobRunner {
  const tickMs = opts.tickMs ?? Math.min(60_000, ...jobs.map((j) => j.everyMs));
  const stopping = new AbortController();
  const onShutdown = () => stopping.abort();
  deps.shutdown.addEventListener('abort', onShutdown, { once: true });
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running || stopping.signal.aborted) return;
    running = (async () => {
      for (const job of jobs) {
        if (stopping.signal.aborted) break;
        await runJobOnce(deps, job, stopping.signal);
      }
    })().finally(() => {
      running = null;
    });
  };
  let interval: ReturnType<typeof setInterval> | undefined;
  const first = setTimeout(() => {
    tick();
    interval = setInterval(tick, tickMs);
    interval.unref();
  }, opts.firstDelayMs ?? 10_000);
  first.unref();
  return {
    async stop() {
      clearTimeout(first);
      if (interval) clearInterval(interval);
      stopping.abort();
      deps.shutdown.removeEventListener('abort', onShutdown);
      await running;
    },
  };
}

/** Seconds since each job's last claimed run started, database time (/metrics). */
export async function jobRunAges(db: Db): Promise<Array<{ name: string; ageSeconds: number }>> {
  const rows = await db
    .select({ name: jobRuns.name, age: sql<number>`extract(epoch from now() - ${jobRuns.startedAt})::float8` })
    .from(jobRuns);
  return rows.map((r) => ({ name: r.name, ageSeconds: Number(r.age) }));
}
