import { isStaffRole, ownerRequiredError, referrerOf, type StaffRole } from '../audit/duties.ts';
import { setting } from '../settings/store.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { ActorCtx } from '../../http/types.ts';
import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type {
  CreatePromoInput,
  Promo,
  PromoDetail,
  RedeemPromoResponse,
  UpdatePromoInput,
} from '../../../shared/contracts/wallet.ts';
import { formatMoney } from '../../../shared/money.ts';
import type { ErrorCode } from '../../../shared/api-error.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { auditLog } from '../audit/tables.ts';
import { user } from '../auth/tables.ts';
import { promoCodes, promoRedemptions } from '../../db/schema/promo.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import { audit } from '../audit/service.ts';
import { assertCanSpend } from '../responsible-play/service.ts';
import { credit, getBalance, lockBalance } from '../wallet/service.ts';
import { plural, withArticle } from '../../../shared/words.ts';

/**
 * Promo codes. Redemption locks the promo row (SELECT … FOR UPDATE) and increments the counter
 * with a conditional UPDATE, and a unique (promo, user) index makes "one per user" hold, so the
 * total limit holds however many redemptions race.
 */

type PromoRow = typeof promoCodes.$inferSelect;

export function normalizeCode(code: string): string {
  return code.trim().toUpperCase();
}

