import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ArrowRight, History, Sparkles, Users } from 'lucide-react';
import type { LookRefs } from '@shared/contracts/catalog';
import type { PublicDrop } from '@shared/contracts/drops';
import { Button, EmptyState, Notice, Pagination, Skeleton } from '@web/components/ui';
import { formatCount, formatDateTime, plural, pluralNoun } from '@web/lib/format';
import { dropListQuery, PAST_PAGE_SIZE, useDropsLiveUpdates } from './api';
import { Countdown, dropPhase, PhaseBadge, PrizeCards, useTicker } from './parts';
import { DropProofPanel } from './verify-drop';

/**
 * /daily-drop-winners: the drops open now and coming up (each links to its page), then every
 * past drop, newest first, with its prizes, winners, entry count and a proof that verifies here.
 */
export function DropsHub({ page, onPageChange }: { page: number; onPageChange: (page: number) => void }) {
  useDropsLiveUpdates();
  return (
    <div className="space-y-10">
      <CurrentDrops />
      <PastDrops page={page} onPageChange={onPageChange} />
    </div>
  );
}

function CurrentDrops() {
  const q = useQuery(dropListQuery('current'));
  const now = useTicker();
  return (
    <section aria-labelledby="current-title" className="space-y-4">
      <h2 id="current-title" className="flex items-center gap-2 text-xl font-semibold text-white">
        <Sparkles aria-hidden="true" className="size-5 text-fuchsia-300" /> Open and upcoming
      </h2>
      {q.isPending ? (
        <Skeleton className="h-48" />
      ) : q.isError ? (
        <Notice tone="danger" action={<Button size="sm" variant="secondary" onClick={() => void q.refetch()}>Retry</Button>}>
          The current drops could not be loaded. Check your connection and try again.
        </Notice>
      ) : q.data.items.length === 0 ? (
        <EmptyState title="No drop is open right now" description="A new free drop is announced here before it opens. The past draws are below." />
      ) : (
        <ul className="grid gap-4 md:grid-cols-2">
          {q.data.items.map((d) => (
            <li key={d.id}>
              <CurrentDrop drop={d} refs={q.data.refs} now={now} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function CurrentDrop({ drop, refs, now }: { drop: PublicDrop; refs: LookRefs; now: number }) {
  const phase = dropPhase(drop, now);
  return (
    <article aria-labelledby={`drop-${drop.id}`} className="h-full space-y-4 rounded-2xl border border-violet-400/30 bg-violet-500/[0.06] p-5">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={`drop-${drop.id}`} className="min-w-0 text-lg font-semibold break-words text-white">
          {drop.title}
        </h3>
        <PhaseBadge phase={phase} />
      </div>
      {phase === 'upcoming' ? (
        <Countdown to={drop.opensAt} now={now} label="Opens in" />
      ) : phase === 'open' ? (
        <Countdown to={drop.closesAt} now={now} label="Closes in" />
      ) : (
        <p className="text-sm text-zinc-300">The winners are being drawn.</p>
      )}
      <PrizeCards drop={drop} refs={refs} size="xs" />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="flex items-center gap-2 text-sm text-zinc-300">
          <Users aria-hidden="true" className="size-4" />
          <span>
            <span className="font-semibold text-white tabular-nums">{formatCount(drop.entryCount)}</span> {pluralNoun(drop.entryCount, 'entry', 'entries')},{' '}
            {plural(drop.winnerCount, 'winner')}
          </span>
        </p>
        <Link
          to="/daily-drop/$id"
          params={{ id: drop.id }}
          className="inline-flex items-center gap-1 font-semibold text-violet-200 underline underline-offset-4 hover:text-white"
          aria-label={`${phase === 'open' ? 'Enter' : 'See the drop'}: ${drop.title}`}
        >
          {phase === 'open' ? 'Enter' : 'See the drop'} <ArrowRight aria-hidden="true" className="size-4" />
        </Link>
      </div>
    </article>
  );
}

function PastDrops({ page, onPageChange }: { page: number; onPageChange: (page: number) => void }) {
  const q = useQuery(dropListQuery('past', page));
  return (
    <section aria-labelledby="past-title" className="space-y-4">
      <h2 id="past-title" className="flex items-center gap-2 text-xl font-semibold text-white">
        <History aria-hidden="true" className="size-5 text-violet-300" /> Past drops and their winners
      </h2>
      {q.isPending ? (
        <Skeleton className="h-64" />
      ) : q.isError ? (
        <Notice tone="danger" action={<Button size="sm" variant="secondary" onClick={() => void q.refetch()}>Retry</Button>}>
          The past drops could not be loaded. Check your connection and try again.
        </Notice>
      ) : q.data.items.length === 0 ? (
        <EmptyState title="No drop has been drawn yet" description="When the first drop closes, its winners and the proof of its draw appear here." />
      ) : (
        <>
          <ul className="space-y-6" aria-busy={q.isPlaceholderData}>
            {q.data.items.map((d) => (
              <li key={d.id}>
                <PastDrop drop={d} refs={q.data.refs} />
              </li>
            ))}
          </ul>
          <Pagination page={page} pageCount={Math.ceil(q.data.total / (q.data.pageSize || PAST_PAGE_SIZE))} onPageChange={onPageChange} label="Past drops pages" />
        </>
      )}
    </section>
  );
}

function PastDrop({ drop, refs }: { drop: PublicDrop; refs: LookRefs }) {
  return (
    <article aria-labelledby={`past-${drop.id}`} className="space-y-5 rounded-2xl border border-white/10 bg-surface/80 p-5 sm:p-6" data-testid="past-drop">
      <header className="space-y-1">
        <h3 id={`past-${drop.id}`} className="text-lg font-semibold break-words text-white">
          <Link to="/daily-drop/$id" params={{ id: drop.id }} className="hover:underline">
            {drop.title}
          </Link>
        </h3>
        <p className="text-sm text-zinc-400">
          Drawn <time dateTime={drop.drawnAt ?? drop.closesAt}>{formatDateTime(drop.drawnAt ?? drop.closesAt)}</time> · {plural(drop.entryCount, 'entry', 'entries')}
        </p>
      </header>
      <div className="grid gap-5 lg:grid-cols-[minmax(0,18rem)_minmax(0,1fr)]">
        <div className="min-w-0 space-y-3">
          <h4 className="text-sm font-semibold text-white">Prize</h4>
          <PrizeCards drop={drop} refs={refs} size="sm" />
          <h4 className="text-sm font-semibold text-white">Winners</h4>
          {drop.winners.length === 0 ? (
            <p className="text-sm text-zinc-400">No entries: no winner, and the prize went back to stock.</p>
          ) : (
            <ul className="flex flex-wrap gap-2" aria-label={`Winners of ${drop.title}`}>
              {drop.winners.map((w) => (
                <li key={w.entryId} className="rounded-full bg-white/5 px-3 py-1 text-sm break-all text-zinc-100 ring-1 ring-white/10">
                  {w.username}
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="min-w-0">
          <h4 className="mb-3 text-sm font-semibold text-white">Proof</h4>
          <DropProofPanel drop={drop} />
        </div>
      </div>
    </article>
  );
}
