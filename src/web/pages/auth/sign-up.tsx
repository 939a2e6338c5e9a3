import { Link, useRouter } from '@tanstack/react-router';
import { Sparkles } from 'lucide-react';
import { AuthHeader, hrefWith } from '@web/features/auth/parts';
import { SignUpForm } from '@web/features/auth/sign-up-form';
import { InvitedByNotice } from '@web/features/referrals/invited-by-notice';
import { useSiteConfig } from '@web/hooks/use-site-config';

export default function SignUpPage() {
  const { siteName } = useSiteConfig();
  const router = useRouter();
  return (
    <>
      <AuthHeader title="Create your account" icon={<Sparkles />}>
        Open packs, keep real cards in your vault and enter the free daily drop. We will email you a link to confirm
        your address.
      </AuthHeader>
      <InvitedByNotice />
      <SignUpForm onSignedUp={(email) => router.history.push(hrefWith('/confirm-request', { email, sent: '1' }))} />
      <p className="mt-6 text-center text-sm text-zinc-400">
        Already on {siteName}?{' '}
        <Link to="/sign-in" className="font-medium text-violet-300 underline underline-offset-2 hover:text-fuchsia-300">
          Sign in
        </Link>
      </p>
    </>
  );
}
