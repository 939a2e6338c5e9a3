import { useQuery } from '@tanstack/react-query';
import { Button, Notice, PageHeader, Skeleton, SkeletonText } from '@web/components/ui';
import { accountQuery, AccountFacts, EmailForm, UsernameForm } from '@web/features/account';

/** /profile/account: username, email and the account's dates. */
export default function ProfileAccountPage() {
  const q = useQuery(accountQuery);
  return (
    <>
      <PageHeader eyebrow="Your profile" title="Account" description="Your public username, your email address and your account's history." />
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
          <Skeleton className="h-40" />
          <SkeletonText lines={4} label="Loading your account" />
        </div>
      ) : (
        <div className="space-y-6">
          <UsernameForm key={`u-${q.data.username}`} account={q.data} />
          <EmailForm key={`e-${q.data.email}`} account={q.data} />
          <AccountFacts account={q.data} />
        </div>
      )}
    </>
  );
}
