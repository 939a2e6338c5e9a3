import type { Context } from 'hono';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { referrals } from '../referrals/tables.ts';
import { AppError } from '../../http/errors.ts';
import type { Actor, AppEnv } from '../../http/types.ts';
import { user } from '../auth/tables.ts';
import { auditRefusal } from './service.ts';

/**
 * Separation of duties (issue 39, ADR 0024): a staff member never gains from their own admin
 * action, by any path. "Their own" is their account and every account they referred (a referral
 * row naming them as referrer, whatever its state: a rejected one is still their sock puppet's
 * attempt). Admins cannot create accounts (admin-users only promotes existing ones), so a
 * referral is the only recorded "made by" link between two accounts.
 */

export type StaffRole = 'admin' | 'owner';
export const isStaffRole = (role: string | null | undefined): role is StaffRole => role === 'admin' || role === 'owner';

/** The staff member's own accounts: theirs and every account they referred. */
export async function accountsOf(db: DbOrTx, staffId: string): Promise<Set<string>> {
  const rows = await db.select({ id: referrals.refereeId }).from(referrals).where(eq(referrals.referrerId, staffId));
  return new Set([staffId, ...rows.map((r) => r.id)]);
}

/** Whoever referred the user (at most one account, by the referrals' unique referee). */
export async function referrerOf(db: DbOrTx, userId: string): Promise<string | null> {
  const [row] = await db.select({ id: referrals.referrerId }).from(referrals).where(eq(referrals.refereeId, userId)).limit(1);
  return row?.id ?? null;
}

/** True when `targetUserId` is the actor's own account or one they referred. */
export async function isOwnAccount(db: DbOrTx, actorId: string, targetUserId: string): Promise<boolean> {
  if (actorId === targetUserId) return true;
  return (await referrerOf(db, targetUserId)) === actorId;
}

/**
 * True when the user is staff (admin or owner) or was referred by a staff account: such an
 * account is paid by rules that staff cannot move (a buyback at the lower of today's value and
 * the value the copy came with; no drops).
 */
export async function isStaffOrStaffLinked(db: DbOrTx, userId: string): Promise<boolean> {
  const rows = await db.execute<{ x: number }>(sql`
    select 1 as x from ${user} u where u.id = ${userId} and u.role in ('admin', 'owner')
    union all
    select 1 from ${referrals} r join ${user} s on s.id = r.referrer_id
    where r.referee_id = ${userId} and s.role in ('admin', 'owner')
    limit 1`);
  const list = Array.isArray(rows) ? rows : (rows as unknown as { rows: unknown[] }).rows;
  return list.length > 0;
}

/** The staff accounts among `userIds`. */
export async function staffAmong(db: DbOrTx, userIds: string[]): Promise<Set<string>> {
  if (!userIds.length) return new Set();
  const rows = await db
    .select({ id: user.id })
    .from(user)
    .where(and(inArray(user.id, userIds), inArray(user.role, ['admin', 'owner'])));
  return new Set(rows.map((r) => r.id));
}

/** 403 self_dealing: a back-office action on the records of the actor's own account or one they referred. */
export function ownRecordError(what: string): AppError {
  return new AppError(
    403,
    'self_dealing',
    `You can't ${what}: it is yours, or belongs to an account you referred. Ask another admin (or the owner) to do it; this attempt was recorded.`,
  );
}

/** 403 owner_required: the change is beyond what the owner lets an admin do alone. */
export function ownerRequiredError(message: string, fields?: Record<string, string[]>): AppError {
  return new AppError(403, 'owner_required', message, fields);
}

const REFUSAL_CODES = new Set(['self_dealing', 'owner_required', 'owner_role_required', 'promo_own_code', 'promo_staff']);

/**
 * Runs an admin action and, when it is refused under these rules, writes `<action>.refused` to
 * the audit log (outside the rolled-back transaction) before rethrowing.
 */
export async function auditedRefusals<T>(
  c: Context<AppEnv>,
  db: DbOrTx,
  info: { actor: Pick<Actor, 'userId'>; action: string; targetType: string; targetId?: string | null; ip: string | null; after?: unknown },
  fn: () => Promise<T>,
): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AppError && REFUSAL_CODES.has(err.code)) {
      await auditRefusal(db, c.get('log'), {
        actorId: info.actor.userId,
        action: info.action,
        targetType: info.targetType,
        targetId: info.targetId ?? null,
        code: err.code,
        message: err.message,
        after: info.after,
        ip: info.ip,
      });
    }
    throw err;
  }
}

/** The staff role of a request behind requireAdmin (an owner, or any other admin). */
export function staffRole(c: Context<AppEnv>): StaffRole {
  return c.get('actor')?.role === 'owner' ? 'owner' : 'admin';
}
