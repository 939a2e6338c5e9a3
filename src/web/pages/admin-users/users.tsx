import { PageHeader } from '@web/components/ui';
import { UserList } from '@web/features/admin-users';

/** /admin/users */
export default function AdminUsersPage() {
  return (
    <>
      <PageHeader eyebrow="People" title="Users" description="Find an account by email or username; open it to ban, unban or reset two-factor." />
      <UserList />
    </>
  );
}
