import { Link, useParams } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { PageHeader } from '@web/components/ui';
import { AdminShipmentScreen } from '@web/features/shipping';

/** /admin/shipping/$id */
export default function AdminShipmentPage() {
  const { id } = useParams({ from: '/admin/admin/shipping/$id' });
  return (
    <>
      <Link to="/admin/shipping" className="mb-3 inline-flex items-center gap-1.5 text-sm text-zinc-400 hover:text-white print:hidden">
        <ArrowLeft aria-hidden="true" className="size-4" /> Shipping queue
      </Link>
      <PageHeader className="print:hidden" eyebrow="Shipping" title="Shipment" description="Address, cards, fee and history. Every action is audited and the user is told." />
      <AdminShipmentScreen key={id} id={id ?? ''} />
    </>
  );
}
