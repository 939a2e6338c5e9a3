import { PageHeader } from '@web/components/ui';
import { AdminPromoList } from '@web/features/wallet';

export default function AdminPromoPage() {
  return (
    <>
      <PageHeader eyebrow="Money" title="Promo codes" description="Credit grants and deposit bonuses, with how often each was used." />
      <AdminPromoList />
    </>
  );
}
