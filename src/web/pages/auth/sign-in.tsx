import { Link, useRouter, useSearch } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Notice } from '@web/components/ui';
import { hrefWith, searchString, AuthHeader } from '@web/features/auth/parts';
import { useSession } from '@web/features/auth/session';
import { refreshSession } from '@web/features/auth/session-actions';
import { SignInForm, type SignInOutcome } from '@web/features/auth/sign-in-form';
import { useRedirectTarget } from '@web/hooks/use-safe-redirect';
import { useSiteConfig } from '@web/hooks/use-site-config';

export default function SignInPage() {
  const { siteName } = useSiteConfig();
  const router = useRouter();
  const queryClient = useQueryClient();
  const redirect = useRedirectTarget();
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const { data: me } = useSession();

  const onDone = async (outcome: SignInOutcome) => {
    if (outcome.kind === 'second-factor') {
      router.history.push(hrefWith('/login-mfa', { redirect }));
      return;
    }
    if (outcome.kind === 'unverified') {
      router.history.push(hrefWith('/confirm-request', { email: outcome.email, sent: '1' }));
      return;
    }
    await refreshSession(queryClient);
    router.history.push(redirect);
  };

  return (
    <>
      <AuthHeader title="Sign in">
        Welcome back to {siteName}. Sign in to open packs and manage your vault.
      </AuthHeader>
      {me ? (
        <Notice tone="info" title={`You are signed in as ${me.user.username}`} className="mb-5" live={false}>
          <Link to="/home" className="text-white underline underline-offset-2">
            Go to your home page
          </Link>{' '}
          or sign in below as someone else.
        </Notice>
      ) : null}
      <SignInForm onDone={onDone} defaultEmail={searchString(search, 'email')} />
      <p className="mt-6 text-center text-sm text-zinc-400">
        New to {siteName}?{' '}
        <Link
          to="/sign-up"
          search={(redirect !== '/home' ? { redirect } : {}) as never}
          className="font-medium text-violet-300 underline underline-offset-2 hover:text-fuchsia-300"
        >
          Create an account
        </Link>
      </p>
    </>
  );
}
