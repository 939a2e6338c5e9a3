import { desc, eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type ReferralReward } from '../../../shared/contracts/referrals.ts';
import type { DbOrTx } from '../../db/client.ts';
import { referralRewards, referrals } from '../../db/schema/referrals.ts';
import { user } from '../auth/tables.ts';


/** Reward rows with the other party's name, for the user's page and the back office. */

export const referrer = alias(user, 'referrer');
export const referee = alias(user, 'referee');

type FriendNames = { userId: string; referrerId: string; referrerUsername: string; refereeUsername: string; referrerGone: boolean; refereeGone: boolean };

export async function rewardsOf(db: DbOrTx, where: SQL, viewerFriend: (r: FriendNames) => string | null) {
  const rows = await db
    .select({
      reward: referralRewards,
      referrerId: referrals.referrerId,
      referrerUsername: referrer.username,
      refereeUsername: referee.username,
      referrerGone: sql<boolean>`${referrer.deletedAt} is not null`,
      refereeGone: sql<boolean>`${referee.deletedAt} is not null`,
      username: user.username,
    })
    .from(referralRewards)
    .innerJoin(referrals, eq(referrals.id, referralRewards.referralId))
    .innerJoin(referrer, eq(referrer.id, referrals.referrerId))
    .innerJoin(referee, eq(referee.id, referrals.refereeId))
    .innerJoin(user, eq(user.id, referralRewards.userId))
    .where(where)
    .orderBy(desc(referralRewards.createdAt), desc(referralRewards.id))
    .limit(500);
  return rows.map((r) => ({
    reward: {
      id: r.reward.id,
      kind: r.reward.kind,
      amountCents: Number(r.reward.amountCents),
      shortfallCents: Number(r.reward.shortfallCents),
      friendUsername: viewerFriend({
        userId: r.reward.userId,
        referrerId: r.referrerId,
        referrerUsername: r.referrerUsername,
        refereeUsername: r.refereeUsername,
        referrerGone: r.referrerGone,
        refereeGone: r.refereeGone,
      }),
      journalEntryId: r.reward.journalEntryId,
      createdAt: r.reward.createdAt.toISOString(),
    } satisfies ReferralReward,
    userId: r.reward.userId,
    username: r.username,
  }));
}

/** The other party of a reward: the referrer's friend is the referee, and the other way round. */
/** The other side of a reward's referral; admins see a deleted account's pseudonym, the user nothing. */
export const friendOf = (r: FriendNames) => (r.userId === r.referrerId ? r.refereeUsername : r.referrerUsername);
export const liveFriendOf = (r: FriendNames) => (r.userId === r.referrerId ? (r.refereeGone ? null : r.refereeUsername) : r.referrerGone ? null : r.referrerUsername);
