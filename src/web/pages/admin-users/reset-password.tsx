import { useSearch } from '@tanstack/react-router';
import { emailSchema } from '@shared/contracts/account';
import { PageHeader } from '@web/components/ui';
import { AdminResetPasswordForm } from '@web/features/admin-users';

/** /admin/reset-password (?email= prefills, e.g. from a user's page) */
export default function AdminResetPasswordPage() {
  const search = useSearch({ strict: false }) as { email?: unknown };
  const email = emailSchema.safeParse(search.email).data ?? '';
  return (
    <>
      <PageHeader eyebrow="People" title="Send password reset" description="Help a user who cannot sign in: they get a link to choose a new password." />
      <AdminResetPasswordForm initialEmail={email} />
    </>
  );
}
