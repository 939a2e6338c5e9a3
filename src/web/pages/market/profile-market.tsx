import { PageHeader } from '@web/components/ui';
import { MyMarket } from '@web/features/market/my-market';

/** /profile/market: the seller's listings and sales. */
export default function ProfileMarketPage() {
  return (
    <>
      <PageHeader
        eyebrow="Your profile"
        title="Market"
        description="The cards you have listed on the market, and what you have sold. Change a price or delist a card here, or from your vault."
      />
      <MyMarket />
    </>
  );
}
