import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Gift, UserPlus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { buttonClasses } from '@web/components/ui';
import { inviteQuery } from './api';
import { Avatar } from './avatar';
import { offerHeadline } from './format';

/**
 * On a page a member shared (a pull's page, `?ref=CODE`): who shared it and the offer, for a
 * visitor. Reading the invite is what makes the server remember the code (a first-party cookie)
 * until sign-up, so it is read by the browser only: the server-drawn page stays the same for every
 * link, and an unknown code is not a missing page. An unknown code shows nothing.
 */
export function SharedLinkInvite({ code }: { code: string }) {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const q = useQuery({ ...inviteQuery(code), enabled: mounted && code.length > 0 && code.length <= 32, retry: false });
  const invite = q.data;
  if (!invite) return null;
  const o = invite.offer;
  return (
    <aside
      aria-label={`Invitation from ${invite.inviter.username}`}
      className="mb-6 flex flex-col gap-3 rounded-2xl border border-violet-400/30 bg-violet-500/[0.08] p-4 sm:flex-row sm:items-center"
    >
      <div className="flex min-w-0 flex-1 items-center gap-3">
        <Avatar username={invite.inviter.username} image={invite.inviter.image} />
        <p className="min-w-0 text-sm text-zinc-200">
          <strong className="break-all text-white">{invite.inviter.username}</strong> shared this and invited you.{' '}
          {o.enabled ? (
            <span>
              <Gift aria-hidden="true" className="mr-1 inline size-4 text-fuchsia-300" />
              {offerHeadline(o)}
            </span>
          ) : null}
        </p>
      </div>
      <Link to="/invite/$referralCode" params={{ referralCode: invite.code }} className={buttonClasses({ size: 'sm' })}>
        <UserPlus aria-hidden="true" className="size-4" /> See the invite
      </Link>
    </aside>
  );
}
