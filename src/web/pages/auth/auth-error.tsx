import type { ReactNode } from 'react';
import { Link, useSearch } from '@tanstack/react-router';
import { Ban, Clock, LinkIcon, ShieldAlert, TriangleAlert } from 'lucide-react';
import { buttonClasses } from '@web/components/ui';
import { AuthHeader, searchString } from '@web/features/auth/parts';
import { useSession } from '@web/features/auth/session';

type Reason = 'expired_link' | 'used_link' | 'invalid_token' | 'banned' | 'unknown';

/** Reason codes from our server, plus the raw codes Better Auth may append as ?error=. */
export function normaliseReason(raw: string | undefined): Reason {
  const v = (raw ?? '').toLowerCase();
  if (['expired_link', 'expired', 'token_expired', 'link_expired'].includes(v)) return 'expired_link';
  if (['used_link', 'used', 'token_used', 'link_used'].includes(v)) return 'used_link';
  if (['invalid_token', 'invalid', 'invalid_link', 'token_invalid'].includes(v)) return 'invalid_token';
  if (['banned', 'banned_user', 'suspended'].includes(v)) return 'banned';
  return 'unknown';
}

const COPY: Record<Reason, { title: string; icon: ReactNode; body: string; next: string }> = {
  expired_link: {
    title: 'This link has expired',
    icon: <Clock />,
    body: 'Links in our emails only work for a limited time, to keep your account safe.',
    next: 'Ask for a fresh link below. Use the newest email we send you — older links stop working.',
  },
  used_link: {
    title: 'This link was already used',
    icon: <LinkIcon />,
    body: 'Each link in our emails works once, and this one has been opened before — perhaps by you a moment ago, or by a mail scanner.',
    next: 'If you were confirming your email, it is probably confirmed: just sign in. If you were resetting your password, ask for a new link.',
  },
  invalid_token: {
    title: 'This link is not valid',
    icon: <TriangleAlert />,
    body: 'We could not recognise this link. Email apps sometimes cut long links in two, or a newer email replaced it.',
    next: 'Open the newest email from us and tap the button in it, or ask for a new link below.',
  },
  banned: {
    title: 'Your account is suspended',
    icon: <Ban />,
    body: 'An administrator suspended this account, so it cannot sign in for now. Your cards and credit are kept as they are.',
    next: 'The message you saw when signing in gives the reason and, if there is one, the end date. If you think this is a mistake, reply to any email from us and our support team will review it.',
  },
  unknown: {
    title: 'Something went wrong',
    icon: <ShieldAlert />,
    body: 'We could not finish that step with your account.',
    next: 'Try again from the start. If it keeps happening, contact support and tell us what you were doing.',
  },
};

export default function AuthErrorPage() {
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const reason = normaliseReason(searchString(search, 'reason') ?? searchString(search, 'error'));
  const { data: me } = useSession();
  const c = COPY[reason];
  const link = 'font-medium text-violet-300 underline underline-offset-2 hover:text-fuchsia-300';
  return (
    <>
      <AuthHeader title={c.title} icon={c.icon}>
        {c.body}
      </AuthHeader>
      <div className="rounded-xl border border-white/10 bg-white/[0.02] p-4">
        <h2 className="text-sm font-semibold text-white">What to do next</h2>
        <p className="mt-1.5 text-sm leading-relaxed text-zinc-300">{c.next}</p>
      </div>
      <div className="mt-6 grid gap-2">
        {reason === 'banned' ? (
          <Link to="/" className={buttonClasses({ size: 'lg' })}>
            Go to the front page
          </Link>
        ) : reason === 'used_link' ? (
          <Link to={me ? '/home' : '/sign-in'} className={buttonClasses({ size: 'lg' })}>
            {me ? 'Go to your home page' : 'Sign in'}
          </Link>
        ) : reason === 'unknown' ? (
          <Link to="/sign-in" className={buttonClasses({ size: 'lg' })}>
            Sign in
          </Link>
        ) : (
          <>
            <Link to="/confirm-request" className={buttonClasses({ size: 'lg' })}>
              New confirmation email
            </Link>
            <Link to="/reset-password" className={buttonClasses({ size: 'lg', variant: 'secondary' })}>
              New password reset link
            </Link>
          </>
        )}
      </div>
      {reason !== 'banned' ? (
        <p className="mt-6 text-center text-sm text-zinc-400">
          <Link to="/reset-password" className={link}>
            Forgot your password?
          </Link>
        </p>
      ) : null}
    </>
  );
}
