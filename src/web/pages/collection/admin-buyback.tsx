import { PageHeader } from '@web/components/ui';
import { AdminBuybacks, AdminRates } from '@web/features/collection';

export default function AdminBuybackPage() {
  return (
    <>
      <PageHeader
        eyebrow="Money"
        title="Buyback"
        description="Every card sold back: who, which cards, at what rate, for how much. Set the rates below; changes are audited."
      />
      <div className="space-y-8">
        <AdminBuybacks />
        <AdminRates />
      </div>
    </>
  );
}