export function toPromo(row: PromoRow): Promo {
  return {
    id: row.id,
    code: row.code,
    description: row.description,
    kind: row.kind,
    amountCents: row.amountCents === null ? null : Number(row.amountCents),
    bonusPercent: row.bonusPercent,
    bonusCapCents: row.bonusCapCents === null ? null : Number(row.bonusCapCents),
    startsAt: row.startsAt?.toISOString() ?? null,
    endsAt: row.endsAt?.toISOString() ?? null,
    totalLimit: row.totalLimit,
    redeemedCount: row.redeemedCount,
    minAccountAgeDays: row.minAccountAgeDays,
    active: row.active,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const toDate = (v: string | null | undefined) => (v === undefined ? undefined : v === null ? null : new Date(v));

export async function listPromos(db: DbOrTx): Promise<Promo[]> {
  const rows = await db.select().from(promoCodes).orderBy(desc(promoCodes.createdAt));
  return rows.map(toPromo);
}

/**
 * Separation of duties (ADR 0024): what a code can pay out, per redemption (a credit, or a deposit
 * bonus's cap) and in all (× the total limit; none = unbounded), stays within the owner's
 * `promo.limits` unless the owner makes it. Checked on the code as it will be after the change.
 */
function assertPromoWithinLimits(
  role: StaffRole,
  next: { kind: 'credit' | 'deposit_bonus'; amountCents: number | null; bonusCapCents: number | null; totalLimit: number | null; active: boolean },
  currency: string,
): void {
  if (role === 'owner' || !next.active) return;
  const limits = setting('promo.limits');
  const per = (next.kind === 'credit' ? next.amountCents : next.bonusCapCents) ?? 0;
  const field = next.kind === 'credit' ? 'amountCents' : 'bonusCapCents';
  if (per > limits.maxPerRedemptionCents) {
    const cap = formatMoney(limits.maxPerRedemptionCents, currency);
    throw ownerRequiredError(`Codes worth more than ${cap} per redemption need the owner. Ask the owner to create this one.`, { [field]: [`At most ${cap} without the owner.`] });
  }
  const total = next.totalLimit === null ? Number.POSITIVE_INFINITY : per * next.totalLimit;
  if (total > limits.maxTotalCents) {
    const cap = formatMoney(limits.maxTotalCents, currency);
    throw ownerRequiredError(
      next.totalLimit === null
        ? `A code without a total limit could pay out without end: set a total limit (at most ${cap} in all), or ask the owner.`
        : `This code could pay out ${formatMoney(total, currency)} in all; above ${cap} needs the owner. Lower the limit or ask the owner.`,
      { totalLimit: [`At most ${cap} in all without the owner.`] },
    );
  }
}

export async function createPromo(db: Tx, ctx: ActorCtx & { role?: StaffRole; currency?: string }, input: CreatePromoInput): Promise<Promo> {
  const code = normalizeCode(input.code);
  assertPromoWithinLimits(
    ctx.role ?? 'admin',
    {
      kind: input.kind,
      amountCents: input.kind === 'credit' ? (input.amountCents ?? null) : null,
      bonusCapCents: input.kind === 'credit' ? null : (input.bonusCapCents ?? null),
      totalLimit: input.totalLimit ?? null,
      active: input.active ?? true,
    },
    ctx.currency ?? 'USD',
  );
  const [existing] = await db
    .select({ id: promoCodes.id })
    .from(promoCodes)
    .where(sql`lower(${promoCodes.code}) = lower(${code})`);
  if (existing) throw new AppError(409, 'promo_code_taken', `The code ${code} already exists (codes ignore case).`, { code: ['This code already exists.'] });
  const isCredit = input.kind === 'credit';
  let row: PromoRow;
  try {
    [row] = (await db
      .insert(promoCodes)
      .values({
        code,
        kind: input.kind,
        description: input.description ?? null,
        amountCents: isCredit ? (input.amountCents ?? null) : null,
        bonusPercent: isCredit ? null : (input.bonusPercent ?? null),
        bonusCapCents: isCredit ? null : (input.bonusCapCents ?? null),
        startsAt: toDate(input.startsAt) ?? null,
        endsAt: toDate(input.endsAt) ?? null,
        totalLimit: input.totalLimit ?? null,
        minAccountAgeDays: input.minAccountAgeDays ?? null,
        active: input.active ?? true,
        createdBy: ctx.actorId,
      })
      .returning()) as [PromoRow];
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError(409, 'promo_code_taken', `The code ${code} already exists (codes ignore case).`, { code: ['This code already exists.'] });
    throw err;
  }
  const promo = toPromo(row);
  await audit(db, { actorId: ctx.actorId, action: 'promo.create', targetType: 'promo_code', targetId: row.id, before: null, after: promo, ip: ctx.ip });
  return promo;
}

export async function updatePromo(db: Tx, ctx: ActorCtx & { role?: StaffRole; currency?: string }, id: string, input: UpdatePromoInput): Promise<Promo> {
  const [before] = await db.select().from(promoCodes).where(eq(promoCodes.id, id)).for('update');
  if (!before) throw notFound('No promo code with this id.');
  const isCredit = before.kind === 'credit';
  const next = {
    description: input.description === undefined ? before.description : input.description,
    amountCents: isCredit && input.amountCents !== undefined ? input.amountCents : before.amountCents,
    bonusPercent: !isCredit && input.bonusPercent !== undefined ? input.bonusPercent : before.bonusPercent,
    bonusCapCents: !isCredit && input.bonusCapCents !== undefined ? input.bonusCapCents : before.bonusCapCents,
    startsAt: input.startsAt === undefined ? before.startsAt : toDate(input.startsAt)!,
    endsAt: input.endsAt === undefined ? before.endsAt : toDate(input.endsAt)!,
    totalLimit: input.totalLimit === undefined ? before.totalLimit : input.totalLimit,
    minAccountAgeDays: input.minAccountAgeDays === undefined ? before.minAccountAgeDays : input.minAccountAgeDays,
    active: input.active ?? before.active,
  };
  const fields: Record<string, string[]> = {};
  if (isCredit && !next.amountCents) fields.amountCents = ['A credit code needs an amount.'];
  if (!isCredit && !next.bonusPercent) fields.bonusPercent = ['Enter the bonus percent.'];
  if (!isCredit && !next.bonusCapCents) fields.bonusCapCents = ['Enter the bonus cap.'];
  if (next.startsAt && next.endsAt && next.endsAt <= next.startsAt) fields.endsAt = ['The end must be after the start.'];
  if (next.totalLimit !== null && next.totalLimit < before.redeemedCount) {
    fields.totalLimit = [`Already redeemed ${before.redeemedCount} times; the limit cannot be lower.`];
  }
  if (Object.keys(fields).length) throw badRequest('Some fields need attention.', fields);
  assertPromoWithinLimits(
    ctx.role ?? 'admin',
    { kind: before.kind, amountCents: next.amountCents === null ? null : Number(next.amountCents), bonusCapCents: next.bonusCapCents === null ? null : Number(next.bonusCapCents), totalLimit: next.totalLimit, active: next.active },
    ctx.currency ?? 'USD',
  );
  const [row] = await db
    .update(promoCodes)
    .set({ ...next, updatedAt: new Date() })
    .where(eq(promoCodes.id, id))
    .returning();
  const promo = toPromo(row!);
  await audit(db, {
    actorId: ctx.actorId,
    action: next.active === before.active ? 'promo.update' : next.active ? 'promo.activate' : 'promo.deactivate',
    targetType: 'promo_code',
    targetId: id,
    before: toPromo(before),
    after: promo,
    ip: ctx.ip,
  });
  return promo;
}

export async function getPromoDetail(db: DbOrTx, id: string): Promise<PromoDetail> {
  const [row] = await db.select().from(promoCodes).where(eq(promoCodes.id, id));
  if (!row) throw notFound('No promo code with this id.');
  const redemptions = await db
    .select({ r: promoRedemptions, username: user.username, email: user.email })
    .from(promoRedemptions)
    .leftJoin(user, eq(user.id, promoRedemptions.userId))
    .where(eq(promoRedemptions.promoId, id))
    .orderBy(desc(promoRedemptions.createdAt))
    .limit(500);
  return {
    promo: toPromo(row),
    redemptions: redemptions.map(({ r, username, email }) => ({
      id: r.id,
      userId: r.userId,
      userLabel: username ? `${username}${email ? ` (${email})` : ''}` : null,
      status: r.status,
      creditedCents: Number(r.creditedCents),
      depositId: r.depositId,
      createdAt: r.createdAt.toISOString(),
      appliedAt: r.appliedAt?.toISOString() ?? null,
    })),
  };
}

const promoError = (code: ErrorCode, message: string, status: 403 | 404 | 409 = 409) => new AppError(status, code, message);

/**
 * Redeems a code for the user inside the caller's transaction. Credit codes credit at once;
 * deposit-bonus codes wait for the user's next successful deposit (one waiting bonus at a time).
 */
export async function redeemPromo(
  tx: Tx,
  input: { userId: string; code: string; currency: string; now?: Date },
): Promise<RedeemPromoResponse> {
  const now = input.now ?? new Date();
  const code = normalizeCode(input.code);
  await assertCanSpend(tx, input.userId, now);
  // The row lock serializes every redemption of this code.
  const [promo] = await tx
    .select()
    .from(promoCodes)
    .where(sql`lower(${promoCodes.code}) = lower(${code})`)
    .for('update');
  if (!promo || !promo.active) throw promoError('promo_invalid', 'That code is not valid. Check the spelling and try again.', 404);
  if (promo.startsAt && promo.startsAt > now) throw promoError('promo_not_started', 'That code is not active yet.');
  if (promo.endsAt && promo.endsAt <= now) throw promoError('promo_expired', 'That code has expired.');
  // Every code is staff-made, so no staff account redeems one (ADR 0024).
  const [redeemer] = await tx.select({ role: user.role }).from(user).where(eq(user.id, input.userId));
  if (isStaffRole(redeemer?.role)) {
    throw promoError('promo_staff', 'Staff accounts cannot redeem promo codes. Codes are for customers.', 403);
  }
  // Whoever created or edited a code can't redeem it, nor can an account a referral links to
  // them: that would be an admin crediting themselves.
  const staffOfCode = await tx
    .selectDistinct({ id: auditLog.actorId })
    .from(auditLog)
    .where(and(eq(auditLog.targetType, 'promo_code'), eq(auditLog.targetId, promo.id)));
  const makers = new Set([promo.createdBy, ...staffOfCode.map((r) => r.id)].filter((x): x is string => !!x));
  const referrer = await referrerOf(tx, input.userId);
  if (makers.has(input.userId) || (referrer && makers.has(referrer))) {
    throw promoError('promo_own_code', "You can't redeem a code you (or whoever referred you) created or edited. Codes are for customers.", 403);
  }
  if (promo.minAccountAgeDays) {
    const [u] = await tx.select({ createdAt: user.createdAt }).from(user).where(eq(user.id, input.userId));
    const ageDays = u ? (now.getTime() - u.createdAt.getTime()) / 86_400_000 : 0;
    if (ageDays < promo.minAccountAgeDays) {
      throw promoError(
        'promo_account_too_new',
        `This code is for accounts at least ${plural(promo.minAccountAgeDays, 'day')} old.`,
        403,
      );
    }
  }
  if (promo.kind === 'deposit_bonus') {
    // "One waiting bonus at a time" is a read, and two different codes lock two different promo
    // rows: the user's balance row serializes the user's redemptions, so the second one reads the
    // first one's bonus (promo row, then balance: the order a credit code takes them in too).
    await lockBalance(tx, input.userId);
    const [waiting] = await tx
      .select({ id: promoRedemptions.id })
      .from(promoRedemptions)
      .where(and(eq(promoRedemptions.userId, input.userId), eq(promoRedemptions.status, 'pending_deposit')))
      .limit(1);
    if (waiting) {
      throw promoError('promo_bonus_waiting', 'You already have a deposit bonus waiting. Make a deposit to use it first.');
    }
  }
  const [redemption] = await tx
    .insert(promoRedemptions)
    .values({
      promoId: promo.id,
      userId: input.userId,
      status: promo.kind === 'credit' ? 'credited' : 'pending_deposit',
      creditedCents: promo.kind === 'credit' ? Number(promo.amountCents) : 0,
      appliedAt: promo.kind === 'credit' ? now : null,
    })
    .onConflictDoNothing({ target: [promoRedemptions.promoId, promoRedemptions.userId] })
    .returning({ id: promoRedemptions.id });
  if (!redemption) throw promoError('promo_already_redeemed', 'You have already used this code.');
  const [counted] = await tx
    .update(promoCodes)
    .set({ redeemedCount: sql`${promoCodes.redeemedCount} + 1` })
    .where(
      and(
        eq(promoCodes.id, promo.id),
        or(isNull(promoCodes.totalLimit), sql`${promoCodes.redeemedCount} < ${promoCodes.totalLimit}`),
      ),
    )
    .returning({ n: promoCodes.redeemedCount });
  if (!counted) throw promoError('promo_limit_reached', 'This code has been used up.');

  if (promo.kind === 'credit') {
    const amount = Number(promo.amountCents);
    const moved = await credit(tx, {
      userId: input.userId,
      amountCents: amount,
      kind: 'promo_credit',
      referenceType: 'promo_redemption',
      referenceId: redemption.id,
      actorId: input.userId,
      idempotencyKey: `promo:${promo.id}`,
      memo: `Promo code ${promo.code}`,
    });
    return {
      kind: 'credit',
      code: promo.code,
      creditedCents: amount,
      balanceCents: moved.balanceCents,
      bonusPercent: null,
      bonusCapCents: null,
      message: `${formatMoney(amount, input.currency)} was added to your balance.`,
    };
  }
  const { balanceCents } = await getBalance(tx, input.userId);
  return {
    kind: 'deposit_bonus',
    code: promo.code,
    creditedCents: 0,
    balanceCents,
    bonusPercent: promo.bonusPercent,
    bonusCapCents: Number(promo.bonusCapCents),
    message: `Your next deposit gets ${withArticle(`${promo.bonusPercent}%`)} bonus, up to ${formatMoney(Number(promo.bonusCapCents), input.currency)}.`,
  };
}

export async function pendingBonus(db: DbOrTx, userId: string) {
  const [row] = await db
    .select({ code: promoCodes.code, bonusPercent: promoCodes.bonusPercent, bonusCapCents: promoCodes.bonusCapCents })
    .from(promoRedemptions)
    .innerJoin(promoCodes, eq(promoCodes.id, promoRedemptions.promoId))
    .where(and(eq(promoRedemptions.userId, userId), eq(promoRedemptions.status, 'pending_deposit')))
    .limit(1);
  return row ? { code: row.code, bonusPercent: row.bonusPercent ?? 0, bonusCapCents: Number(row.bonusCapCents ?? 0) } : null;
}

/**
 * Called by the payments service in the transaction that credits a successful deposit: turns a
 * waiting deposit-bonus redemption into a promo_credit entry. Returns the bonus credited.
 */
export async function applyDepositBonus(
  tx: Tx,
  input: { userId: string; depositId: string; amountCents: number; now?: Date },
): Promise<number> {
  const [waiting] = await tx
    .select({ r: promoRedemptions, p: promoCodes })
    .from(promoRedemptions)
    .innerJoin(promoCodes, eq(promoCodes.id, promoRedemptions.promoId))
    .where(and(eq(promoRedemptions.userId, input.userId), eq(promoRedemptions.status, 'pending_deposit')))
    .limit(1)
    .for('update', { of: promoRedemptions });
  if (!waiting) return 0;
  const pct = waiting.p.bonusPercent ?? 0;
  const cap = Number(waiting.p.bonusCapCents ?? 0);
  const bonus = Math.min(Math.floor((input.amountCents * pct) / 100), cap);
  const now = input.now ?? new Date();
  await tx
    .update(promoRedemptions)
    .set({ status: 'applied', creditedCents: bonus, depositId: input.depositId, appliedAt: now })
    .where(eq(promoRedemptions.id, waiting.r.id));
  if (bonus <= 0) return 0;
  await credit(tx, {
    userId: input.userId,
    amountCents: bonus,
    kind: 'promo_credit',
    referenceType: 'promo_redemption',
    referenceId: waiting.r.id,
    actorId: null,
    idempotencyKey: `promo:${waiting.p.id}`,
    memo: `Deposit bonus ${waiting.p.code} (${pct}% of deposit)`,
  });
  return bonus;
}
