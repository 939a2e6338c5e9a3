import { sql, type SQL } from 'drizzle-orm';
import { NOTIFICATION_RETENTION_DAYS } from '../../shared/contracts/notifications.ts';
import { retentionOf } from '../config.ts';
import type { Deps } from '../deps.ts';
import type { Job } from './scheduler.ts';

/** A huge backlog is cleared over several runs rather than in one long one. */
export const MAX_BATCHES_PER_RUN = 100;

export interface PruneResult {
  table: string;
  deleted: number;
  batches: number;
  ms: number;
  /** The batch cap was hit: older rows remain for the next run. */
  more: boolean;
}

/**
 * What each table keeps. Every predicate is served by an index (created_at on both,
 * window_start on rate_limits). Cut-offs are in database time, like the timestamps.
 */
function targets(deps: Deps): Array<{ table: string; batch: (limit: number) => SQL }> {
  const r = retentionOf(deps.config);
  return [
    {
      table: 'monitoring_reports',
      batch: (limit) => sql`
        delete from monitoring_reports where id in (
          select id from monitoring_reports
          where created_at < now() - make_interval(days => ${r.monitoringRetentionDays})
          order by created_at limit ${limit} for update skip locked)`,
    },
    {
      // A key's only use is letting a client retry a money request; past this, a retry is a new
      // request, and 48 h is far beyond any client's retries.
      table: 'idempotency_keys',
      batch: (limit) => sql`
        delete from idempotency_keys where id in (
          select id from idempotency_keys
          where created_at < now() - make_interval(hours => ${r.idempotencyRetentionHours})
          order by created_at limit ${limit} for update skip locked)`,
    },
    {
      // A row is only read by the next hit on its key, which restarts a window that ended long
      // ago anyway. Skip-locked leaves a row that a hit is updating right now; the outer
      // predicate re-checks it against the row as it is when deleted.
      table: 'rate_limits',
      batch: (limit) => sql`
        delete from rate_limits
        where key in (
          select key from rate_limits
          where window_start < now() - make_interval(hours => ${r.rateLimitRetentionHours})
          order by window_start limit ${limit} for update skip locked)
          and window_start < now() - make_interval(hours => ${r.rateLimitRetentionHours})`,
    },
    {
      // Issue 39: a mail's body and links (live reset / verify tokens) are needed only until it
      // is sent; the dev mailbox's stored copies and failed ones until their links have expired
      // (a day covers every link). The row stays (recipient, kind, status) for the mail log;
      // "deleted" counts the rows emptied.
      table: 'mail_messages (body and links)',
      batch: (limit) => sql`
        update mail_messages set text = '', html = '', links = '[]'::jsonb where id in (
          select id from mail_messages
          where (status = 'sent' or (status in ('stored', 'failed') and created_at < now() - interval '24 hours'))
            and (links <> '[]'::jsonb or text <> '' or html <> '')
          order by created_at limit ${limit} for update skip locked)`,
    },
    ...(['vault_tree_chunks', 'vault_holdings'] as const).map((table) => ({
      // ADR 0030: an old snapshot's proofs (tree and holdings) go; its signed root, totals and
      // statement stay in vault_snapshots (append-only), so a later snapshot's diff still shows a
      // copy that disappeared. The latest snapshot's proofs stay whatever its age.
      table,
      batch: (limit: number) => sql`
        delete from ${sql.raw(table)} where ctid in (
          select ctid from ${sql.raw(table)}
          where seq in (
            select seq from vault_snapshots
            where taken_at < now() - make_interval(days => ${r.vaultProofRetentionDays})
              and seq < (select max(seq) from vault_snapshots))
          limit ${limit} for update skip locked)`,
    })),
    {
      // The inbox keeps NOTIFICATION_RETENTION_DAYS (issue 17), read or not.
      table: 'notifications',
      batch: (limit) => sql`
        delete from notifications where id in (
          select id from notifications
          where created_at < now() - make_interval(days => ${NOTIFICATION_RETENTION_DAYS})
          order by created_at limit ${limit} for update skip locked)`,
    },
  ];
}

/**
 * Deletes what each table no longer needs, in batches of PRUNE_BATCH_SIZE rows, each its own
 * short statement (no long transaction, no lock held across batches), and logs one line per
 * table with the count and the time taken.
 */
export async function pruneAll(deps: Deps, signal: AbortSignal = deps.shutdown): Promise<PruneResult[]> {
  const { pruneBatchSize } = retentionOf(deps.config);
  const results: PruneResult[] = [];
  for (const target of targets(deps)) {
    if (signal.aborted) break;
    const started = performance.now();
    let deleted = 0;
    let batches = 0;
    let more = false;
    try {
      for (;;) {
        if (signal.aborted) break;
        if (batches === MAX_BATCHES_PER_RUN) {
          more = true;
          break;
        }
        const rows = await deps.dbh.query<{ n: number }>(
          sql`with d as (${target.batch(pruneBatchSize)} returning 1) select count(*)::int as n from d`,
        );
        const n = Number(rows[0]?.n ?? 0);
        batches++;
        deleted += n;
        if (n < pruneBatchSize) break;
      }
    } catch (err) {
      deps.log.error('prune failed', { table: target.table, deleted, err });
      continue;
    }
    const result = { table: target.table, deleted, batches, ms: Math.round(performance.now() - started), more };
    deps.log.info('pruned', { ...result });
    results.push(result);
  }
  return results;
}

export function pruneJob(deps: Deps): Job {
  return {
    name: 'prune',
    everyMs: retentionOf(deps.config).pruneIntervalMinutes * 60_000,
    run: async (d, signal) => {
      await pruneAll(d, signal);
    },
  };
}
