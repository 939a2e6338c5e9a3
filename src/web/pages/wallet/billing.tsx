import { useRouter, useSearch } from '@tanstack/react-router';
import { isSafeReturnPath } from '@shared/contracts/wallet';
import { PageHeader, Notice, buttonClasses } from '@web/components/ui';
import { BalanceSummary, DepositHistory, DepositPanel, PromoRedeem, useWalletLiveUpdates } from '@web/features/wallet';

/** /profile/billing: balance, deposit, promo code, deposit history with receipts. */
export default function BillingPage() {
  useWalletLiveUpdates();
  const router = useRouter();
  const search = useSearch({ strict: false }) as { deposit?: unknown; result?: unknown; return?: unknown };
  // Sent here to add funds for a purchase (a pack's "add funds in billing"): the deposit's checkout
  // comes back to that pack, where the purchase waits.
  const returnPath = typeof search.return === 'string' && search.return.startsWith('/shop/') && isSafeReturnPath(search.return) ? search.return : undefined;
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
        {returnPath ? (
          <Notice
            tone="info"
            live={false}
            title="Adding funds for a purchase"
            action={
              <a
                href={returnPath}
                // The path carries its own query (?buy=…), so it goes to history as it is, as the checkout's return does.
                onClick={(e) => {
                  e.preventDefault();
                  router.history.push(returnPath);
                }}
                className={buttonClasses({ variant: 'secondary', size: 'sm' })}
              >
                Back to the pack
              </a>
            }
          >
            After your deposit you go straight back to your pack to finish buying it.
          </Notice>
        ) : null}
        <BalanceSummary />
        <div className="grid gap-6 xl:grid-cols-[3fr_2fr]">
          <DepositPanel returnPath={returnPath} />
          <PromoRedeem />
        </div>
        <DepositHistory key={receipt ?? 'none'} initialReceipt={receipt} />
      </div>
    </>
  );
}
