import { PageHeader, SkeletonText } from '@web/components/ui';
import { AdminsManager } from '@web/features/admin-users';
import { useSession } from '@web/features/auth/session';

/** /admin/admins (owner only) */
export default function AdminAdminsPage() {
  const { data: me } = useSession();
  return (
    <>
      <PageHeader
        eyebrow="People"
        title="Admins"
        description="Who can open the back office. Admins need two-factor; promotions and demotions are audited."
      />
      {me ? <AdminsManager viewer={{ id: me.user.id, role: me.user.role }} /> : <SkeletonText lines={4} label="Loading" />}
    </>
  );
}
