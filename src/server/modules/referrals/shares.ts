import { staffAmong } from '../audit/duties.ts';
import { and, asc, eq, gt, gte, lt, sql } from 'drizzle-orm';
import type { Job } from '../../jobs/scheduler.ts';
import { referralRewards, referrals } from '../../db/schema/referrals.ts';
import type { Deps } from '../../deps.ts';
import { purchases } from '../shop/tables.ts';
import { credit } from '../wallet/service.ts';

/**
 * The referrer's share of a qualified friend's pack purchases (issue 17): shareBps of each
 * purchase (floored to whole cents) made from qualification until share_until, capped at
 * share_cap_cents in total. Paid by a scheduled job, not on the opening's hot path: each run
 * pays what is not paid yet, one transaction per referral (the referral row locked, then the
 * referrer's balance). The reward row's unique key (referral, referrer, purchase_share,
 * purchase id) makes every purchase pay once however often the sweep runs.
 */

export const SHARES_EVERY_MS = 30_000;
const PURCHASES_PER_REFERRAL = 200;

/** One sweep over every referral still earning; returns the cents paid. Exposed for tests. */
export async function payPurchaseShares(deps: Deps, now = new Date()): Promise<number> {
  const due = await deps.db
    .select({ id: referrals.id })
    .from(referrals)
    .where(
      and(
        eq(referrals.status, 'qualified'),
        gt(referrals.shareBps, 0),
        lt(referrals.sharePaidCents, referrals.shareCapCents),
        // A purchase made before share_until may still be unpaid after it: look a day back.
        gt(referrals.shareUntil, new Date(now.getTime() - 86_400_000)),
      ),
    )
    .orderBy(asc(referrals.qualifiedAt));
  let total = 0;
  for (const { id } of due) {
    if (deps.shutdown.aborted) break;
    total += await deps.db.transaction(async (tx) => {
      const [ref] = await tx.select().from(referrals).where(eq(referrals.id, id)).for('update');
      if (!ref || ref.status !== 'qualified' || !ref.shareBps || !ref.shareUntil || !ref.qualifiedAt || ref.shareCapCents === null) return 0;
      // A referrer (or friend) who became staff earns no more shares (ADR 0024).
      if ((await staffAmong(tx, [ref.referrerId, ref.refereeId])).size) return 0;
      let left = Number(ref.shareCapCents) - Number(ref.sharePaidCents);
      if (left <= 0) return 0;
      const unpaid = await tx
        .select({ id: purchases.id, totalCents: purchases.totalCents })
        .from(purchases)
        .where(
          and(
            eq(purchases.userId, ref.refereeId),
            gte(purchases.createdAt, ref.qualifiedAt),
            lt(purchases.createdAt, ref.shareUntil),
            sql`not exists (select 1 from ${referralRewards} r where r.referral_id = ${ref.id} and r.kind = 'purchase_share' and r.source_id = ${purchases.id}::text)`,
          ),
        )
        .orderBy(asc(purchases.createdAt), asc(purchases.id))
        .limit(PURCHASES_PER_REFERRAL);
      let paid = 0;
      for (const p of unpaid) {
        const share = Math.min(Math.floor((p.totalCents * ref.shareBps) / 10_000), left);
        let entryId: string | null = null;
        if (share > 0) {
          entryId = (
            await credit(tx, {
              userId: ref.referrerId,
              amountCents: share,
              kind: 'referral_reward',
              counter: 'referral_expense',
              referenceType: 'referral',
              referenceId: ref.id,
              actorId: null,
              idempotencyKey: `referral-share:${ref.id}:${p.id}`,
              memo: 'Referral share of a friend’s pack purchase',
            })
          ).entryId;
        }
        // A zero share (tiny purchase) is recorded too, so it is not looked at again.
        await tx.insert(referralRewards).values({
          referralId: ref.id,
          userId: ref.referrerId,
          kind: 'purchase_share',
          amountCents: share,
          sourceId: p.id,
          journalEntryId: entryId,
        });
        paid += share;
        left -= share;
        if (left <= 0) break;
      }
      if (paid > 0) {
        await tx
          .update(referrals)
          .set({ sharePaidCents: sql`${referrals.sharePaidCents} + ${paid}`, updatedAt: now })
          .where(eq(referrals.id, ref.id));
      }
      return paid;
    });
  }
  return total;
}

export function referralSharesJob(): Job {
  return {
    name: 'referral-shares',
    everyMs: SHARES_EVERY_MS,
    async run(deps) {
      const paid = await payPurchaseShares(deps);
      if (paid > 0) deps.log.info('referral shares paid', { cents: paid });
    },
  };
}
