import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Gift, Hourglass, LinkIcon, PackageOpen, ShieldCheck, UserPlus } from 'lucide-react';
import type { Invite } from '@shared/contracts/referrals';
import { Button, Notice, SkeletonText, buttonClasses } from '@web/components/ui';
import { useSiteConfig } from '@web/hooks/use-site-config';
import { ApiClientError } from '@web/lib/api';
import { errorText, retryText } from '@web/lib/api-errors';
import { inviteQuery } from './api';
import { Avatar } from './avatar';
import { offerHeadline, shareText } from './format';

/**
 * /invite/{code}: who invited you, the offer in plain words, and sign-up. Opening it makes the
 * server remember the code (a first-party cookie) until the account is created.
 */
export function InviteScreen({ code, signedIn }: { code: string; signedIn: boolean }) {
  const q = useQuery(inviteQuery(code));
  if (q.isPending) return <SkeletonText lines={5} label="Loading the invite" />;
  if (q.isError) {
    const err = q.error;
    if (err instanceof ApiClientError && err.status === 429) {
      return (
        <Shell title="Too many tries, wait a moment" icon={<Hourglass />}>
          <Notice tone="warning" title="Too many tries, wait a moment">
            This connection opened many invite links in a short time. {retryText(err.retryAfter)}
          </Notice>
          <div className="flex flex-wrap gap-3">
            <Button variant="secondary" onClick={() => void q.refetch()}>
              Try again
            </Button>
            <SignUpLinks signedIn={signedIn} />
          </div>
        </Shell>
      );
    }
    if (err instanceof ApiClientError && err.status === 404) {
      return (
        <Shell title="This invite link doesn't work" icon={<LinkIcon />}>
          <p className="text-zinc-300">
            The code may be mistyped, or the link may have been cut short. Ask your friend to send it again, or enter their code later on
            your referral page, before your first deposit. You can still create an account now.
          </p>
          <SignUpLinks signedIn={signedIn} />
        </Shell>
      );
    }
    return (
      <Shell title="We could not load this invite" icon={<LinkIcon />}>
        <Notice tone="danger" title="Something went wrong">
          {errorText(err)}
        </Notice>
        <div className="flex flex-wrap gap-3">
          <Button variant="secondary" onClick={() => void q.refetch()}>
            Try again
          </Button>
          <SignUpLinks signedIn={signedIn} />
        </div>
      </Shell>
    );
  }
  return <InviteOffer invite={q.data} signedIn={signedIn} />;
}

function InviteOffer({ invite, signedIn }: { invite: Invite; signedIn: boolean }) {
  const o = invite.offer;
  const share = shareText(o, 'inviter');
  return (
    <section aria-labelledby="invite-title" className="mx-auto max-w-xl space-y-6 py-4">
      <div className="flex items-center gap-4">
        <Avatar username={invite.inviter.username} image={invite.inviter.image} size="lg" />
        <div className="min-w-0">
          <p className="text-xs font-semibold tracking-widest text-fuchsia-300 uppercase">You are invited</p>
          <h1 id="invite-title" className="text-2xl font-bold tracking-tight text-white sm:text-3xl">
            <span className="break-all">{invite.inviter.username}</span> invited you
          </h1>
        </div>
      </div>
      <AboutShop />
      {o.enabled ? (
        <div className="space-y-2 rounded-2xl border border-violet-400/30 bg-violet-500/[0.08] p-5">
          <h2 className="flex items-start gap-2 text-lg font-semibold text-white">
            <Gift aria-hidden="true" className="mt-1 size-5 shrink-0 text-fuchsia-300" />
            {offerHeadline(o)}
          </h2>
          <p className="text-sm text-zinc-300">
            What you both get: the credit lands on your balance and on <span className="break-all">{invite.inviter.username}</span>’s after your
            deposits reach that amount. Create your account to start.
          </p>
          {share ? <p className="text-sm text-zinc-300">{share}</p> : null}
        </div>
      ) : (
        <Notice tone="info" live={false} title="No referral rewards right now">
          The referral programme is paused, so this invite carries no reward today. You are still welcome to join.
        </Notice>
      )}
      {signedIn ? (
        <Notice tone="info" live={false} title="Invites are for new accounts">
          You are already signed in. If you have not made a deposit yet, you can still enter this code ({invite.code}) on{' '}
          <Link to="/profile/referral" className="font-medium text-violet-200 underline underline-offset-2">
            your referral page
          </Link>
          .
        </Notice>
      ) : null}
      <SignUpLinks signedIn={signedIn} />
    </section>
  );
}

/** What the shop is, for a visitor who only knows a friend sent a link: drawn on the server too, so nothing here depends on the clock or locale. */
function AboutShop() {
  const { siteName } = useSiteConfig();
  return (
    <div className="space-y-4">
      <h2 className="text-lg font-semibold text-white">What is {siteName}?</h2>
      <ul className="space-y-3 text-sm text-zinc-300">
        <li className="flex items-start gap-3">
          <PackageOpen aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-violet-300" />
          <span>
            <strong className="text-white">Open packs of real trading cards on screen.</strong> Every card you pull is a real card we keep for
            you in our vault: keep it, sell it back for credit at once, or have it shipped to your door.
          </span>
        </li>
        <li className="flex items-start gap-3">
          <ShieldCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-emerald-300" />
          <span>
            <strong className="text-white">Fair by proof, not by promise.</strong> Every pack shows its full odds before you buy, and every
            opening can be checked afterwards from its seeds.{' '}
            <Link to="/fairness" className="font-medium text-violet-200 underline underline-offset-2">
              How it works
            </Link>
          </span>
        </li>
        <li className="flex items-start gap-3">
          <Gift aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-fuchsia-300" />
          <span>
            <strong className="text-white">Free daily drops</strong> for every verified member, with the draw published.
          </span>
        </li>
      </ul>
    </div>
  );
}

function SignUpLinks({ signedIn }: { signedIn: boolean }) {
  if (signedIn) {
    return (
      <Link to="/profile/referral" className={buttonClasses({ variant: 'secondary' })}>
        Go to your referral page
      </Link>
    );
  }
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
      <Link to="/sign-up" className={buttonClasses({ size: 'lg' })}>
        <UserPlus aria-hidden="true" className="size-5" /> Create your account
      </Link>
      <p className="text-sm text-zinc-400">
        Already have an account?{' '}
        <Link to="/sign-in" className="font-medium text-violet-300 underline underline-offset-2 hover:text-fuchsia-300">
          Sign in
        </Link>
      </p>
    </div>
  );
}

function Shell({ title, icon, children }: { title: string; icon: React.ReactNode; children: React.ReactNode }) {
  return (
    <section aria-labelledby="invite-title" className="mx-auto max-w-xl space-y-6 py-4">
      <div className="flex items-center gap-3">
        <span aria-hidden="true" className="rounded-xl bg-violet-500/15 p-3 text-violet-300 [&>svg]:size-6">
          {icon}
        </span>
        <h1 id="invite-title" className="text-2xl font-bold tracking-tight text-white sm:text-3xl">
          {title}
        </h1>
      </div>
      {children}
    </section>
  );
}
