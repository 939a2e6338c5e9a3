import { useSearch } from '@tanstack/react-router';
import { PageHeader, Notice } from '@web/components/ui';
import { BalanceSummary, DepositHistory, DepositPanel, PromoRedeem, useWalletLiveUpdates } from '@web/features/wallet';

/** /profile/billing: balance, deposit, promo code, deposit history with receipts. */
export default function BillingPage() {
  useWalletLiveUpdates();
  const search = useSearch({ strict: false }) as { deposit?: unknown; result?: unknown };
  const receipt = typeof search.deposit === 'string' && /^[0-9a-f-]{36}$/i.test(search.deposit) ? search.deposit : null;
  return (
    <>
      <PageHeader
        eyebrow="Your profile"
        title="Billing"
        description="Your balance, deposits and promo codes. Every change also shows in your history."
      />
      <div className="space-y-6">
        {search.result === 'success' ? (
          <Notice tone="success" title="Thanks! Your payment is being confirmed">
            Your balance updates by itself as soon as the payment provider confirms it, usually within seconds.
          </Notice>
        ) : search.result === 'cancelled' ? (
          <Notice tone="warning" title="Checkout cancelled">
            Nothing was charged. You can start a new deposit below.
          </Notice>
        ) : null}
        <BalanceSummary />
        <div className="grid gap-6 xl:grid-cols-[3fr_2fr]">
          <DepositPanel />
          <PromoRedeem />
        </div>
        <DepositHistory key={receipt ?? 'none'} initialReceipt={receipt} />
      </div>
    </>
  );
}
