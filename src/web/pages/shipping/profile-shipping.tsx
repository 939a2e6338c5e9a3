import { PageHeader } from '@web/components/ui';
import { AddressesPanel, ShipmentsPanel } from '@web/features/shipping';

/** /profile/shipping: addresses and shipments. */
export default function ProfileShippingPage() {
  return (
    <>
      <PageHeader
        eyebrow="Your profile"
        title="Shipping"
        description="Your addresses and the cards on their way to you. To ship cards, select them in your vault."
      />
      <div className="space-y-6">
        <ShipmentsPanel />
        <AddressesPanel />
      </div>
    </>
  );
}
