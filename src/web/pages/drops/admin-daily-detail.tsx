import { Link, useParams } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { PageHeader } from '@web/components/ui';
import { AdminDropScreen } from '@web/features/drops/admin-drop-detail';

/** /admin/daily/$id */
export default function AdminDailyDetailPage() {
  const { id } = useParams({ from: '/admin/admin/daily/$id' });
  return (
    <>
      <Link to="/admin/daily" className="mb-3 inline-flex items-center gap-1.5 text-sm text-zinc-400 hover:text-white">
        <ArrowLeft aria-hidden="true" className="size-4" /> Daily drops
      </Link>
      <PageHeader eyebrow="Daily drops" title="Daily drop" description="Its terms, entries, proof and winners. Every change is audited." />
      <AdminDropScreen key={id} id={id ?? ''} />
    </>
  );
}
