import { isOwnAccount } from '../audit/duties.ts';
import type { ActorCtx } from '../../http/types.ts';
import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import {
  ADJUST_HARD_MAX_CENTS,
  type AdjustLimits,
  type AdjustLimitsView,
} from '../../../shared/contracts/wallet.ts';
import { formatMoney } from '../../../shared/money.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { auditLog } from '../audit/tables.ts';
import { setting, writeRegistrySetting } from '../settings/store.ts';
import { AppError } from '../../http/errors.ts';
import type { Actor } from '../../http/types.ts';
import { audit } from '../audit/service.ts';

/**
 * Limits on what one admin can move through back-office balance adjustments and card grants. The
 * owner sets them (app_settings); the owner is bound only by the hard per-call maximum. The daily
 * total is read from the audit log (one row per adjustment or grant, written in its transaction;
 * indexed by actor and time) over the last 24 hours.
 */

export const ADJUST_LIMITS_KEY = 'wallet.adjustLimits' as const;

/**
 * Audit actions that count towards an admin's daily total: adjustments (`after.amountCents`,
 * signed) and card grants (`after.valueCents`, the card's value when granted).
 */
const COUNTED_ACTIONS = ['wallet.adjust', 'owned.grant'];

/** Namespace of the per-admin advisory lock (arbitrary; the second key is the admin id's hash). */
const ADJUST_LOCK_NS = 7_301_013;

/** From the settings cache; a stored value that no longer validates falls back to the safe defaults. */
export function getAdjustLimits(): AdjustLimits {
  return setting(ADJUST_LIMITS_KEY);
}

export async function setAdjustLimits(tx: Tx, ctx: ActorCtx, input: AdjustLimits): Promise<AdjustLimits> {
  const before = getAdjustLimits();
  await writeRegistrySetting(tx, ADJUST_LIMITS_KEY, input);
  await audit(tx, {
    actorId: ctx.actorId,
    action: 'wallet.adjust_limits.update',
    targetType: 'app_setting',
    targetId: ADJUST_LIMITS_KEY,
    before,
    after: input,
    ip: ctx.ip,
  });
  return input;
}

/** Sum of |amount| this admin adjusted, plus the value of the cards they granted, in the last 24 hours. */
export async function adjustedLast24h(db: DbOrTx, actorId: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<string | null>`sum(abs(coalesce(${auditLog.after} ->> 'amountCents', ${auditLog.after} ->> 'valueCents', '0')::bigint))` })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.actorId, actorId),
        inArray(auditLog.action, COUNTED_ACTIONS),
        gte(auditLog.createdAt, sql`now() - interval '24 hours'`),
      ),
    );
  return Number(row?.total ?? 0);
}

export async function adjustLimitsView(db: DbOrTx, actor: Actor): Promise<AdjustLimitsView> {
  const [limits, used] = [getAdjustLimits(), await adjustedLast24h(db, actor.userId)];
  return { ...limits, hardMaxCents: ADJUST_HARD_MAX_CENTS, usedTodayCents: used, callerIsOwner: actor.role === 'owner' };
}

/** 403 for any back-office move of value into or out of the actor's own account. */
export function selfDealingError(what: string): AppError {
  return new AppError(
    403,
    'self_dealing',
    `You can't ${what} your own account (or one you referred). Ask another admin (or the owner) to do it; this attempt was recorded.`,
  );
}

/**
 * Checks one move of value by an admin (an adjustment, or a card grant at the card's value)
 * against the policy inside its transaction. The per-admin advisory lock is held to commit, so two
 * parallel moves by one admin are counted one after the other and can't both squeeze under the
 * daily cap.
 */
export async function assertWithinAdminLimits(
  tx: Tx,
  actor: Pick<Actor, 'userId' | 'role'>,
  amountCents: number,
  currency: string,
  kind: 'adjust' | 'grant',
): Promise<void> {
  if (actor.role === 'owner') return;
  const limits = getAdjustLimits();
  const amount = Math.abs(amountCents);
  const field = kind === 'adjust' ? 'amountCents' : 'cardId';
  if (amount > limits.singleLimitCents) {
    const single = formatMoney(limits.singleLimitCents, currency);
    throw new AppError(
      403,
      'owner_required',
      kind === 'adjust'
        ? `Adjustments above ${single} need the owner. Ask the owner to make this one.`
        : `This card is worth ${formatMoney(amount, currency)}: granting cards worth more than ${single} needs the owner. Ask the owner to grant it.`,
      { [field]: [`At most ${single} without the owner.`] },
    );
  }
  await tx.execute(sql`select pg_advisory_xact_lock(${ADJUST_LOCK_NS}, hashtext(${actor.userId}))`);
  const used = await adjustedLast24h(tx, actor.userId);
  if (used + amount > limits.dailyLimitCents) {
    const left = Math.max(0, limits.dailyLimitCents - used);
    throw new AppError(
      403,
      'owner_required',
      `This would take what you adjusted and granted in the last 24 hours above ${formatMoney(limits.dailyLimitCents, currency)} ` +
        `(${formatMoney(left, currency)} left). Ask the owner to do this one, or wait.`,
      { [field]: [`${formatMoney(left, currency)} left in your daily limit.`] },
    );
  }
}

/** An adjustment: never on one's own account, and within the admin limits. */
export async function assertAdjustAllowed(
  tx: Tx,
  actor: Pick<Actor, 'userId' | 'role'>,
  targetUserId: string,
  amountCents: number,
  currency: string,
): Promise<void> {
  // An account they referred counts as theirs too (ADR 0024).
  if (await isOwnAccount(tx, actor.userId, targetUserId)) throw selfDealingError('adjust the balance of');
  await assertWithinAdminLimits(tx, actor, amountCents, currency, 'adjust');
}
