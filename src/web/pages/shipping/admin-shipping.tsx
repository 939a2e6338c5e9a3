import { Link } from '@tanstack/react-router';
import { PageHeader, buttonClasses } from '@web/components/ui';
import { AdminShippingQueue } from '@web/features/shipping';

/** /admin/shipping */
export default function AdminShippingPage() {
  return (
    <>
      <PageHeader
        eyebrow="Shipping"
        title="Shipping queue"
        description="Shipments to work on, oldest first. Select several to mark them packing (or delivered) at once; open one to ship it with tracking."
        actions={
          <Link to="/admin/shipping/cards" className={buttonClasses({ variant: 'secondary' })}>
            Cards to pull
          </Link>
        }
      />
      <AdminShippingQueue />
    </>
  );
}
