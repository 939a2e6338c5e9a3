import { Link, useParams } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { PageHeader } from '@web/components/ui';
import { AdminUserShipping } from '@web/features/shipping';

/** /admin/users/$id/shipping */
export default function AdminUserShippingPage() {
  const { id } = useParams({ from: '/admin/admin/users/$id/shipping' });
  return (
    <>
      <Link to="/admin/users/$id" params={{ id: id ?? '' }} className="mb-3 inline-flex items-center gap-1.5 text-sm text-zinc-400 hover:text-white">
        <ArrowLeft aria-hidden="true" className="size-4" /> User
      </Link>
      <PageHeader eyebrow="People" title="User shipping" description="The user's addresses, archived ones included, and every shipment." />
      <AdminUserShipping key={id} userId={id ?? ''} />
    </>
  );
}
