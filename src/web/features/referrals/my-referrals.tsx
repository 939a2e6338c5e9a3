import { Link } from '@tanstack/react-router';
import { Gift, Users } from 'lucide-react';
import type { MyReferrals } from '@shared/contracts/referrals';
import { EmptyState, Money, Notice, Panel, SkeletonText } from '@web/components/ui';
import { formatDate } from '@web/lib/format';
import { useMyReferrals } from './api';
import { ClaimForm, VanityForm } from './code-forms';
import { REWARD_KIND_LABEL, STATUS_HELP, friendName, offerForInviter, offerTerms, shareText } from './format';
import { LoadError, ReferralStatusBadge } from './parts';
import { ShareLink } from './share-link';

/** /profile/referral: the link to share, codes, invited friends, rewards and the terms. */
export function MyReferralsScreen() {
  const q = useMyReferrals();
  if (q.isPending) return <SkeletonText lines={8} label="Loading your referrals" />;
  if (q.isError) return <LoadError what="your referrals" error={q.error} retry={() => void q.refetch()} />;
  return <MyReferralsView data={q.data} origin={window.location.origin} />;
}

export function MyReferralsView({ data, origin }: { data: MyReferrals; origin: string }) {
  const url = `${origin}${data.path}`;
  const o = data.offer;
  const share = shareText(o, 'you');
  return (
    <div className="space-y-6">
      <Panel
        id="referral-link"
        title="Invite friends"
        description={o.enabled ? `${offerForInviter(o)}${share ? ` ${share}` : ''}` : undefined}
      >
        {!o.enabled ? (
          <Notice tone="info" live={false} title="The programme is paused" className="mb-5">
            New invites earn no reward for now. Friends already invited keep the terms they joined under.
          </Notice>
        ) : null}
        <ShareLink url={url} code={data.code} />
      </Panel>

      <Totals data={data} />

      {data.canPickVanity ? (
        <Panel id="referral-vanity" title="Pick your own code" description="Swap the generated code for one that is easier to say. You can do this once.">
          <VanityForm />
        </Panel>
      ) : null}

      {data.referredBy ? (
        <Notice tone="info" live={false} title="You were invited">
          {friendName(data.referredBy.username, { capital: true })} invited you. Status: <ReferralStatusBadge status={data.referredBy.status} /> {STATUS_HELP[data.referredBy.status]}
        </Notice>
      ) : data.canClaim ? (
        <Panel id="referral-claim" title="Have a friend's code?" description="Enter it before your first deposit, and you both get the rewards when you qualify.">
          <ClaimForm />
        </Panel>
      ) : null}

      <Invitees data={data} />
      <Rewards data={data} />

      <Panel id="referral-terms" title="Terms of the programme">
        <ul className="list-disc space-y-2 pl-5 text-sm text-zinc-300">
          {offerTerms(o).map((t) => (
            <li key={t}>{t}</li>
          ))}
        </ul>
      </Panel>
    </div>
  );
}

function Totals({ data }: { data: MyReferrals }) {
  return (
    <section aria-labelledby="referral-totals" className="rounded-2xl border border-white/10 bg-surface/80 p-5">
      <h2 id="referral-totals" className="sr-only">
        Totals
      </h2>
      <dl className="grid grid-cols-3 gap-3 text-center">
        <div>
          <dt className="text-xs text-zinc-400">Earned</dt>
          <dd className="text-xl font-bold text-emerald-300">
            <Money cents={data.totals.earnedCents} currency={data.offer.currency} />
          </dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-400">Qualified friends</dt>
          <dd className="text-xl font-bold text-white tabular-nums">{data.totals.qualified}</dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-400">Pending friends</dt>
          <dd className="text-xl font-bold text-white tabular-nums">{data.totals.pending}</dd>
        </div>
      </dl>
    </section>
  );
}

function Invitees({ data }: { data: MyReferrals }) {
  return (
    <Panel id="referral-friends" title="Friends you invited">
      {data.invitees.length === 0 ? (
        <EmptyState icon={<Users />} title="No friend yet" description="Share your link: friends who sign up through it show up here." />
      ) : (
        <ul className="divide-y divide-white/5" aria-label="Friends you invited">
          {data.invitees.map((f) => (
            <li key={f.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-3">
              <span className={f.username === null ? 'min-w-0 flex-1 text-zinc-400 italic' : 'min-w-0 flex-1 font-medium break-all text-white'}>{friendName(f.username)}</span>
              <ReferralStatusBadge status={f.status} />
              <span className="w-full text-sm text-zinc-400">
                Joined <time dateTime={f.joinedAt}>{formatDate(f.joinedAt)}</time>
                {f.qualifiedAt ? (
                  <>
                    {' · '}qualified <time dateTime={f.qualifiedAt}>{formatDate(f.qualifiedAt)}</time>
                  </>
                ) : null}
                {' · '}
                {STATUS_HELP[f.status]}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

function Rewards({ data }: { data: MyReferrals }) {
  return (
    <Panel
      id="referral-rewards"
      title="Rewards earned"
      description={
        <>
          Each one is a line in your{' '}
          <Link to="/profile/history" className="text-violet-300 underline underline-offset-2 hover:text-violet-200">
            history
          </Link>{' '}
          (kind “Referral reward”).
        </>
      }
    >
      {data.rewards.length === 0 ? (
        <EmptyState icon={<Gift />} title="No reward yet" description="Rewards are paid when an invited friend's deposits reach the qualifying amount." />
      ) : (
        <ul className="divide-y divide-white/5" aria-label="Rewards earned">
          {data.rewards.map((r) => (
            <li key={r.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 py-3">
              <span className={r.amountCents < 0 || r.kind === 'clawback' ? 'font-semibold text-red-300' : 'font-semibold text-emerald-300'}>
                <Money cents={r.kind === 'clawback' ? -Math.abs(r.amountCents) : r.amountCents} currency={data.offer.currency} signed />
              </span>
              <span className="text-white">{REWARD_KIND_LABEL[r.kind]}</span>
              <span className="text-sm text-zinc-400">
                from <span className="break-all">{friendName(r.friendUsername)}</span> · <time dateTime={r.createdAt}>{formatDate(r.createdAt)}</time>
              </span>
              <span className="w-full text-sm">
                {r.journalEntryId ? (
                  <Link to="/profile/history" className="text-violet-300 underline underline-offset-2 hover:text-violet-200">
                    Ledger entry <span className="font-mono text-xs">{r.journalEntryId.slice(0, 8)}</span>
                  </Link>
                ) : (
                  <span className="text-zinc-400">No ledger entry (nothing was left to take back)</span>
                )}
                {r.shortfallCents > 0 ? (
                  <span className="ml-2 text-zinc-400">
                    · <Money cents={r.shortfallCents} currency={data.offer.currency} /> could not be taken back
                  </span>
                ) : null}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
