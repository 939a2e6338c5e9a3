import { Link, useParams } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { PageHeader } from '@web/components/ui';
import { AdminOriginScreen } from '@web/features/shipping';

/** /admin/shipping/from/$id */
export default function AdminShippingFromDetailPage() {
  const { id } = useParams({ from: '/admin/admin/shipping/from/$id' });
  return (
    <>
      <Link to="/admin/shipping/from" className="mb-3 inline-flex items-center gap-1.5 text-sm text-zinc-400 hover:text-white">
        <ArrowLeft aria-hidden="true" className="size-4" /> All origins
      </Link>
      <PageHeader eyebrow="Shipping" title="Ship-from address" description="Edit the warehouse's address, archive it, or make it the default." />
      <AdminOriginScreen key={id} id={id ?? ''} />
    </>
  );
}
