import { createHash } from 'node:crypto';
import { and, count, desc, eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { isSafeReturnPath, type Deposit } from '../../../shared/contracts/wallet.ts';
import { formatMoney } from '../../../shared/money.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { deposits, paymentEvents } from '../../db/schema/payments.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import { notify } from '../notifications/service.ts';
import { applyDepositBonus } from '../promo/service.ts';
import { onDepositRefunded, onDepositSucceeded } from '../referrals/qualification.ts';
import { activeSelfExclusion, assertCanDeposit, PENDING_DEPOSIT_TTL_MS } from '../responsible-play/service.ts';
import { clearingAccount, credit, debit, lockBalance } from '../wallet/service.ts';
import { metricsFor } from '../metrics/metrics.ts';
import type { PaymentProvider } from './provider.ts';
import { instantText } from '../../../shared/words.ts';

/**
 * Deposits. A deposit is created pending; only the provider's confirmation credits it — the
 * sandbox Pay button or Stripe's signed webhook — with a conditional status UPDATE
 * (pending → succeeded) in the same transaction as the credit, so it is credited at most once.
 */

type DepositRow = typeof deposits.$inferSelect;

export function toDeposit(row: DepositRow): Deposit {
  return {
    id: row.id,
    amountCents: Number(row.amountCents),
    bonusCents: Number(row.bonusCents),
    refundedCents: Number(row.refundedCents),
    currency: row.currency,
    status: row.status,
    provider: row.provider,
    testMode: row.testMode,
    failureReason: row.failureReason,
    returnPath: row.returnPath,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}

export interface DepositSettings {
  currency: string;
  minCents: number;
  maxCents: number;
}

/** Creates a pending deposit and starts the provider's checkout, in the caller's transaction. */
export async function createDeposit(
  tx: Tx,
  provider: PaymentProvider,
  settings: DepositSettings,
  input: { userId: string; amountCents: number; returnPath?: string | null; now?: Date },
): Promise<{ deposit: Deposit; checkoutUrl: string }> {
  const { userId, amountCents } = input;
  // The route validates it too; checked here as well because the stored path becomes a redirect.
  const returnPath = input.returnPath ?? null;
  if (returnPath !== null && !isSafeReturnPath(returnPath)) {
    throw badRequest('Some fields need attention.', { returnPath: ['Use a path on this site, such as /shop/…'] });
  }
  if (amountCents < settings.minCents || amountCents > settings.maxCents) {
    throw badRequest('Some fields need attention.', {
      amountCents: [
        `Deposit between ${formatMoney(settings.minCents, settings.currency)} and ${formatMoney(settings.maxCents, settings.currency)}.`,
      ],
    });
  }
  // Serializes this user's deposit requests so two cannot pass the same limit together.
  await lockBalance(tx, userId);
  await assertCanDeposit(tx, userId, amountCents, settings.currency, input.now);
  const [row] = await tx
    .insert(deposits)
    .values({ userId, amountCents, currency: settings.currency, provider: provider.name, testMode: provider.testMode, returnPath })
    .returning();
  let dep = row!;
  const start = await provider.startCheckout({ depositId: dep.id, userId, amountCents, currency: settings.currency, returnPath });
  if (start.providerRef) {
    [dep] = (await tx
      .update(deposits)
      .set({ providerRef: start.providerRef })
      .where(eq(deposits.id, dep.id))
      .returning()) as [DepositRow];
  }
  return { deposit: toDeposit(dep), checkoutUrl: start.checkoutUrl };
}

export async function listDeposits(db: DbOrTx, userId: string, page: number, pageSize: number) {
  const where = eq(deposits.userId, userId);
  const [rows, [total]] = await Promise.all([
    db.select().from(deposits).where(where).orderBy(desc(deposits.createdAt), desc(deposits.id)).limit(pageSize).offset((page - 1) * pageSize),
    db.select({ n: count() }).from(deposits).where(where),
  ]);
  return { deposits: rows.map(toDeposit), page, pageSize, total: Number(total?.n ?? 0) };
}

/** A user's own deposit (404 for anyone else's, so ids cannot be probed). */
export async function getOwnDeposit(db: DbOrTx, userId: string, depositId: string): Promise<Deposit> {
  const [row] = await db
    .select()
    .from(deposits)
    .where(and(eq(deposits.id, depositId), eq(deposits.userId, userId)));
  if (!row) throw notFound('No deposit with this id on your account.');
  return toDeposit(row);
}

/**
 * pending → succeeded, then credit the deposit (and any waiting deposit bonus). Returns null when
 * the deposit was not pending any more, i.e. it was already handled.
 */
export async function succeedDeposit(
  deps: Deps,
  tx: Tx,
  depositId: string,
  opts: { actorId: string | null; paymentIntentId?: string | null; payerFingerprint?: string | null; now?: Date },
): Promise<DepositRow | null> {
  const now = opts.now ?? new Date();
  const [dep] = await tx
    .update(deposits)
    .set({
      status: 'succeeded',
      completedAt: now,
      updatedAt: now,
      ...(opts.paymentIntentId ? { paymentIntentId: opts.paymentIntentId } : {}),
      ...(opts.payerFingerprint ? { payerFingerprint: opts.payerFingerprint } : {}),
    })
    .where(and(eq(deposits.id, depositId), eq(deposits.status, 'pending')))
    .returning();
  if (!dep) return null;
  const amount = Number(dep.amountCents);
  await credit(tx, {
    userId: dep.userId,
    amountCents: amount,
    kind: 'deposit',
    counter: clearingAccount(dep.provider),
    referenceType: 'deposit',
    referenceId: dep.id,
    actorId: opts.actorId,
    idempotencyKey: `deposit:${dep.id}`,
    memo: dep.testMode ? 'TEST MODE deposit (no real money)' : `Card deposit via ${dep.provider}`,
  });
  const bonus = await applyDepositBonus(tx, { userId: dep.userId, depositId: dep.id, amountCents: amount, now });
  // The friend's balance is locked by the credit above: the referral row next, then the referrer.
  await onDepositSucceeded(deps, tx, { id: dep.id, userId: dep.userId }, now);
  await notify(deps, tx, dep.userId, 'deposit_credited', { depositId: dep.id, amountCents: amount, currency: dep.currency }, { dedupeKey: `deposit:${dep.id}` });
  // Counted before the caller commits: a commit that then fails (rare) leaves the counter one ahead.
  metricsFor(deps).depositCredited();
  if (bonus > 0) {
    const [withBonus] = await tx.update(deposits).set({ bonusCents: bonus }).where(eq(deposits.id, dep.id)).returning();
    return withBonus!;
  }
  return dep;
}

export async function failDeposit(tx: DbOrTx, depositId: string, reason: string, now = new Date()): Promise<DepositRow | null> {
  const [dep] = await tx
    .update(deposits)
    .set({ status: 'failed', failureReason: reason, updatedAt: now, completedAt: now })
    .where(and(eq(deposits.id, depositId), eq(deposits.status, 'pending')))
    .returning();
  return dep ?? null;
}

// Sandbox ------------------------------------------------------------------------------------

async function ownSandboxDeposit(tx: Tx, userId: string, depositId: string) {
  const [row] = await tx
    .select()
    .from(deposits)
    .where(and(eq(deposits.id, depositId), eq(deposits.userId, userId)))
    .for('update');
  if (!row) throw notFound('No deposit with this id on your account.');
  if (row.provider !== 'sandbox') throw new AppError(409, 'not_sandbox', 'This deposit is not a test-mode deposit.');
  return row;
}

function notPending(row: DepositRow) {
  return new AppError(
    409,
    'deposit_not_pending',
    row.status === 'succeeded'
      ? 'This deposit was already paid.'
      : `This deposit is ${row.status}${row.failureReason ? ` (${row.failureReason})` : ''}. Start a new deposit from the billing page.`,
  );
}

/**
 * Who paid on the sandbox checkout: a hash of the test card number typed (digits only), so two
 * accounts paying with the same test card look like one payer (the referral self-check). Null
 * when no card was given.
 */
export function sandboxPayerFingerprint(cardNumber: string | null | undefined): string | null {
  const digits = (cardNumber ?? '').replace(/\D/g, '');
  if (!digits) return null;
  return `sandbox:${createHash('sha256').update(digits).digest('hex')}`;
}

/** The sandbox checkout's Pay button (optionally with the test card number typed). */
export async function sandboxPay(deps: Deps, tx: Tx, userId: string, depositId: string, now = new Date(), cardNumber?: string | null) {
  const row = await ownSandboxDeposit(tx, userId, depositId);
  if (row.status !== 'pending') throw notPending(row);
  if (now.getTime() - row.createdAt.getTime() > PENDING_DEPOSIT_TTL_MS) {
    // Not inside this transaction: the refusal below rolls it back, the expiry must stay.
    throw new ExpiredDeposit(row.id);
  }
  const ex = await activeSelfExclusion(tx, userId, now);
  if (ex) {
    throw new AppError(403, 'self_excluded', `You have excluded yourself until ${instantText(ex.endsAt)}, so depositing is blocked until then.`);
  }
  const dep = await succeedDeposit(deps, tx, depositId, { actorId: userId, now, payerFingerprint: sandboxPayerFingerprint(cardNumber) });
  return toDeposit(dep!);
}

export class ExpiredDeposit extends Error {
  constructor(readonly depositId: string) {
    super('deposit expired');
  }
}

export const expiredError = () =>
  new AppError(409, 'deposit_expired', 'This checkout expired after an hour. Start a new deposit from the billing page.');

export async function sandboxDecline(tx: Tx, userId: string, depositId: string, now = new Date()) {
  const row = await ownSandboxDeposit(tx, userId, depositId);
  if (row.status !== 'pending') throw notPending(row);
  const dep = await failDeposit(tx, depositId, 'Declined on the test checkout', now);
  return toDeposit(dep!);
}

// Stripe webhook -------------------------------------------------------------------------------

async function depositForSession(tx: Tx, session: Stripe.Checkout.Session) {
  const [row] = await tx
    .select()
    .from(deposits)
    .where(and(eq(deposits.provider, 'stripe'), eq(deposits.providerRef, session.id)))
    .for('update');
  return row ?? null;
}

function paymentIntentId(v: string | { id: string } | null | undefined): string | null {
  if (!v) return null;
  return typeof v === 'string' ? v : v.id;
}

/** The credited Stripe deposit of a payment intent, locked; null (logged) when there is none. */
async function creditedDepositOf(
  tx: Tx,
  intent: Parameters<typeof paymentIntentId>[0],
  what: 'refund' | 'dispute',
  eventId: string,
  log: Logger,
): Promise<DepositRow | null> {
  const pi = paymentIntentId(intent);
  if (!pi) return null;
  const [dep] = await tx
    .select()
    .from(deposits)
    .where(and(eq(deposits.provider, 'stripe'), eq(deposits.paymentIntentId, pi)))
    .for('update');
  if (!dep || (dep.status !== 'succeeded' && dep.status !== 'refunded')) {
    log.warn(`stripe: ${what} for an unknown or uncredited deposit`, { paymentIntent: pi, eventId });
    return null;
  }
  return dep;
}

export type WebhookOutcome = 'duplicate' | 'ignored' | 'credited' | 'failed' | 'refunded' | 'noop';

/**
 * Processes one verified Stripe event exactly once: the event id is inserted in the same
 * transaction as its effect, and a concurrent redelivery waits on that unique key and then
 * finds it done.
 */
export async function handleStripeEvent(deps: Deps, tx: Tx, event: Stripe.Event, log: Logger): Promise<WebhookOutcome> {
  const fresh = await tx
    .insert(paymentEvents)
    .values({ provider: 'stripe', eventId: event.id, type: event.type })
    .onConflictDoNothing()
    .returning({ id: paymentEvents.eventId });
  if (fresh.length === 0) return 'duplicate';

  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = event.data.object;
      const dep = await depositForSession(tx, session);
      if (!dep) {
        log.warn('stripe: session for an unknown deposit', { sessionId: session.id, eventId: event.id });
        return 'ignored';
      }
      if (session.payment_status !== 'paid' && session.payment_status !== 'no_payment_required') {
        // Async payment methods complete the session first and pay later.
        if (session.payment_intent) {
          await tx.update(deposits).set({ paymentIntentId: paymentIntentId(session.payment_intent), updatedAt: new Date() }).where(eq(deposits.id, dep.id));
        }
        return 'noop';
      }
      if (session.amount_total !== null && session.amount_total !== Number(dep.amountCents)) {
        log.error('stripe: paid amount differs from the deposit', { depositId: dep.id, paid: session.amount_total });
        throw new Error('Stripe session amount does not match the deposit');
      }
      // Who paid: the Stripe customer when the session has one. The card's own fingerprint would
      // need another API call (retrieve the PaymentIntent's payment method) inside this webhook
      // transaction; not done, so two accounts paying with one card as guests are not matched.
      const customer = typeof session.customer === 'string' ? session.customer : (session.customer?.id ?? null);
      const done = await succeedDeposit(deps, tx, dep.id, {
        actorId: null,
        paymentIntentId: paymentIntentId(session.payment_intent),
        payerFingerprint: customer ? `stripe:${customer}` : null,
      });
      return done ? 'credited' : 'noop';
    }
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired': {
      const session = event.data.object;
      const dep = await depositForSession(tx, session);
      if (!dep) return 'ignored';
      const failed = await failDeposit(
        tx,
        dep.id,
        event.type === 'checkout.session.expired' ? 'Checkout expired' : 'Payment failed',
      );
      return failed ? 'failed' : 'noop';
    }
    case 'charge.refunded': {
      const charge = event.data.object;
      const dep = await creditedDepositOf(tx, charge.payment_intent, 'refund', event.id, log);
      if (!dep) return 'ignored';
      return (await refundDeposit(deps, tx, dep, charge.amount_refunded)) ? 'refunded' : 'noop';
    }
    case 'charge.dispute.created': {
      // A dispute is handled like a refund of the disputed amount (on top of what was already
      // refunded): the money is taken back, never below zero, and a referral it qualified is
      // reversed. Kept simple: a dispute later won does not give anything back (an admin adjusts).
      const dispute = event.data.object;
      const dep = await creditedDepositOf(tx, dispute.payment_intent, 'dispute', event.id, log);
      if (!dep) return 'ignored';
      await tx.update(deposits).set({ failureReason: `Disputed (${dispute.reason ?? 'no reason given'})`, updatedAt: new Date() }).where(eq(deposits.id, dep.id));
      const disputed = Number(dep.refundedCents) + dispute.amount;
      return (await refundDeposit(deps, tx, dep, disputed, { disputed: true })) ? 'refunded' : 'noop';
    }
    default:
      return 'ignored';
  }
}

