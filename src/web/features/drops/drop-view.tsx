import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from '@tanstack/react-router';
import { ArrowLeft, CalendarClock, Gift, Trophy, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { imageUrl } from '@shared/contracts/catalog-look';
import type { DropDetail, DropEntry } from '@shared/contracts/drops';
import { FIRST_SCREEN_TIMING } from '@shared/ssr-state';
import { Button, buttonClasses, Notice, Panel, Skeleton, SkeletonText } from '@web/components/ui';
import { useMoneyAction } from '@web/hooks/use-money-action';
import { ApiClientError } from '@web/lib/api';
import { errorText } from '@web/lib/api-errors';
import { formatCount, formatDateTime, plural, pluralNoun } from '@web/lib/format';
import { dropQuery, useDropsLiveUpdates, useEnterDrop } from './api';
import { Countdown, DropCard, dropPhase, PhaseBadge, PrizeCards, useTicker, type DropPhase } from './parts';
import { DropProofPanel } from './verify-drop';

/** Who is looking, as far as entering is concerned (the page reads the session). */
export interface DropViewer {
  emailVerified: boolean;
  staff: boolean;
}

const link = 'font-semibold text-white underline underline-offset-4 hover:text-fuchsia-200';

/** Whether the drop should have moved on by now (opened, or closed and drawn). */
function changeDue(d: DropDetail | undefined, now: number): boolean {
  if (!d) return false;
  const { status, opensAt, closesAt } = d.drop;
  if (status === 'drawing') return true;
  if (status === 'scheduled') return now >= Date.parse(opensAt);
  return status === 'open' && now >= Date.parse(closesAt);
}

/** /daily-drop/$id: one drop, live, from its countdown to its verified result. */
export function DropView({ id, viewer }: { id: string; viewer: DropViewer | null }) {
  useDropsLiveUpdates();
  const now = useTicker();
  // Realtime keeps this fresh; polling is only the fallback for the moments a change is due (the
  // opening, the draw) in case an event is missed. Re-evaluated on every tick's render.
  const q = useQuery({ ...dropQuery(id), refetchInterval: (query) => (changeDue(query.state.data, Date.now()) ? 3000 : false) });

  if (q.isPending) {
    return (
      <div role="status" aria-label="Loading the drop" className="space-y-6">
        <Skeleton className="h-9 w-2/3" />
        <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
          <Skeleton className="h-72" />
          <SkeletonText lines={5} />
        </div>
      </div>
    );
  }
  if (q.isError) {
    const missing = q.error instanceof ApiClientError && (q.error.status === 404 || q.error.code === 'validation_failed');
    return (
      <div className="space-y-4">
        <h1 className="text-2xl font-bold text-white">{missing ? 'Drop not found' : 'This drop could not be loaded'}</h1>
        <Notice tone={missing ? 'info' : 'danger'} action={missing ? null : <Button size="sm" variant="secondary" onClick={() => void q.refetch()}>Retry</Button>}>
          {missing ? 'There is no drop at this address. It may have been mistyped.' : 'Check your connection and try again.'}
        </Notice>
        <Link to="/daily-drop-winners" className={link}>
          See all daily drops
        </Link>
      </div>
    );
  }

  const d = q.data;
  const drop = d.drop;
  const p = dropPhase(drop, now);
  const entry = d.myEntry;

  return (
    <article className="space-y-8" aria-labelledby="drop-title">
      <div>
        <Link to="/daily-drop-winners" className="mb-4 inline-flex items-center gap-1 text-sm text-zinc-300 hover:text-white">
          <ArrowLeft aria-hidden="true" className="size-4" /> All daily drops
        </Link>
        <p className="mb-1 text-xs font-semibold tracking-widest text-fuchsia-300 uppercase">Daily drop</p>
        <div className="flex flex-wrap items-center gap-3">
          <h1 id="drop-title" className="text-2xl font-bold tracking-tight break-words text-white sm:text-3xl">
            {drop.title}
          </h1>
          <PhaseBadge phase={p} />
        </div>
      </div>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_24rem]">
        <div className="min-w-0 space-y-6">
          {drop.imageKey ? (
            <img
              src={imageUrl(drop.imageKey, 'full')}
              alt=""
              className="aspect-[16/9] w-full rounded-2xl object-cover ring-1 ring-white/10"
              fetchPriority="high"
              {...{ elementtiming: FIRST_SCREEN_TIMING }}
            />
          ) : null}
          {drop.description ? <p className="max-w-prose whitespace-pre-line text-zinc-200">{drop.description}</p> : null}
          <section aria-labelledby="prizes-title" className="space-y-3">
            <h2 id="prizes-title" className="flex items-center gap-2 text-lg font-semibold text-white">
              <Gift aria-hidden="true" className="size-5 text-fuchsia-300" /> The prize{drop.prizes.length > 1 || (drop.prizes[0]?.quantity ?? 0) > 1 ? 's' : ''}
            </h2>
            <p className="text-sm text-zinc-400">
              {plural(drop.winnerCount, 'winner')}; each prize goes straight into its winner's vault.
            </p>
            <PrizeCards drop={drop} refs={d.refs} size="md" />
          </section>
        </div>

        <aside className="min-w-0 space-y-4" aria-label="Entering">
          <StatusBox detail={d} phase={p} now={now} entry={entry ?? null} viewer={viewer} />
          <Eligibility detail={d} />
          <dl className="rounded-2xl border border-white/10 bg-surface/80 p-5 text-sm">
            <dt className="text-xs text-zinc-400">Commitment: SHA-256 of the secret seed, published when the drop opened</dt>
            <dd className="mt-1 font-mono text-xs break-all text-zinc-100" data-testid="commitment">
              {drop.commitment ?? 'Published when the drop opens.'}
            </dd>
            <dd className="mt-2 text-xs text-zinc-400">
              The seed is revealed at the close, so anyone can check the draw.{' '}
              <Link to="/fairness" className="underline underline-offset-4 hover:text-white">
                How the draw works
              </Link>
            </dd>
          </dl>
        </aside>
      </div>

      {p === 'closed' ? <Result detail={d} entry={entry ?? null} /> : null}
    </article>
  );
}

