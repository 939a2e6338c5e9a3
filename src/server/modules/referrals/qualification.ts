import { staffAmong } from '../audit/duties.ts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { referralRewards, referrals } from '../../db/schema/referrals.ts';
import type { Deps } from '../../deps.ts';
import { notify } from '../notifications/service.ts';
import { deposits } from '../payments/tables.ts';
import { credit, debit, lockBalance } from '../wallet/service.ts';
import { getReferralSettings } from './settings.ts';
import { STAFF_REASON, person } from './service.ts';


/** A referral qualifies when the friend's deposits reach the threshold; a refund claws the rewards back. */

export type ReferralRow = typeof referrals.$inferSelect;

/** The friend's paid deposits net of refunds, in cents. */
async function netDeposits(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<string>`coalesce(sum(${deposits.amountCents} - ${deposits.refundedCents}), 0)` })
    .from(deposits)
    .where(and(eq(deposits.userId, userId), inArray(deposits.status, ['succeeded', 'refunded'])));
  return Number(row?.n ?? 0);
}

/** True when one of the friend's paid deposits came from a payer the referrer also paid with. */
async function samePayer(db: DbOrTx, referrerId: string, refereeId: string): Promise<boolean> {
  const rows = await db.execute<{ x: number }>(sql`
    select 1 as x from ${deposits} f
    where f.user_id = ${refereeId} and f.status in ('succeeded', 'refunded') and f.payer_fingerprint is not null
      and exists (select 1 from ${deposits} r where r.user_id = ${referrerId} and r.payer_fingerprint = f.payer_fingerprint)
    limit 1`);
  const list = Array.isArray(rows) ? rows : (rows as unknown as { rows: unknown[] }).rows;
  return list.length > 0;
}

async function lockPending(tx: Tx, refereeId: string): Promise<ReferralRow | null> {
  const [row] = await tx
    .select()
    .from(referrals)
    .where(and(eq(referrals.refereeId, refereeId), eq(referrals.status, 'pending')))
    .for('update');
  return row ?? null;
}

/**
 * Called by payments' succeedDeposit, in its transaction, after the deposit's credit (which
 * locked the friend's balance): if the depositor has a pending referral and their net deposits
 * reach the qualifying amount, the referral qualifies and both are credited, once.
 */
export async function onDepositSucceeded(deps: Deps, tx: Tx, dep: { id: string; userId: string }, now = new Date()): Promise<void> {
  const ref = await lockPending(tx, dep.userId);
  if (!ref) return;
  const settings = getReferralSettings();
  if (!settings.enabled) return; // paused: stays pending, may qualify once it is back on
  if ((await netDeposits(tx, dep.userId)) < settings.qualifyingDepositCents) return;
  // Either side became staff after the referral was made: it never pays (ADR 0024).
  const staffNow = await staffAmong(tx, [ref.referrerId, ref.refereeId]);
  if (staffNow.size) {
    await tx.update(referrals).set({ status: 'rejected', reason: STAFF_REASON, updatedAt: now }).where(eq(referrals.id, ref.id));
    return;
  }
  if (await samePayer(tx, ref.referrerId, ref.refereeId)) {
    await tx
      .update(referrals)
      .set({ status: 'rejected', reason: 'Self-referral: the friend paid with the same card or payment customer as the referrer.', updatedAt: now })
      .where(eq(referrals.id, ref.id));
    return;
  }
  const shareUntil = settings.shareBps > 0 && settings.shareDays > 0 ? new Date(now.getTime() + settings.shareDays * 86_400_000) : null;
  const [q] = await tx
    .update(referrals)
    .set({
      status: 'qualified',
      qualifyingDepositId: dep.id,
      qualifiedAt: now,
      referrerRewardCents: settings.referrerRewardCents,
      refereeRewardCents: settings.refereeRewardCents,
      shareBps: settings.shareBps,
      shareCapCents: settings.shareCapCents,
      shareUntil,
      updatedAt: now,
    })
    .where(and(eq(referrals.id, ref.id), eq(referrals.status, 'pending')))
    .returning();
  if (!q) return;
  const [referrer, referee] = await Promise.all([person(tx, ref.referrerId), person(tx, ref.refereeId)]);
  // The friend first (their balance is already locked by the deposit), then the referrer.
  const pay = async (userId: string, role: 'referrer' | 'referee', amountCents: number, friendUsername: string) => {
    if (amountCents <= 0) return;
    const moved = await credit(tx, {
      userId,
      amountCents,
      kind: 'referral_reward',
      counter: 'referral_expense',
      referenceType: 'referral',
      referenceId: ref.id,
      actorId: null,
      idempotencyKey: `referral:${ref.id}:${role}`,
      memo: role === 'referrer' ? `Referral reward: ${friendUsername} qualified` : `Welcome reward: invited by ${friendUsername}`,
    });
    await tx.insert(referralRewards).values({
      referralId: ref.id,
      userId,
      kind: role === 'referrer' ? 'referrer_bonus' : 'referee_bonus',
      amountCents,
      sourceId: dep.id,
      journalEntryId: moved.entryId,
    });
    await notify(deps, tx, userId, 'referral_qualified', { referralId: ref.id, role, friendUsername, amountCents, currency: deps.config.currency }, { dedupeKey: `referral:${ref.id}:${role}` });
  };
  await pay(ref.refereeId, 'referee', settings.refereeRewardCents, referrer?.username ?? 'a friend');
  await pay(ref.referrerId, 'referrer', settings.referrerRewardCents, referee?.username ?? 'a friend');
}

