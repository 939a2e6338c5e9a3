import { Gift } from 'lucide-react';
import { formatMoney } from '@shared/money';
import { useRememberedInvite } from './api';
import { Avatar } from './avatar';

/**
 * On the sign-up page: "Invited by …" when this browser opened an invite link (the server
 * remembers the code in a cookie and records the referral when the account is created).
 */
export function InvitedByNotice() {
  const q = useRememberedInvite();
  const invite = q.data;
  if (!invite) return null;
  const o = invite.offer;
  return (
    <div role="status" className="mb-6 flex items-center gap-3 rounded-xl border border-violet-400/30 bg-violet-500/[0.08] p-3 text-sm text-zinc-200">
      <Avatar username={invite.inviter.username} image={invite.inviter.image} />
      <p className="min-w-0">
        <Gift aria-hidden="true" className="mr-1 inline size-4 text-fuchsia-300" />
        Invited by <strong className="break-all text-white">{invite.inviter.username}</strong>
        {o.enabled && o.refereeRewardCents > 0
          ? `: you'll get ${formatMoney(o.refereeRewardCents, o.currency)} after your first deposits reach ${formatMoney(o.qualifyingDepositCents, o.currency)}.`
          : '.'}
      </p>
    </div>
  );
}
