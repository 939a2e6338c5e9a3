import { PageHeader, SkeletonText } from '@web/components/ui';
import { useSession } from '@web/features/auth/session';
import { MaintenanceAdmin } from '@web/features/maintenance/admin-maintenance';

/** /admin/maintenance (owner switches; other admins read) */
export default function AdminMaintenancePage() {
  const { data: me } = useSession();
  return (
    <>
      <PageHeader
        eyebrow="Overview"
        title="Maintenance"
        description="Take the shop down for visitors and users while you work on it. Admins with two-factor keep working; every switch is audited."
      />
      {me ? <MaintenanceAdmin isOwner={me.user.role === 'owner'} /> : <SkeletonText lines={4} label="Loading" />}
    </>
  );
}
