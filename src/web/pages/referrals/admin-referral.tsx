import { Link, useParams } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { PageHeader } from '@web/components/ui';
import { AdminReferralScreen } from '@web/features/referrals/admin-referral-detail';

/** /admin/referrals/$id */
export default function AdminReferralPage() {
  const { id } = useParams({ from: '/admin/admin/referrals/$id' });
  return (
    <>
      <Link to="/admin/referrals" className="mb-3 inline-flex items-center gap-1.5 text-sm text-zinc-400 hover:text-white">
        <ArrowLeft aria-hidden="true" className="size-4" /> Referrals
      </Link>
      <PageHeader eyebrow="Referrals" title="Referral" description="The two accounts, what it paid, and the terms it was made under." />
      <AdminReferralScreen key={id} id={id ?? ''} />
    </>
  );
}