// Clawback ----------------------------------------------------------------------------------------

/**
 * Takes back from each party what the referral paid them (bonuses and purchase shares), never
 * below zero: min(paid, balance), with the shortfall recorded on the clawback row. Once per
 * party (the clawback row's unique key). The friend's balance first, then the referrer's.
 */
export async function clawBack(tx: Tx, ref: ReferralRow, sourceId: string, actorId: string | null, now: Date): Promise<void> {
  const paid = await tx
    .select({ userId: referralRewards.userId, kind: referralRewards.kind, n: sql<string>`sum(${referralRewards.amountCents})` })
    .from(referralRewards)
    .where(eq(referralRewards.referralId, ref.id))
    .groupBy(referralRewards.userId, referralRewards.kind);
  const net = new Map<string, number>();
  for (const r of paid) net.set(r.userId, (net.get(r.userId) ?? 0) + (r.kind === 'clawback' ? -1 : 1) * Number(r.n));
  for (const userId of [ref.refereeId, ref.referrerId]) {
    const owed = net.get(userId) ?? 0;
    if (owed <= 0) continue;
    const available = await lockBalance(tx, userId);
    const take = Math.min(owed, available);
    let entryId: string | null = null;
    if (take > 0) {
      entryId = (
        await debit(tx, {
          userId,
          amountCents: take,
          kind: 'referral_clawback',
          counter: 'referral_expense',
          referenceType: 'referral',
          referenceId: ref.id,
          actorId,
          idempotencyKey: `referral-clawback:${ref.id}`,
          memo: take < owed ? `Referral reward taken back; ${owed - take} cents could not be (already spent)` : 'Referral reward taken back',
        })
      ).entryId;
    }
    await tx.insert(referralRewards).values({
      referralId: ref.id,
      userId,
      kind: 'clawback',
      amountCents: take,
      shortfallCents: owed - take,
      sourceId,
      journalEntryId: entryId,
      createdAt: now,
    });
  }
}

/**
 * Called by payments after a refund (or a dispute, handled as a refund) of `dep` was applied, in
 * the same transaction (the friend's balance is locked): a qualified referral whose qualifying
 * deposit this was, or whose friend's net deposits fell below the threshold, is reversed and its
 * rewards taken back. Returns true when it reversed one.
 */
export async function onDepositRefunded(tx: Tx, dep: { id: string; userId: string }, now = new Date()): Promise<boolean> {
  const [ref] = await tx
    .select()
    .from(referrals)
    .where(and(eq(referrals.refereeId, dep.userId), eq(referrals.status, 'qualified')))
    .for('update');
  if (!ref) return false;
  const settings = getReferralSettings();
  const wasQualifying = ref.qualifyingDepositId === dep.id;
  if (!wasQualifying && (await netDeposits(tx, dep.userId)) >= settings.qualifyingDepositCents) return false;
  await tx
    .update(referrals)
    .set({ status: 'reversed', reversedAt: now, reason: wasQualifying ? 'The qualifying deposit was refunded or disputed.' : 'The friend’s deposits fell below the qualifying amount.', updatedAt: now })
    .where(eq(referrals.id, ref.id));
  await clawBack(tx, ref, `deposit:${dep.id}`, null, now);
  return true;
}