function StatusBox({ detail, phase, now, entry, viewer }: { detail: DropDetail; phase: DropPhase; now: number; entry: DropEntry | null; viewer: DropViewer | null }) {
  const drop = detail.drop;
  return (
    <div className="space-y-4 rounded-2xl border border-violet-400/30 bg-violet-500/[0.06] p-5">
      {phase === 'upcoming' ? (
        <Countdown to={drop.opensAt} now={now} label="Opens in" />
      ) : phase === 'open' ? (
        <Countdown to={drop.closesAt} now={now} label="Closes in" />
      ) : null}
      <p className="flex items-center gap-2 text-sm text-zinc-300">
        <CalendarClock aria-hidden="true" className="size-4 shrink-0" />
        <span>
          {phase === 'upcoming' ? (
            <>
              Opens <time dateTime={drop.opensAt}>{formatDateTime(drop.opensAt)}</time>, closes{' '}
            </>
          ) : phase === 'open' ? (
            'Closes '
          ) : (
            'Closed '
          )}
          <time dateTime={drop.closesAt}>{formatDateTime(drop.closesAt)}</time>
        </span>
      </p>
      <p className="flex items-center gap-2 text-sm text-zinc-200">
        <Users aria-hidden="true" className="size-4 shrink-0" />
        <span>
          <span className="font-semibold text-white tabular-nums" data-testid="entry-count">
            {formatCount(drop.entryCount)}
          </span>{' '}
          {pluralNoun(drop.entryCount, 'entry', 'entries')}
        </span>
      </p>
      <EnterArea detail={detail} phase={phase} entry={entry} viewer={viewer} />
    </div>
  );
}

