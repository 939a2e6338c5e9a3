import { useParams } from '@tanstack/react-router';
import { PageHeader } from '@web/components/ui';
import { useSession } from '@web/features/auth/session';
import { AdminBalance } from '@web/features/wallet';

export default function AdminUserBalancePage() {
  const { id } = useParams({ from: '/admin/admin/users/$id/balance' });
  const { data: me } = useSession();
  return (
    <>
      <PageHeader eyebrow="Money" title="User balance" description="The balance, the latest entries, and audited adjustments." />
      <AdminBalance userId={id ?? ''} viewerId={me?.user.id} />
    </>
  );
}
