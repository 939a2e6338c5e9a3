import { Link, useParams } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { PageHeader, SkeletonText } from '@web/components/ui';
import { UserDetail } from '@web/features/admin-users';
import { useSession } from '@web/features/auth/session';

/** /admin/users/$id */
export default function AdminUserPage() {
  const { id } = useParams({ from: '/admin/admin/users/$id' });
  const { data: me } = useSession();
  return (
    <>
      <Link to="/admin/users" className="mb-3 inline-flex items-center gap-1.5 text-sm text-zinc-400 hover:text-white">
        <ArrowLeft aria-hidden="true" className="size-4" /> All users
      </Link>
      <PageHeader eyebrow="People" title="User" description="Profile, role, two-factor and sessions. Every change is written to the audit log." />
      {me && id ? <UserDetail key={id} id={id} viewer={{ id: me.user.id, role: me.user.role }} /> : <SkeletonText lines={5} label="Loading" />}
    </>
  );
}
