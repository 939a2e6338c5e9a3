import { useNavigate, useSearch } from '@tanstack/react-router';
import { PageHeader } from '@web/components/ui';
import { useSession } from '@web/features/auth/session';
import { MyMarket } from '@web/features/market/my-market';

/** /profile/market: the user's listings and sales, and offers both ways. */
export default function ProfileMarketPage() {
  const session = useSession();
  const search = useSearch({ from: '/chrome/profile/profile/market' });
  const navigate = useNavigate({ from: '/profile/market' });
  return (
    <>
      <PageHeader
        eyebrow="Your profile"
        title="Market"
        description="The cards you have listed on the market, what you have sold, and the offers and swaps you made and received. Change a price or delist a card here, or from your vault."
      />
      <MyMarket
        userId={session.data?.user.id ?? null}
        tab={search.tab ?? 'listings'}
        onTabChange={(t) => void navigate({ search: t === 'listings' ? {} : { tab: t }, replace: true })}
      />
    </>
  );
}
