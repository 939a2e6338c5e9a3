import { PageHeader } from '@web/components/ui';
import { AuditLog } from '@web/features/admin-users';

/** /admin/history: the audit log. */
export default function AdminHistoryPage() {
  return (
    <>
      <PageHeader eyebrow="Overview" title="Audit log" description="Every admin action: who, what, on which target, before and after, from which IP and when." />
      <AuditLog />
    </>
  );
}