function EnterArea({ detail, phase, entry, viewer }: { detail: DropDetail; phase: DropPhase; entry: DropEntry | null; viewer: DropViewer | null }) {
  const drop = detail.drop;
  const enter = useEnterDrop(drop.id);
  // Free and one per user on the server; the action still makes a double-click send one request.
  const action = useMoneyAction((_: null, _key: string) => enter.mutateAsync());
  const entering = action.busy || enter.isPending;
  const location = useLocation();

  if (entry) {
    return (
      <Notice tone="success" title="You're in">
        Your entry id is <code className="font-mono break-all text-white" data-testid="my-entry-id">{entry.entryId}</code>.{' '}
        {phase === 'closed' ? 'Find it in the entry list of the proof below.' : 'It will be in the entry list published at the close, so you can check the draw included you.'}
      </Notice>
    );
  }
  if (phase === 'cancelled') {
    return <Notice tone="warning" title="This drop was cancelled">Nobody can enter it and its prizes went back to stock.</Notice>;
  }
  if (phase === 'drawing') {
    return (
      <p role="status" className="text-sm text-zinc-300">
        Entries are closed. The winners are being drawn: the result appears here in a moment.
      </p>
    );
  }
  if (phase === 'closed') return <p className="text-sm text-zinc-300">Entries are closed. The result is below.</p>;
  if (!viewer) {
    return (
      <div className="space-y-2">
        <Link to="/sign-in" search={{ redirect: location.href }} className={buttonClasses({ size: 'lg', className: 'w-full' })}>
          Sign in to enter
        </Link>
        <p className="text-center text-sm text-zinc-400">
          Entry is free. New here?{' '}
          <Link to="/sign-up" className="text-violet-300 underline underline-offset-4">
            Create an account
          </Link>
        </p>
      </div>
    );
  }
  if (viewer.staff) {
    return (
      <Notice tone="info" title="Staff accounts cannot enter" live={false}>
        Staff can see seeds before they are revealed, so they never enter drops. Use a collector account to try the page.
      </Notice>
    );
  }
  if (phase === 'upcoming') {
    return <p className="text-sm text-zinc-300">Entering opens with the countdown. Come back then: entry is free.</p>;
  }
  const needsEmail = drop.requireVerifiedEmail && !viewer.emailVerified;
  return (
    <div className="space-y-3">
      {needsEmail ? (
        <Notice tone="warning" title="Confirm your email to enter" live={false}>
          This drop is for confirmed email addresses. Open the link we sent you, or{' '}
          <Link to="/confirm-request" className={link}>
            send a new confirmation email
          </Link>
          , then come back.
        </Notice>
      ) : null}
      <Button
        size="lg"
        className="w-full"
        onClick={(e) => void action.run(null, e).catch(() => undefined)}
        loading={entering}
        loadingText="Entering…"
        disabled={entering || needsEmail}
      >
        Enter, it's free
      </Button>
      {enter.isError ? <EnterError error={enter.error} redirect={location.href} /> : null}
    </div>
  );
}

/** The server's reason, plus what to do about it. */
function EnterError({ error, redirect }: { error: unknown; redirect: string }) {
  if (!(error instanceof ApiClientError)) return <Notice tone="danger">{errorText(error)}</Notice>;
  let next: ReactNode = null;
  switch (error.code) {
    case 'unauthorized':
      next = (
        <Link to="/sign-in" search={{ redirect }} className={link}>
          Sign in again
        </Link>
      );
      break;
    case 'email_not_verified':
      next = (
        <>
          Open the link we emailed you, or{' '}
          <Link to="/confirm-request" className={link}>
            send a new confirmation email
          </Link>
          .
        </>
      );
      break;
    case 'account_too_new':
      next = 'Until then, other drops may be open to you.';
      break;
    case 'self_excluded':
      next = (
        <>
          Your limits are in{' '}
          <Link to="/profile/privacy-and-security" className={link}>
            privacy and security
          </Link>
          .
        </>
      );
      break;
    case 'drop_not_open':
    case 'drop_closed':
    case 'drop_cancelled':
      next = 'The page has been refreshed with its current state.';
      break;
    case 'network_error':
      next = 'Press Enter again: a retry never makes a second entry.';
      break;
  }
  return (
    <Notice tone="danger" title="You could not enter">
      {errorText(error)} {next}
    </Notice>
  );
}

