import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  REFERRAL_STATUSES,
  type AdminReferral,
  type AdminReferralDetail,
  type AdminReferralList,
  type Invite,
  type MyReferrals,
  type ReferralReward,
  type ReferralStatus,
} from '../../../shared/contracts/referrals.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { referralRewards, referrals } from '../../db/schema/referrals.ts';
import type { Deps } from '../../deps.ts';
import { AppError, conflict, notFound } from '../../http/errors.ts';
import type { ActorCtx } from '../../http/types.ts';
import { audit } from '../audit/service.ts';
import { user } from '../auth/tables.ts';
import { notify } from '../notifications/service.ts';
import { deposits } from '../payments/tables.ts';
import { credit, debit, lockBalance } from '../wallet/service.ts';
import { codeOwner, ensureCode, normaliseCode } from './codes.ts';
import { getReferralOffer, getReferralSettings, offerOf } from './settings.ts';

/**
 * Referrals (issue 17): who invited whom, and every reward paid or taken back.
 *
 * State machine of a referral row:
 *   pending ─(friend's net deposits reach the threshold)→ qualified ─(qualifying deposit refunded
 *   or disputed)→ reversed;  pending|qualified ─(admin void)→ voided;  recorded as, or moved to,
 *   rejected for a self-referral (same normalised email at sign-up, same payer at qualification).
 * Rewards move money only through the wallet (referral_reward / referral_clawback against
 * referral_expense); each move has a referral_rewards row whose unique key (referral, user,
 * kind, source) makes it happen once. Lock order everywhere money moves: the friend's balance,
 * then the referral row, then the referrer's balance.
 */

/** One answer for every code that leads nowhere (unknown, malformed, 10 KB, banned inviter). */
export const INVITE_NOT_FOUND = 'This invite link is not valid. You can still sign up.';
const inviteNotFound = () => notFound(INVITE_NOT_FOUND);
const CODE_SHAPE = /^[A-Za-z0-9]{1,32}$/;

/**
 * An email as a person, for the self-referral check: lower-case, +tag removed, dots in the
 * local part removed (the Gmail rules, applied to every domain: stricter is fine here).
 */
export function normaliseEmail(email: string): string {
  const lower = email.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at < 0) return lower;
  const local = lower.slice(0, at).split('+')[0]!.replace(/\./g, '');
  return `${local}@${lower.slice(at + 1)}`;
}

interface Person {
  id: string;
  email: string;
  username: string;
  image: string | null;
  banned: boolean;
  banExpires: Date | null;
  deletedAt: Date | null;
}

async function person(db: DbOrTx, id: string): Promise<Person | null> {
  const [row] = await db
    .select({
      id: user.id,
      email: user.email,
      username: user.username,
      image: user.image,
      banned: user.banned,
      banExpires: user.banExpires,
      deletedAt: user.deletedAt,
    })
    .from(user)
    .where(eq(user.id, id));
  return row ?? null;
}

/** The same rule as auth's isBanActive (not imported: auth calls this module at sign-up). */
const banActive = (p: Person, now = Date.now()) => p.banned && (!p.banExpires || p.banExpires.getTime() > now);
const usable = (p: Person | null): p is Person => !!p && !p.deletedAt && !banActive(p);

/** The inviter behind a code, or null (unknown, malformed, deleted or banned: all the same). */
async function inviterOf(db: DbOrTx, rawCode: string): Promise<{ code: string; inviter: Person } | null> {
  if (typeof rawCode !== 'string' || rawCode.length > 64) return null;
  const code = normaliseCode(rawCode);
  if (!CODE_SHAPE.test(code)) return null;
  const owner = await codeOwner(db, code);
  if (!owner) return null;
  const p = await person(db, owner.userId);
  return usable(p) ? { code: owner.code, inviter: p } : null;
}

/** GET /api/referrals/invite/{code} and /remembered: the public face of an invite, or 404. */
export async function getInvite(db: DbOrTx, rawCode: string, currency: string): Promise<Invite> {
  const found = await inviterOf(db, rawCode);
  if (!found) throw inviteNotFound();
  return {
    code: found.code,
    inviter: { username: found.inviter.username, image: found.inviter.image },
    offer: getReferralOffer(currency),
  };
}

/** True once the user has a deposit that was paid (refunded later counts too). */
async function hasPaidDeposit(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: deposits.id })
    .from(deposits)
    .where(and(eq(deposits.userId, userId), inArray(deposits.status, ['succeeded', 'refunded'])))
    .limit(1);
  return !!row;
}

export type RecordOutcome = 'recorded' | 'rejected' | 'ignored';

/**
 * Records the referral of a new account (sign-up): a pending row, or a rejected one when the two
 * emails are one person's (so an admin sees the attempt). Unknown code, a banned inviter, the
 * programme switched off, or the account already referred: nothing is recorded. Never throws for
 * those; the sign-up hook still catches anything else and logs it.
 */
export async function recordReferral(db: DbOrTx, input: { refereeId: string; code: string }): Promise<RecordOutcome> {
  const settings = getReferralSettings();
  if (!settings.enabled) return 'ignored';
  const found = await inviterOf(db, input.code);
  if (!found || found.inviter.id === input.refereeId) return 'ignored';
  const referee = await person(db, input.refereeId);
  if (!referee) return 'ignored';
  const self = normaliseEmail(found.inviter.email) === normaliseEmail(referee.email);
  const rows = await db
    .insert(referrals)
    .values({
      referrerId: found.inviter.id,
      refereeId: input.refereeId,
      code: found.code,
      status: self ? 'rejected' : 'pending',
      reason: self ? 'Self-referral: the same email address once dots and +tags are removed.' : null,
    })
    .onConflictDoNothing()
    .returning({ id: referrals.id });
  if (rows.length === 0) return 'ignored';
  return self ? 'rejected' : 'recorded';
}

