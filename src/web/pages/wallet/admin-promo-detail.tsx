import { Link, useParams } from '@tanstack/react-router';
import { buttonClasses, PageHeader } from '@web/components/ui';
import { AdminPromoDetail } from '@web/features/wallet';

export default function AdminPromoDetailPage() {
  const { id } = useParams({ from: '/admin/admin/promo/$id' });
  return (
    <>
      <PageHeader
        eyebrow="Money"
        title="Promo code"
        description="Edit the code's rules, deactivate it, and see who redeemed it."
        actions={
          <Link to="/admin/promo" className={buttonClasses({ variant: 'ghost' })}>
            All codes
          </Link>
        }
      />
      <AdminPromoDetail promoId={id ?? ''} />
    </>
  );
}