/**
 * Takes back what the provider refunded (cumulative `amountRefunded`), plus the deposit bonus
 * once the deposit is fully refunded. The balance never goes below zero: if the user already spent
 * the money, we take what is left and note the shortfall in the entry's memo.
 */
export async function refundDeposit(deps: Deps, tx: Tx, dep: DepositRow, amountRefunded: number, opts: { disputed?: boolean } = {}): Promise<boolean> {
  const amount = Number(dep.amountCents);
  const already = Number(dep.refundedCents);
  const refundedNow = Math.min(amountRefunded, amount);
  const delta = refundedNow - already;
  if (delta <= 0) return false;
  const full = refundedNow >= amount;
  const owed = delta + (full ? Number(dep.bonusCents) : 0);
  const available = await lockBalance(tx, dep.userId);
  const take = Math.min(owed, available);
  if (take > 0) {
    await debit(tx, {
      userId: dep.userId,
      amountCents: take,
      kind: 'refund',
      counter: clearingAccount(dep.provider),
      referenceType: 'deposit',
      referenceId: dep.id,
      actorId: null,
      idempotencyKey: `deposit-refund:${dep.id}:${refundedNow}`,
      memo:
        take < owed
          ? `Card ${opts.disputed ? 'dispute' : 'refund'} of the deposit; ${formatMoney(owed - take, dep.currency)} could not be taken back (already spent)`
          : `Card refund of the deposit${full && Number(dep.bonusCents) > 0 ? ' (bonus included)' : ''}`,
    });
  }
  await tx
    .update(deposits)
    .set({ refundedCents: refundedNow, status: full ? 'refunded' : dep.status, updatedAt: new Date() })
    .where(eq(deposits.id, dep.id));
  // A referral this deposit qualified is reversed and its rewards taken back (balance locked above).
  await onDepositRefunded(tx, { id: dep.id, userId: dep.userId });
  return true;
}
