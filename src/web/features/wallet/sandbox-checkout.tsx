import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useRouter } from '@tanstack/react-router';
import { CheckCircle2, CreditCard, XCircle } from 'lucide-react';
import { useState } from 'react';
import { formatMoney } from '@shared/money';
import { Button, buttonClasses, Card, Notice, SkeletonText } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { useMoneyAction } from '@web/hooks/use-money-action';
import { depositQuery, walletApi, walletKeys } from './api';
import { DEPOSIT_STATUS_LABEL, receiptNumber } from './format';
import { formatDateTime } from '@web/lib/format';
import { TestModeBadge, TestModeBanner } from './test-mode';

/**
 * The built-in sandbox provider's checkout: the user presses Pay (the deposit is credited) or
 * Decline (it fails). Always labelled as test mode.
 */
export function SandboxCheckout({ depositId }: { depositId: string }) {
  const qc = useQueryClient();
  const q = useQuery(depositQuery(depositId));
  const [error, setError] = useState<string | null>(null);
  const [paidBalance, setPaidBalance] = useState<number | null>(null);
  // Pay and Decline are one action: from the first click of either until the answer, neither sends.
  const action = useMoneyAction(async (kind: 'pay' | 'decline', key: string) =>
    kind === 'pay'
      ? { kind, paid: await walletApi.sandboxPay(depositId, key) }
      : { kind, declined: await walletApi.sandboxDecline(depositId) },
  );
  const busy = action.pending;
  const router = useRouter();
  // A deposit started from elsewhere ("Top up the difference") goes back there, as Stripe's redirect
  // does. The server accepted the path only if it is on this site; pushState cannot leave it either.
  const returnPath = q.data?.returnPath ?? null;
  const back = (result: 'success' | 'cancelled') =>
    returnPath ? `${returnPath}${returnPath.includes('?') ? '&' : '?'}deposit=${encodeURIComponent(depositId)}&result=${result}` : null;

  async function act(kind: 'pay' | 'decline', event: { detail: number }) {
    try {
      const answer = await action.run(kind, event);
      if (!answer) return;
      setError(null);
      if (answer.kind === 'pay') {
        const r = answer.paid;
        setPaidBalance(r.balanceCents);
        qc.setQueryData(walletKeys.deposit(depositId), r.deposit);
        const to = back('success');
        if (to) {
          await qc.invalidateQueries({ queryKey: walletKeys.all });
          router.history.push(to);
          return;
        }
      } else {
        qc.setQueryData(walletKeys.deposit(depositId), answer.declined.deposit);
      }
      void qc.invalidateQueries({ queryKey: walletKeys.all });
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Something went wrong. Try again.');
      if (err instanceof ApiClientError && err.status === 409) void q.refetch();
    }
  }

  const d = q.data;
  return (
    <div className="mx-auto w-full max-w-lg space-y-5">
      <TestModeBanner>
        This is the <strong>test-mode checkout</strong>. Pressing Pay adds site credit without charging any card.
      </TestModeBanner>
      <Card className="space-y-5">
        <div className="flex items-start justify-between gap-4">
          <div>
            <p className="text-sm text-zinc-400">Packvault test checkout</p>
            <h1 className="text-2xl font-bold text-white">{d ? `Pay ${formatMoney(d.amountCents, d.currency)}` : 'Checkout'}</h1>
          </div>
          <TestModeBadge />
        </div>

        {q.isError ? (
          <Notice
            tone="danger"
            title="This checkout could not be found"
            action={
              <Link to="/profile/billing" className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
                Back to billing
              </Link>
            }
          >
            {q.error.message}
          </Notice>
        ) : !d ? (
          <SkeletonText lines={4} label="Loading the checkout" />
        ) : (
          <>
            <dl className="grid grid-cols-2 gap-y-2 text-sm">
              <dt className="text-zinc-400">Receipt</dt>
              <dd className="text-right font-mono">{receiptNumber(d.id)}</dd>
              <dt className="text-zinc-400">Started</dt>
              <dd className="text-right">{formatDateTime(d.createdAt)}</dd>
              <dt className="text-zinc-400">Status</dt>
              <dd className="text-right">{DEPOSIT_STATUS_LABEL[d.status]}</dd>
            </dl>

            {d.provider !== 'sandbox' ? (
              <Notice tone="info" title="This deposit is paid on Stripe">
                It is not a test-mode deposit, so there is nothing to confirm here. Its status updates on the billing page
                once Stripe confirms the payment.
              </Notice>
            ) : d.status === 'pending' ? (
              <>
                <div className="rounded-xl border border-dashed border-white/15 p-4 text-sm text-zinc-300">
                  <p className="flex items-center gap-2 font-medium text-zinc-100">
                    <CreditCard aria-hidden="true" className="size-4" /> Test card •••• 4242
                  </p>
                  <p className="mt-1">Nothing is charged. Choose what the simulated bank answers.</p>
                </div>
                {error ? <Notice tone="danger">{error}</Notice> : null}
                <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
                  <Button variant="secondary" onClick={(e) => void act('decline', e)} loading={busy === 'decline'} disabled={busy !== null}>
                    Decline
                  </Button>
                  <Button size="lg" onClick={(e) => void act('pay', e)} loading={busy === 'pay'} loadingText="Paying…" disabled={busy !== null}>
                    Pay {formatMoney(d.amountCents, d.currency)} (test)
                  </Button>
                </div>
              </>
            ) : d.status === 'succeeded' ? (
              <Notice tone="success" title="Payment received (test mode)">
                <span className="flex items-center gap-2">
                  <CheckCircle2 aria-hidden="true" className="size-4" />
                  {formatMoney(d.amountCents, d.currency)} was added to your balance
                  {d.bonusCents > 0 ? ` plus a ${formatMoney(d.bonusCents, d.currency)} bonus` : ''}
                  {paidBalance !== null ? `; it is now ${formatMoney(paidBalance, d.currency)}` : ''}.
                </span>
              </Notice>
            ) : (
              <Notice tone="warning" title={d.status === 'failed' ? 'This deposit did not go through' : 'This deposit was refunded'}>
                <span className="flex items-center gap-2">
                  <XCircle aria-hidden="true" className="size-4" />
                  {d.failureReason ?? 'No money was added.'} Start a new deposit from the billing page if you want to try again.
                </span>
              </Notice>
            )}
            {d.status !== 'pending' || d.provider !== 'sandbox' ? (
              <div className="flex flex-wrap justify-end gap-2">
                {returnPath ? (
                  <Button onClick={() => router.history.push(back(d.status === 'succeeded' ? 'success' : 'cancelled')!)}>
                    {d.status === 'succeeded' ? 'Go back and finish your purchase' : 'Go back'}
                  </Button>
                ) : null}
                <Link to="/profile/history" className={buttonClasses({ variant: 'ghost' })}>
                  See history
                </Link>
                <Link to="/profile/billing" className={buttonClasses({ variant: returnPath ? 'secondary' : 'primary' })}>
                  Back to billing
                </Link>
              </div>
            ) : null}
          </>
        )}
      </Card>
    </div>
  );
}
