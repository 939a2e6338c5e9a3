import { isStaffRole } from '../audit/duties.ts';
import { and, eq, inArray } from 'drizzle-orm';
import { type Invite } from '../../../shared/contracts/referrals.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { referrals } from '../../db/schema/referrals.ts';
import { AppError, conflict, notFound } from '../../http/errors.ts';
import { user } from '../auth/tables.ts';
import { deposits } from '../payments/tables.ts';
import { lockBalance } from '../wallet/service.ts';
import { codeOwner, normaliseCode } from './codes.ts';
import { getReferralOffer, getReferralSettings } from './settings.ts';

/**
 * Referrals (issue 17): who invited whom, and every reward paid or taken back.
 *
 * State machine of a referral row:
 *   pending ─(friend's net deposits reach the threshold)→ qualified ─(qualifying deposit refunded
 *   or disputed)→ reversed;  pending|qualified ─(admin void)→ voided;  recorded as, or moved to,
 *   rejected for a self-referral (same normalised email at sign-up, same payer at qualification).
 * Split by use case: invites and recording here, qualification.ts (a friend's deposit pays,
 * a refund claws back), admin.ts (the back office), my-referrals.ts (the user's page),
 * rewards.ts (reward rows, shared by the last two).
 *
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
  role: string;
}

export async function person(db: DbOrTx, id: string): Promise<Person | null> {
  const [row] = await db
    .select({
      id: user.id,
      email: user.email,
      username: user.username,
      image: user.image,
      banned: user.banned,
      banExpires: user.banExpires,
      deletedAt: user.deletedAt,
      role: user.role,
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
export async function hasPaidDeposit(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: deposits.id })
    .from(deposits)
    .where(and(eq(deposits.userId, userId), inArray(deposits.status, ['succeeded', 'refunded'])))
    .limit(1);
  return !!row;
}

/** Separation of duties (ADR 0024): staff are never referrers or referees. */
export const STAFF_REASON = 'Staff account: staff (admins and owners) cannot refer or be referred.';

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
  const staff = isStaffRole(found.inviter.role) || isStaffRole(referee.role);
  const rows = await db
    .insert(referrals)
    .values({
      referrerId: found.inviter.id,
      refereeId: input.refereeId,
      code: found.code,
      status: self || staff ? 'rejected' : 'pending',
      reason: staff ? STAFF_REASON : self ? 'Self-referral: the same email address once dots and +tags are removed.' : null,
    })
    .onConflictDoNothing()
    .returning({ id: referrals.id });
  if (rows.length === 0) return 'ignored';
  return self || staff ? 'rejected' : 'recorded';
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
  if (isStaffRole(me.role) || isStaffRole(found.inviter.role)) {
    throw new AppError(403, 'referral_staff', me && isStaffRole(me.role) ? 'Staff accounts cannot be referred: the programme is for customers.' : 'This code belongs to a staff account; staff cannot refer friends.');
  }
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