function Eligibility({ detail }: { detail: DropDetail }) {
  const drop = detail.drop;
  return (
    <Panel title="Who can enter" level={2}>
      <ul className="list-disc space-y-1 pl-5 text-sm text-zinc-300">
        <li>Free: no purchase necessary, one entry per person.</li>
        {drop.requireVerifiedEmail ? <li>A confirmed email address.</li> : null}
        {drop.minAccountAgeDays > 0 ? (
          <li>
            An account at least {plural(drop.minAccountAgeDays, 'day')} old.
          </li>
        ) : null}
        <li>Not self-excluded and not suspended.</li>
        <li>Staff cannot enter.</li>
      </ul>
      <p className="mt-3 text-sm">
        <Link to="/raffle-terms" className="text-violet-300 underline underline-offset-4 hover:text-white">
          Full raffle terms
        </Link>
      </p>
    </Panel>
  );
}

function Result({ detail, entry }: { detail: DropDetail; entry: DropEntry | null }) {
  const drop = detail.drop;
  return (
    <section aria-labelledby="result-title" className="space-y-4">
      <h2 id="result-title" className="flex items-center gap-2 text-xl font-semibold text-white">
        <Trophy aria-hidden="true" className="size-5 text-gold-300" /> The result
      </h2>
      {detail.myWin ? (
        <WinCelebration card={drop.winners.find((w) => w.place === detail.myWin!.place)?.card ?? null} />
      ) : entry ? (
        <Notice tone="info" title="Not this time" live={false}>
          Your entry was in the draw but was not drawn. Check it below, and try the next drop.
        </Notice>
      ) : null}
      {drop.winners.length === 0 ? (
        <p className="text-zinc-300">Nobody entered, so there is no winner and the prizes went back to stock.</p>
      ) : (
        <WinnerCards detail={detail} />
      )}
      <Panel level={3} title="Proof of the draw" description="Everything needed to recompute the winners. Verify redraws them in your browser.">
        <DropProofPanel drop={drop} myEntryId={entry?.entryId ?? null} />
      </Panel>
    </section>
  );
}

function WinnerCards({ detail }: { detail: DropDetail }) {
  const drop = detail.drop;
  return (
    <ol aria-label="Winners" className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-5">
      {drop.winners.map((w) => (
        <li key={w.entryId} className="min-w-0 space-y-2">
          <DropCard card={w.card} refs={detail.refs} size="sm" />
          <p className="text-sm break-all text-zinc-100">
            <span className="text-zinc-500">{w.place + 1}.</span> <span className="font-semibold">{w.username}</span>
          </p>
        </li>
      ))}
    </ol>
  );
}

/** A win is an event: the prize by name, a moment of gold (still for reduced motion), and the way to it. */
function WinCelebration({ card }: { card: { id: string; name: string } | null }) {
  return (
    <div
      role="status"
      className="relative overflow-hidden rounded-2xl border border-gold-300/50 bg-gradient-to-br from-gold-400/25 via-fuchsia-500/15 to-violet-600/20 p-6 text-center"
    >
      <Trophy aria-hidden="true" className="mx-auto size-12 text-gold-300 motion-safe:animate-bounce" />
      <p className="mt-3 text-xs font-semibold tracking-widest text-gold-200 uppercase">You won</p>
      <h3 className="mt-1 text-2xl font-bold text-white">{card ? `${card.name} is yours!` : 'Your prize is yours!'}</h3>
      <p className="mt-2 text-sm text-zinc-200">It went straight into your vault: keep it, sell it back or ship it home.</p>
      <div className="mt-4 flex flex-wrap justify-center gap-3">
        <Link to="/collect" className={buttonClasses()}>
          See it in your vault
        </Link>
        {card ? (
          <Link to="/cards" search={{ card: card.id }} className={buttonClasses({ variant: 'secondary' })}>
            About {card.name}
          </Link>
        ) : null}
      </div>
    </div>
  );
}
