import { PageHeader } from '@web/components/ui';
import { AdminPickList } from '@web/features/shipping';

/** /admin/shipping/cards */
export default function AdminShippingCardsPage() {
  return (
    <>
      <PageHeader
        eyebrow="Shipping"
        title="Cards to pull"
        description="Every card of a requested or packing shipment, grouped by origin and shelf. Check each one off as you pull it."
      />
      <AdminPickList />
    </>
  );
}
