import { PageHeader } from '@web/components/ui';
import { AdminOrigins, AdminShippingSettings } from '@web/features/shipping';

/** /admin/shipping/from: the origins, and the fee and country settings. */
export default function AdminShippingFromPage() {
  return (
    <>
      <PageHeader
        eyebrow="Shipping"
        title="Ship-from addresses"
        description="The warehouses cards ship from, and what shipping costs and where it goes. Changes are audited."
      />
      <div className="space-y-6">
        <AdminOrigins />
        <AdminShippingSettings />
      </div>
    </>
  );
}