/**
 * POST /api/referrals/claim: a signed-in user with no referrer and no paid deposit enters a code.
 * The user's balance row is locked first, like a deposit's credit, so a claim and a first deposit
 * cannot pass each other: either the deposit is seen (too late) or it sees the referral.
 */
export async function claimReferral(tx: Tx, userId: string, rawCode: string): Promise<void> {
  await lockBalance(tx, userId);
  const [existing] = await tx.select({ id: referrals.id }).from(referrals).where(eq(referrals.refereeId, userId));
  if (existing) throw conflict('You were already invited by someone; an account has one referrer.', 'already_referred');
  if (await hasPaidDeposit(tx, userId)) {
    throw conflict('A referral code can only be added before your first deposit.', 'referral_too_late');
  }
  const found = await inviterOf(tx, rawCode);
  if (!found) throw notFound('No referral code like that. Check it and try again.');
  const settings = getReferralSettings();
  if (!settings.enabled) throw new AppError(409, 'referral_closed', 'The referral programme is paused right now.');
  const me = await person(tx, userId);
  const selfRefusal = () => conflict("You can't use your own referral code.", 'self_referral');
  if (found.inviter.id === userId || !me || normaliseEmail(me.email) === normaliseEmail(found.inviter.email)) throw selfRefusal();
  // Two accounts inviting each other would be one person farming both rewards (and would make
  // their rewards lock each other's balances in opposite orders).
  const [mutual] = await tx
    .select({ id: referrals.id })
    .from(referrals)
    .where(and(eq(referrals.referrerId, userId), eq(referrals.refereeId, found.inviter.id)));
  if (mutual) throw selfRefusal();
  const rows = await tx
    .insert(referrals)
    .values({ referrerId: found.inviter.id, refereeId: userId, code: found.code })
    .onConflictDoNothing()
    .returning({ id: referrals.id });
  if (rows.length === 0) throw conflict('You were already invited by someone; an account has one referrer.', 'already_referred');
}

// Qualification -----------------------------------------------------------------------------------

type ReferralRow = typeof referrals.$inferSelect;

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
async function clawBack(tx: Tx, ref: ReferralRow, sourceId: string, actorId: string | null, now: Date): Promise<void> {
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

// Admin --------------------------------------------------------------------------------------------

const referrer = alias(user, 'referrer');
const referee = alias(user, 'referee');

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

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (m) => `\\${m}`);

export async function listReferrals(
  db: DbOrTx,
  q: { status?: ReferralStatus | undefined; q?: string | undefined; page: number; pageSize: number },
): Promise<AdminReferralList> {
  const conds: SQL[] = [];
  if (q.status) conds.push(eq(referrals.status, q.status));
  if (q.q) {
    const p = `%${likeEscape(q.q)}%`;
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

async function rewardsOf(db: DbOrTx, where: SQL, viewerFriend: (r: { userId: string; referrerId: string; referrerUsername: string; refereeUsername: string }) => string) {
  const rows = await db
    .select({
      reward: referralRewards,
      referrerId: referrals.referrerId,
      referrerUsername: referrer.username,
      refereeUsername: referee.username,
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
      friendUsername: viewerFriend({ userId: r.reward.userId, referrerId: r.referrerId, referrerUsername: r.referrerUsername, refereeUsername: r.refereeUsername }),
      journalEntryId: r.reward.journalEntryId,
      createdAt: r.reward.createdAt.toISOString(),
    } satisfies ReferralReward,
    userId: r.reward.userId,
    username: r.username,
  }));
}

/** The other party of a reward: the referrer's friend is the referee, and the other way round. */
const friendOf = (r: { userId: string; referrerId: string; referrerUsername: string; refereeUsername: string }) =>
  r.userId === r.referrerId ? r.refereeUsername : r.referrerUsername;

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

// The user's page ----------------------------------------------------------------------------------

/** GET /api/referrals/me (creates the code on first need, so run it in a transaction). */
export async function getMyReferrals(tx: DbOrTx, userId: string, currency: string): Promise<MyReferrals> {
  const mine = await ensureCode(tx, userId);
  const [settings, [by], invitees, rewards, paid] = await Promise.all([
    getReferralSettings(),
    tx
      .select({ username: user.username, status: referrals.status })
      .from(referrals)
      .innerJoin(user, eq(user.id, referrals.referrerId))
      .where(eq(referrals.refereeId, userId)),
    tx
      .select({ id: referrals.id, username: user.username, status: referrals.status, joinedAt: referrals.createdAt, qualifiedAt: referrals.qualifiedAt })
      .from(referrals)
      .innerJoin(user, eq(user.id, referrals.refereeId))
      .where(eq(referrals.referrerId, userId))
      .orderBy(desc(referrals.createdAt), asc(referrals.id))
      .limit(500),
    rewardsOf(tx, eq(referralRewards.userId, userId), friendOf),
    hasPaidDeposit(tx, userId),
  ]);
  const earned = rewards.reduce((s, r) => s + (r.reward.kind === 'clawback' ? -r.reward.amountCents : r.reward.amountCents), 0);
  return {
    code: mine.code,
    path: `/invite/${mine.code}`,
    vanity: mine.vanity,
    canPickVanity: !mine.vanity,
    offer: offerOf(settings, currency),
    referredBy: by ? { username: by.username, status: by.status } : null,
    canClaim: !by && !paid && settings.enabled,
    invitees: invitees.map((i) => ({
      id: i.id,
      username: i.username,
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

