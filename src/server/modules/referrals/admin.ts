import { and, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import {
  REFERRAL_STATUSES,
  type AdminReferral,
  type AdminReferralDetail,
  type AdminReferralList,
  type ReferralStatus,
} from '../../../shared/contracts/referrals.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { referralRewards, referrals } from '../../db/schema/referrals.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { ActorCtx } from '../../http/types.ts';
import { audit } from '../audit/service.ts';
import { lockBalance } from '../wallet/service.ts';
import { likePattern } from '../../lib/like.ts';
import { referrer, referee, rewardsOf, friendOf } from './rewards.ts';
import { type ReferralRow, clawBack } from './qualification.ts';

/** The back office's referrals: lists, one referral with its rewards, voiding (with an optional clawback). */

const CLOSED: readonly ReferralStatus[] = ['voided', 'reversed', 'rejected'];

async function moneyOf(db: DbOrTx, ids: string[]): Promise<Map<string, { paid: number; clawed: number }>> {
  const out = new Map<string, { paid: number; clawed: number }>();
  if (!ids.length) return out;
  const rows = await db
    .select({
      id: referralRewards.referralId,
      paid: sql<string>`coalesce(sum(${referralRewards.amountCents}) filter (where ${referralRewards.kind} <> 'clawback'), 0)`,
      clawed: sql<string>`coalesce(sum(${referralRewards.amountCents}) filter (where ${referralRewards.kind} = 'clawback'), 0)`,
    })
    .from(referralRewards)
    .where(inArray(referralRewards.referralId, ids))
    .groupBy(referralRewards.referralId);
  for (const r of rows) out.set(r.id, { paid: Number(r.paid), clawed: Number(r.clawed) });
  return out;
}

const adminCols = {
  row: referrals,
  referrerId: referrer.id,
  referrerUsername: referrer.username,
  referrerEmail: referrer.email,
  refereeId: referee.id,
  refereeUsername: referee.username,
  refereeEmail: referee.email,
};

type AdminRow = { row: ReferralRow; referrerId: string; referrerUsername: string; referrerEmail: string; refereeId: string; refereeUsername: string; refereeEmail: string };

function toAdmin(r: AdminRow, money: { paid: number; clawed: number } | undefined): AdminReferral {
  return {
    id: r.row.id,
    referrer: { id: r.referrerId, username: r.referrerUsername, email: r.referrerEmail },
    referee: { id: r.refereeId, username: r.refereeUsername, email: r.refereeEmail },
    code: r.row.code,
    status: r.row.status,
    reason: r.row.reason,
    createdAt: r.row.createdAt.toISOString(),
    qualifiedAt: r.row.qualifiedAt?.toISOString() ?? null,
    paidCents: money?.paid ?? 0,
    clawedBackCents: money?.clawed ?? 0,
  };
}

export async function listReferrals(
  db: DbOrTx,
  q: { status?: ReferralStatus | undefined; q?: string | undefined; page: number; pageSize: number },
): Promise<AdminReferralList> {
  const conds: SQL[] = [];
  if (q.status) conds.push(eq(referrals.status, q.status));
  if (q.q) {
    const p = likePattern(q.q);
    conds.push(
      or(
        ilike(referrer.username, p),
        ilike(referrer.email, p),
        ilike(referee.username, p),
        ilike(referee.email, p),
        ilike(referrals.code, p),
      )!,
    );
  }
  const where = conds.length ? and(...conds) : undefined;
  const base = () => db.select(adminCols).from(referrals).innerJoin(referrer, eq(referrer.id, referrals.referrerId)).innerJoin(referee, eq(referee.id, referrals.refereeId));
  const [rows, [total], byStatus] = await Promise.all([
    base().where(where).orderBy(desc(referrals.createdAt), desc(referrals.id)).limit(q.pageSize).offset((q.page - 1) * q.pageSize),
    db.select({ n: count() }).from(referrals).innerJoin(referrer, eq(referrer.id, referrals.referrerId)).innerJoin(referee, eq(referee.id, referrals.refereeId)).where(where),
    db.select({ status: referrals.status, n: count() }).from(referrals).groupBy(referrals.status),
  ]);
  const money = await moneyOf(db, rows.map((r) => r.row.id));
  const counts = Object.fromEntries(REFERRAL_STATUSES.map((s) => [s, 0])) as Record<ReferralStatus, number>;
  for (const r of byStatus) counts[r.status] = Number(r.n);
  return {
    items: rows.map((r) => toAdmin(r, money.get(r.row.id))),
    total: Number(total?.n ?? 0),
    page: q.page,
    pageSize: q.pageSize,
    counts,
  };
}

export async function getReferralDetail(db: DbOrTx, id: string): Promise<AdminReferralDetail> {
  const [r] = await db
    .select(adminCols)
    .from(referrals)
    .innerJoin(referrer, eq(referrer.id, referrals.referrerId))
    .innerJoin(referee, eq(referee.id, referrals.refereeId))
    .where(eq(referrals.id, id));
  if (!r) throw notFound('No referral with this id.');
  const [money, rewards] = await Promise.all([moneyOf(db, [id]), rewardsOf(db, eq(referralRewards.referralId, id), friendOf)]);
  return {
    ...toAdmin(r, money.get(id)),
    qualifyingDepositId: r.row.qualifyingDepositId,
    shareBps: r.row.shareBps,
    shareCapCents: r.row.shareCapCents === null ? null : Number(r.row.shareCapCents),
    sharePaidCents: Number(r.row.sharePaidCents),
    shareUntil: r.row.shareUntil?.toISOString() ?? null,
    voidedAt: r.row.voidedAt?.toISOString() ?? null,
    voidedBy: r.row.voidedBy,
    rewards: rewards.map((x) => ({ ...x.reward, userId: x.userId, username: x.username })),
  };
}

/**
 * POST /api/admin/referrals/{id}/void: stops a pending or qualified referral (no more rewards or
 * shares); with clawBack, also takes back what it paid (as a reversal does). Audited. Locks the
 * friend's balance before the row, the order every money path uses.
 */
export async function voidReferral(tx: Tx, actor: ActorCtx, id: string, input: { reason: string; clawBack: boolean }, now = new Date()): Promise<void> {
  const [peek] = await tx.select({ refereeId: referrals.refereeId }).from(referrals).where(eq(referrals.id, id));
  if (!peek) throw notFound('No referral with this id.');
  if (input.clawBack) await lockBalance(tx, peek.refereeId);
  const [ref] = await tx.select().from(referrals).where(eq(referrals.id, id)).for('update');
  if (!ref) throw notFound('No referral with this id.');
  if (CLOSED.includes(ref.status)) {
    throw new AppError(409, 'conflict', `This referral is already ${ref.status}.`);
  }
  await tx
    .update(referrals)
    .set({ status: 'voided', reason: input.reason, voidedAt: now, voidedBy: actor.actorId, updatedAt: now })
    .where(eq(referrals.id, id));
  if (input.clawBack) await clawBack(tx, ref, `void:${id}`, actor.actorId, now);
  await audit(tx, {
    actorId: actor.actorId,
    action: 'referrals.void',
    targetType: 'referral',
    targetId: id,
    before: { status: ref.status },
    after: { status: 'voided', reason: input.reason, clawBack: input.clawBack },
    ip: actor.ip,
  });
}
