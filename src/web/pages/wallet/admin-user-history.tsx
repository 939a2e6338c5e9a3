import { Link, useParams } from '@tanstack/react-router';
import { buttonClasses, PageHeader } from '@web/components/ui';
import { LedgerView } from '@web/features/wallet';

export default function AdminUserHistoryPage() {
  const { id } = useParams({ from: '/admin/admin/users/$id/history' });
  const userId = id ?? '';
  return (
    <>
      <PageHeader
        eyebrow="Money"
        title="User history"
        description="Every ledger entry of this user. Filter, page through, or download as CSV."
        actions={
          <Link to="/admin/users/$id/balance" params={{ id: userId }} className={buttonClasses({ variant: 'secondary' })}>
            Balance and adjustments
          </Link>
        }
      />
      <LedgerView userId={userId} />
    </>
  );
}
