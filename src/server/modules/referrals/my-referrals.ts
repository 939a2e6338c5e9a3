import { asc, desc, eq } from 'drizzle-orm';
import { type MyReferrals } from '../../../shared/contracts/referrals.ts';
import type { DbOrTx } from '../../db/client.ts';
import { referralRewards, referrals } from '../../db/schema/referrals.ts';
import { user } from '../auth/tables.ts';
import { ensureCode } from './codes.ts';
import { getReferralSettings, offerOf } from './settings.ts';
import { rewardsOf, liveFriendOf } from './rewards.ts';
import { hasPaidDeposit } from './service.ts';
import type { ReferralRow } from './qualification.ts';


/** GET /api/referrals/me (creates the code on first need, so run it in a transaction). */
export async function getMyReferrals(tx: DbOrTx, userId: string, currency: string): Promise<MyReferrals> {
  const mine = await ensureCode(tx, userId);
  const [settings, [by], invitees, rewards, paid] = await Promise.all([
    getReferralSettings(),
    tx
      .select({ username: user.username, deletedAt: user.deletedAt, status: referrals.status })
      .from(referrals)
      .innerJoin(user, eq(user.id, referrals.referrerId))
      .where(eq(referrals.refereeId, userId)),
    tx
      .select({
        id: referrals.id,
        username: user.username,
        deletedAt: user.deletedAt,
        status: referrals.status,
        joinedAt: referrals.createdAt,
        qualifiedAt: referrals.qualifiedAt,
      })
      .from(referrals)
      .innerJoin(user, eq(user.id, referrals.refereeId))
      .where(eq(referrals.referrerId, userId))
      .orderBy(desc(referrals.createdAt), asc(referrals.id))
      .limit(500),
    rewardsOf(tx, eq(referralRewards.userId, userId), liveFriendOf),
    hasPaidDeposit(tx, userId),
  ]);
  const earned = rewards.reduce((s, r) => s + (r.reward.kind === 'clawback' ? -r.reward.amountCents : r.reward.amountCents), 0);
  return {
    code: mine.code,
    path: `/invite/${mine.code}`,
    vanity: mine.vanity,
    canPickVanity: !mine.vanity,
    offer: offerOf(settings, currency),
    referredBy: by ? { username: by.deletedAt ? null : by.username, status: by.status } : null,
    canClaim: !by && !paid && settings.enabled,
    invitees: invitees.map((i) => ({
      id: i.id,
      // A deleted account's row keeps a pseudonym for the books; the friend list names no one.
      username: i.deletedAt ? null : i.username,
      status: i.status,
      joinedAt: i.joinedAt.toISOString(),
      qualifiedAt: i.qualifiedAt?.toISOString() ?? null,
    })),
    rewards: rewards.map((r) => r.reward),
    totals: {
      earnedCents: earned,
      pending: invitees.filter((i) => i.status === 'pending').length,
      qualified: invitees.filter((i) => i.status === 'qualified').length,
    },
  };
}

// Kept for callers that only need to know whether a user was referred (tests, seed).
export async function referralOf(db: DbOrTx, refereeId: string): Promise<ReferralRow | null> {
  const [row] = await db.select().from(referrals).where(eq(referrals.refereeId, refereeId));
  return row ?? null;
}
