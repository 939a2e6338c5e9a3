import { and, desc, eq, gt, inArray, or, sql } from 'drizzle-orm';
import {
  LIMIT_PERIODS,
  type LimitPeriod,
  type Limits,
  type SelfExclusionDuration,
  type UpdateLimitsInput,
} from '../../../shared/contracts/wallet.ts';
import { formatMoney } from '../../../shared/money.ts';
import type { DbOrTx } from '../../db/client.ts';
import { depositLimits, selfExclusions } from '../../db/schema/responsible-play.ts';
import { deposits } from '../payments/tables.ts';
import { AppError } from '../../http/errors.ts';
import { instantText } from '../../../shared/words.ts';

/**
 * Responsible play: deposit limits per rolling day/week/month and self-exclusion.
 * Other modules call assertCanSpend (purchases) and assertCanDeposit (deposits) inside their
 * money transaction, so the server refuses whatever the page shows.
 */

const HOUR = 3600_000;
const DAY = 24 * HOUR;
export const LIMIT_WINDOWS_MS: Record<LimitPeriod, number> = { day: DAY, week: 7 * DAY, month: 30 * DAY };
/** A raise (or removal) of a limit waits this long. */
export const LIMIT_RAISE_DELAY_MS = DAY;
/** A pending checkout counts against the limits this long (after that it is treated as abandoned). */
export const PENDING_DEPOSIT_TTL_MS = HOUR;

const PERIOD_WORD: Record<LimitPeriod, string> = { day: 'daily', week: 'weekly', month: 'monthly' };

export function exclusionEnd(duration: SelfExclusionDuration, from: Date): Date {
  const d = new Date(from);
  if (duration === '24h') d.setTime(d.getTime() + DAY);
  else if (duration === '7d') d.setTime(d.getTime() + 7 * DAY);
  else if (duration === '30d') d.setTime(d.getTime() + 30 * DAY);
  else d.setUTCMonth(d.getUTCMonth() + 6);
  return d;
}

export async function activeSelfExclusion(db: DbOrTx, userId: string, now = new Date()) {
  const [row] = await db
    .select()
    .from(selfExclusions)
    .where(and(eq(selfExclusions.userId, userId), gt(selfExclusions.endsAt, now)))
    .orderBy(desc(selfExclusions.endsAt))
    .limit(1);
  return row ?? null;
}

function excludedError(endsAt: Date, what: string) {
  return new AppError(
    403,
    'self_excluded',
    `You have excluded yourself until ${instantText(endsAt)}, so ${what} is blocked until then.`,
  );
}

/** Purchases (packs, raffles…) call this in their transaction before debiting. */
export async function assertCanSpend(db: DbOrTx, userId: string, now = new Date()): Promise<void> {
  const ex = await activeSelfExclusion(db, userId, now);
  if (ex) throw excludedError(ex.endsAt, 'spending');
}

type LimitRow = typeof depositLimits.$inferSelect;

/** The limit in force at `now` (a due pending change counts as applied). */
function effective(row: LimitRow | undefined, now: Date): number | null {
  if (!row) return null;
  if (row.pendingEffectiveAt && row.pendingEffectiveAt <= now) {
    return row.pendingLimitCents === null ? null : Number(row.pendingLimitCents);
  }
  return row.limitCents === null ? null : Number(row.limitCents);
}

async function limitRows(db: DbOrTx, userId: string) {
  const rows = await db.select().from(depositLimits).where(eq(depositLimits.userId, userId));
  return new Map(rows.map((r) => [r.period, r]));
}

/** Deposited in the rolling window: succeeded or refunded, plus checkouts still open. */
async function usedSince(db: DbOrTx, userId: string, now: Date): Promise<Record<LimitPeriod, number>> {
  const pendingCutoff = new Date(now.getTime() - PENDING_DEPOSIT_TTL_MS);
  const monthStart = new Date(now.getTime() - LIMIT_WINDOWS_MS.month);
  const weekStart = new Date(now.getTime() - LIMIT_WINDOWS_MS.week);
  const dayStart = new Date(now.getTime() - LIMIT_WINDOWS_MS.day);
  const [row] = await db
    .select({
      day: sql<string>`coalesce(sum(${deposits.amountCents}) filter (where ${deposits.createdAt} > ${dayStart.toISOString()}::timestamptz), 0)`,
      week: sql<string>`coalesce(sum(${deposits.amountCents}) filter (where ${deposits.createdAt} > ${weekStart.toISOString()}::timestamptz), 0)`,
      month: sql<string>`coalesce(sum(${deposits.amountCents}), 0)`,
    })
    .from(deposits)
    .where(
      and(
        eq(deposits.userId, userId),
        gt(deposits.createdAt, monthStart),
        or(
          inArray(deposits.status, ['succeeded', 'refunded']),
          and(eq(deposits.status, 'pending'), gt(deposits.createdAt, pendingCutoff)),
        ),
      ),
    );
  return { day: Number(row?.day ?? 0), week: Number(row?.week ?? 0), month: Number(row?.month ?? 0) };
}

