import { PageHeader } from '@web/components/ui';
import { useSession } from '@web/features/auth/session';
import { AdminMarket } from '@web/features/market/admin/admin-market';

/** /admin/market: the marketplace's figures, listings and trades. */
export default function AdminMarketPage() {
  const { data: me } = useSession();
  return (
    <>
      <PageHeader
        eyebrow="Money"
        title="Marketplace"
        description="Collectors' listings and trades, and what the market turns over. Remove a listing that breaks the rules: the seller is told your reason. The fee and price bounds are the owner's, in Settings."
      />
      <AdminMarket viewerId={me?.user.id ?? null} />
    </>
  );
}
