import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Button, Notice, PageHeader, Skeleton, SkeletonText, toast } from '@web/components/ui';
import {
  accountQuery,
  DataExportPanel,
  DeleteAccountPanel,
  PasswordForm,
  SessionsPanel,
  TwoFactorPanel,
} from '@web/features/account';
import { sessionQueryOptions } from '@web/features/auth/session';
import { balanceQuery, ResponsiblePlaySection } from '@web/features/wallet';

import { api } from '@web/lib/api';
import { useSiteConfig } from '@web/hooks/use-site-config';

/**
 * /profile/privacy-and-security: password, two-factor, sessions, responsible play (from the
 * wallet feature), data export and account deletion.
 */
export default function ProfilePrivacyPage() {
  const q = useQuery(accountQuery);
  const qc = useQueryClient();
  const navigate = useNavigate();
  const { siteName } = useSiteConfig();
  // What deletion would lose, said before it: the balance and the vault's count and value.
  const balance = useQuery(balanceQuery);
  const vault = useQuery({
    queryKey: ['collection', 'vault-total'],
    queryFn: ({ signal }) => api.get('/api/collection', { query: { pageSize: 1 }, signal }),
  });
  const holdings =
    balance.data && vault.data
      ? { balanceCents: balance.data.balanceCents, currency: balance.data.currency, vaultCount: vault.data.vault.count, vaultValueCents: vault.data.vault.valueCents }
      : null;

  // The server already cleared the cookie and every session; forget this identity here too.
  const onDeleted = async () => {
    qc.setQueryData(sessionQueryOptions.queryKey, null);
    qc.removeQueries({ predicate: (query) => query.queryKey[0] !== 'session' && query.queryKey[0] !== 'config' });
    toast.success('Your account was deleted', 'You were signed out everywhere. Thank you for playing.');
    await navigate({ to: '/', replace: true });
  };

  return (
    <>
      <PageHeader
        eyebrow="Your profile"
        title="Privacy and security"
        description="Your password, two-factor, where you are signed in, your limits, and your data."
      />
      {q.isError ? (
        <Notice
          tone="danger"
          title="Your account could not load"
          action={
            <Button size="sm" variant="secondary" onClick={() => void q.refetch()}>
              Try again
            </Button>
          }
        >
          {q.error.message} If this keeps happening, sign out and back in.
        </Notice>
      ) : !q.data ? (
        <div className="space-y-6" aria-busy="true">
          <Skeleton className="h-48" />
          <SkeletonText lines={5} label="Loading your security settings" />
        </div>
      ) : (
        <div className="space-y-6">
          <PasswordForm />
          <TwoFactorPanel account={q.data} siteName={siteName} />
          <SessionsPanel />
          <ResponsiblePlaySection />
          <DataExportPanel />
          <DeleteAccountPanel account={q.data} onDeleted={onDeleted} holdings={holdings} />
        </div>
      )}
    </>
  );
}
