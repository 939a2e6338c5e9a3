import { PageHeader } from '@web/components/ui';
import { LedgerView, useWalletLiveUpdates } from '@web/features/wallet';

/** /profile/history: everything that touched the account's money. */
export default function HistoryPage() {
  useWalletLiveUpdates();
  return (
    <>
      <PageHeader
        eyebrow="Your profile"
        title="History"
        description="Every deposit, purchase, buyback, shipping fee and credit on your account, with the balance after each."
      />
      <LedgerView />
    </>
  );
}
