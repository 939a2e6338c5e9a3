import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { BIG_PULL_THRESHOLD } from '../../../shared/contracts/notifications.ts';
import type { openInputSchema, OpenResult, PullEvent } from '../../../shared/contracts/shop.ts';
import { afterCommit, type CommitEvent } from '../../db/after-commit.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { isRetryableTxError } from '../../db/errors.ts';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import type { Actor } from '../../http/types.ts';
import { withIdempotency, type IdempotentResult, type TransactionRunner } from '../../lib/idempotency.ts';
import { user } from '../auth/tables.ts';
import { rememberPool } from '../fairness/service.ts';
import { metricsFor } from '../metrics/metrics.ts';
import { notifyBigPullLater } from '../notifications/service.ts';
import { PULL_THRESHOLDS_KEY, setting } from '../settings/store.ts';
import { balanceEvent } from '../wallet/service.ts';
import { isStoredOpen, openInOneStatement, storedOpenResult, type StoredOpen } from './one-statement-open.ts';
import { refsFor } from './read.ts';
import { openPacks, StockRace, type OpenOutcome } from './service.ts';

/** Retries a money transaction that lost a race for stock or hit a deadlock (all of it rolled back). */
export function retryingRunner(deps: Pick<Deps, 'db'>): TransactionRunner {
  return async (fn) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await deps.db.transaction(fn);
      } catch (err) {
        const retryable = err instanceof StockRace || isRetryableTxError(err);
        if (!retryable) throw err;
        if (attempt >= 8) {
          throw new AppError(503, 'busy', 'Many people are opening this pack right now. Nothing was charged; try again in a moment.');
        }
        await new Promise((r) => setTimeout(r, Math.random() * 5 * attempt));
      }
    }
  };
}

/**
 * What an opening tells once it has committed (through `afterCommit`, so a rolled-back or retried
 * attempt tells nothing): the balance when the caller did not move it through the wallet (the
 * one-statement path), the pulls worth showing on the live list, the pool snapshots this process
 * may now trust, the opened-packs counter and the big-pull notifications (their own small
 * transaction, never awaited by the answer: notifyBigPullLater).
 */
async function announceOpening(deps: Deps, tx: DbOrTx, actor: Actor, outcome: OpenOutcome, balanceCents?: number) {
  const events: CommitEvent[] = balanceCents === undefined ? [] : [balanceEvent(actor.userId, balanceCents)];
  const pullMin = setting(PULL_THRESHOLDS_KEY).topPullMinCents;
  const big = outcome.openings.flatMap((o) => o.cards.filter((c) => c.valueCents >= pullMin).map((c) => ({ o, c })));
  // The user's public name, read after the commit only when the session did not carry it.
  const pullEvents = (username: string): CommitEvent[] =>
    big.map(({ o, c }) => {
      const data: PullEvent = {
        ownedCardId: c.ownedCardId,
        openingId: o.id,
        cardId: c.id,
        cardName: c.name,
        classId: c.classId,
        valueCents: c.valueCents,
        productId: o.productId,
        username,
        createdAt: o.createdAt,
      };
      return { topic: 'public', type: 'pull.created', data };
    });
  const local = () => {
    for (const h of outcome.poolHashes) rememberPool(h);
    metricsFor(deps).packsOpened(outcome.openings.length);
    const notable = outcome.openings.flatMap((o) =>
      o.cards.filter((c) => c.valueCents >= BIG_PULL_THRESHOLD.minCents).map((c) => ({ openingId: o.id, cardId: c.id, cardName: c.name, valueCents: c.valueCents })),
    );
    if (notable.length) notifyBigPullLater(deps, actor.userId, notable);
  };
  if (big.length && actor.username === undefined) {
    // The session did not carry the public name: read it after the commit, then send the
    // opening's events together, the balance first.
    await afterCommit(tx, async () => {
      local();
      const [row] = await deps.db.select({ username: user.username }).from(user).where(eq(user.id, actor.userId));
      await afterCommit(deps.db, [...events, ...pullEvents(row?.username ?? '')]);
    });
    return;
  }
  await afterCommit(tx, local);
  events.push(...pullEvents(actor.username ?? ''));
  if (events.length) await afterCommit(tx, events);
}

type OpenAnswer = IdempotentResult<OpenResult | (Omit<OpenResult, 'refs'> & { refs?: undefined })>;

/**
 * POST /api/shop/open: buy and open `quantity` packs of a product, or open packs the user owns.
 * A purchase first tries the one-statement path (shop/one-statement-open.ts), which writes nothing
 * when one of its cached guesses is wrong; then the general path, idempotent on `key`, retried on a
 * lost race for stock. A replay answers the stored result (with its card refs read again).
 */
export async function openForActor(
  deps: Deps,
  run: TransactionRunner,
  actor: Actor,
  input: z.output<typeof openInputSchema>,
  key: string,
): Promise<OpenAnswer> {
  if ('productId' in input) {
    const done = await openInOneStatement(deps, actor, input, key);
    if (done) {
      // Not awaited: the answer does not wait for the realtime echo (ADR 0019); a lost event is
      // recovered by the clients.
      announceOpening(deps, deps.db, actor, done, done.balanceCents).catch((err: unknown) => deps.log.warn('opening events not published', { err }));
      const { poolHashes: _hashes, ...result } = done;
      return { status: 201, body: result, replayed: false };
    }
  }
  let outcome: OpenOutcome | null = null;
  const r = await withIdempotency<Omit<OpenResult, 'refs'> | StoredOpen>(
    deps.db,
    { userId: actor.userId, key, scope: 'POST /api/shop/open', body: input },
    async (tx: Tx) => {
      outcome = await openPacks(tx, actor, input, key);
      await announceOpening(deps, tx, actor, outcome);
      const { poolHashes: _hashes, refs: _refs, ...rest } = outcome;
      return { status: 201 as const, body: rest };
    },
    run,
  );
  if (r.status !== 201) return r as OpenAnswer;
  const fresh = r.replayed ? null : (outcome as OpenOutcome | null);
  const result = isStoredOpen(r.body) ? await storedOpenResult(deps.db, r.body) : r.body;
  const refs = fresh ? fresh.refs : await refsFor(deps.db, result.openings.flatMap((o) => o.cards));
  return { ...r, body: { ...result, refs } };
}