/**
 * Deposits call this in their transaction, after locking the user's balance row so two
 * deposit requests of one user cannot both pass the same limit.
 */
export async function assertCanDeposit(db: DbOrTx, userId: string, amountCents: number, currency = 'USD', now = new Date()) {
  const ex = await activeSelfExclusion(db, userId, now);
  if (ex) throw excludedError(ex.endsAt, 'depositing');
  const rows = await limitRows(db, userId);
  if (rows.size === 0) return;
  const used = await usedSince(db, userId, now);
  for (const period of LIMIT_PERIODS) {
    const limit = effective(rows.get(period), now);
    if (limit === null) continue;
    if (used[period] + amountCents > limit) {
      const left = Math.max(0, limit - used[period]);
      throw new AppError(
        403,
        'deposit_limit_reached',
        left > 0
          ? `This goes over your ${PERIOD_WORD[period]} deposit limit of ${formatMoney(limit, currency)}. You can deposit up to ${formatMoney(left, currency)} more right now.`
          : `You have reached your ${PERIOD_WORD[period]} deposit limit of ${formatMoney(limit, currency)}. It frees up as older deposits leave the rolling window.`,
      );
    }
  }
}

export async function getLimits(db: DbOrTx, userId: string, now = new Date()): Promise<Limits> {
  const [rows, used, ex] = await Promise.all([
    limitRows(db, userId),
    usedSince(db, userId, now),
    activeSelfExclusion(db, userId, now),
  ]);
  const state = (period: LimitPeriod) => {
    const row = rows.get(period);
    const pendingOpen = row?.pendingEffectiveAt && row.pendingEffectiveAt > now;
    return {
      limitCents: effective(row, now),
      pending:
        pendingOpen && row.pendingEffectiveAt
          ? {
              limitCents: row.pendingLimitCents === null ? null : Number(row.pendingLimitCents),
              effectiveAt: row.pendingEffectiveAt.toISOString(),
            }
          : null,
      usedCents: used[period],
    };
  };
  return {
    limits: { day: state('day'), week: state('week'), month: state('month') },
    selfExclusion: ex ? { endsAt: ex.endsAt.toISOString(), duration: ex.duration as SelfExclusionDuration } : null,
  };
}

/**
 * A lower limit (or a first limit) applies at once and cancels any pending raise; a higher one
 * or removing the limit waits 24 hours. Setting the value already in force cancels a pending change.
 */
export async function updateLimits(db: DbOrTx, userId: string, input: UpdateLimitsInput, now = new Date()) {
  const rows = await limitRows(db, userId);
  for (const period of LIMIT_PERIODS) {
    const wanted = input[period];
    if (wanted === undefined) continue;
    const current = effective(rows.get(period), now);
    const lowersOrSame = wanted !== null && (current === null || wanted <= current);
    const same = wanted === current;
    const values = lowersOrSame || same
      ? { limitCents: wanted, pendingLimitCents: null, pendingEffectiveAt: null }
      : {
          limitCents: current,
          pendingLimitCents: wanted,
          pendingEffectiveAt: new Date(now.getTime() + LIMIT_RAISE_DELAY_MS),
        };
    await db
      .insert(depositLimits)
      .values({ userId, period, ...values, updatedAt: now })
      .onConflictDoUpdate({
        target: [depositLimits.userId, depositLimits.period],
        set: { ...values, updatedAt: now },
      });
  }
  return getLimits(db, userId, now);
}

/** Self-exclusion can be extended but never shortened. */
export async function selfExclude(db: DbOrTx, userId: string, duration: SelfExclusionDuration, now = new Date()) {
  const endsAt = exclusionEnd(duration, now);
  const existing = await activeSelfExclusion(db, userId, now);
  if (!existing || existing.endsAt < endsAt) {
    await db.insert(selfExclusions).values({ userId, duration, startsAt: now, endsAt });
  }
  return getLimits(db, userId, now);
}
