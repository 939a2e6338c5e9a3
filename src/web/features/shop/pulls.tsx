import { useClock } from '@web/lib/hydration';
import { formatDateTime, timeAgo } from '@web/lib/format';
import { useState } from 'react';
import './shop.css';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Radio } from 'lucide-react';
import type { LookRefs } from '@shared/contracts/catalog';
import { lookFromRefs } from '@shared/contracts/catalog-look';
import type { Pull, PullEvent } from '@shared/contracts/shop';
import { cn, Money, Skeleton } from '@web/components/ui';
import { useRealtimeEvent, useRealtimeStatus } from '@web/lib/realtime';
import { topPullsQuery, type TopPullWindow } from './api';
import { ShopCard } from './card-slot';

/** Re-renders every `ms` so relative times stay true. */
export function useNow(ms = 30_000) {
  return useClock(ms);
}

/**
 * Keeps every top-pulls query fresh: a `pull.created` event refetches them. Returns the ids of
 * pulls that arrived live, so lists can highlight them.
 */
export function useLivePulls() {
  const qc = useQueryClient();
  const [fresh, setFresh] = useState<Set<string>>(() => new Set());
  useRealtimeEvent<PullEvent>('pull.created', (e) => {
    if (e?.ownedCardId) setFresh((s) => new Set(s).add(e.ownedCardId));
    void qc.invalidateQueries({ queryKey: ['top-pulls'] });
  });
  return fresh;
}

export function LiveDot({ className }: { className?: string }) {
  const status = useRealtimeStatus();
  const live = status === 'open';
  return (
    <span className={cn('inline-flex items-center gap-1.5 text-xs font-medium', live ? 'text-emerald-300' : 'text-zinc-400', className)}>
      <span className="relative flex size-2">
        {live ? <span className="absolute inline-flex size-full animate-ping rounded-full bg-emerald-400 opacity-60" /> : null}
        <span className={cn('relative inline-flex size-2 rounded-full', live ? 'bg-emerald-400' : 'bg-zinc-500')} />
      </span>
      {live ? 'Live' : status === 'idle' ? 'Offline' : 'Connecting…'}
    </span>
  );
}

/** One pull: the card, its value, the pack, who pulled it and when. */
export function PullItem({ pull, refs, now, fresh, rank }: { pull: Pull; refs: LookRefs; now: number; fresh?: boolean; rank?: number }) {
  const look = lookFromRefs(pull.card, refs);
  if (!look.className) {
    look.className = pull.card.className;
    look.classColour = pull.card.classColour;
  }
  return (
    <li
      className={cn(
        'flex items-center gap-4 rounded-2xl border border-white/10 bg-surface/70 p-3 sm:p-4',
        fresh && 'border-fuchsia-400/50 bg-fuchsia-500/[0.07] [animation:ticker-in_400ms_ease-out]',
      )}
      data-testid="pull-item"
    >
      {rank ? <span className="w-6 shrink-0 text-center text-sm font-bold text-zinc-500 tabular-nums">{rank}</span> : null}
      <ShopCard look={look} size="xs" />
      <div className="min-w-0 flex-1">
        <p className="truncate font-semibold text-white">{pull.card.name}</p>
        <p className="truncate text-sm">
          <span style={{ color: look.classColour }} className="font-medium">
            {look.className}
          </span>
          <span className="text-zinc-500"> from </span>
          <Link to="/shop/$id" params={{ id: pull.productId }} className="text-zinc-200 underline-offset-4 hover:underline">
            {pull.productName}
          </Link>
        </p>
        <p className="truncate text-xs text-zinc-400">
          <span className="font-medium text-zinc-300">{pull.username}</span> ·{' '}
          <time
            dateTime={pull.createdAt}
            // The exact time on hover, written when the pointer first comes: a date formatter built
            // while the ticker first draws would cost the page ICU's start-up (lib/format.ts).
            onPointerEnter={(e) => {
              e.currentTarget.title ||= formatDateTime(pull.createdAt);
            }}
          >
            {timeAgo(pull.createdAt, now)}
          </time>
          {fresh ? <span className="ml-2 font-semibold text-fuchsia-300">New</span> : null}
        </p>
      </div>
      <Money cents={pull.valueCents} className="shrink-0 text-lg font-bold text-gold-300" />
    </li>
  );
}

export function PullListSkeleton({ rows = 5 }: { rows?: number }) {
  return (
    <ul aria-hidden="true" className="space-y-3">
      {Array.from({ length: rows }, (_, i) => (
        <li key={i} className="flex items-center gap-4 rounded-2xl border border-white/10 bg-surface/50 p-4">
          <Skeleton className="aspect-[5/7] w-20 rounded-lg" />
          <div className="flex-1 space-y-2">
            <Skeleton className="h-4 w-1/2" />
            <Skeleton className="h-3 w-1/3" />
          </div>
          <Skeleton className="h-6 w-16" />
        </li>
      ))}
    </ul>
  );
}

/**
 * A compact live ticker of big pulls (the front page). Starts from the last day's top pulls and
 * refetches when a `pull.created` event arrives.
 */
export function PullsTicker({ limit = 8 }: { limit?: number }) {
  const fresh = useLivePulls();
  const now = useNow();
  const { data, isPending, isError } = useQuery(topPullsQuery('24h', limit));
  const items = data?.items ?? [];
  // Show the newest pulls first in the ticker (the API sorts by value).
  const byTime = [...items].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  if (isPending) return <PullListSkeleton rows={3} />;
  if (isError) return <p className="text-sm text-zinc-400">Live pulls are unavailable right now. They will be back shortly.</p>;
  if (!items.length) {
    return (
      <p className="rounded-2xl border border-dashed border-white/15 p-6 text-center text-sm text-zinc-400">
        <Radio aria-hidden="true" className="mx-auto mb-2 size-5 text-violet-300" />
        No big pulls in the last 24 hours yet. The next one appears here the moment it happens.
      </p>
    );
  }
  return (
    // grid-cols-1 (minmax(0, 1fr)), not the implicit auto column: a pull's one-line names count at
    // full length in an auto column, so a long card, pack or user name widened the page on a phone.
    <ul aria-live="polite" aria-label="Latest big pulls" className="grid grid-cols-1 gap-3 md:grid-cols-2">
      {byTime.map((p) => (
        <PullItem key={p.ownedCardId} pull={p} refs={data!.refs} now={now} fresh={fresh.has(p.ownedCardId)} />
      ))}
    </ul>
  );
}

export function TopPullsList({ window, limit = 50 }: { window: TopPullWindow; limit?: number }) {
  const fresh = useLivePulls();
  const now = useNow();
  const q = useQuery(topPullsQuery(window, limit));
  if (q.isPending) return <PullListSkeleton />;
  if (q.isError) {
    return (
      <p role="alert" className="rounded-xl border border-red-400/30 bg-red-500/10 p-4 text-sm text-red-100">
        The top pulls could not be loaded. Check your connection; the list retries by itself, or{' '}
        <button type="button" className="font-semibold underline" onClick={() => void q.refetch()}>
          try again now
        </button>
        .
      </p>
    );
  }
  if (!q.data.items.length) {
    return (
      <p className="rounded-2xl border border-dashed border-white/15 p-8 text-center text-zinc-400">
        No pulls in this period yet. Open a pack and yours could be the first one here.
      </p>
    );
  }
  return (
    <ol aria-label="Top pulls, highest value first" className="space-y-3">
      {q.data.items.map((p, i) => (
        <PullItem key={p.ownedCardId} pull={p} refs={q.data.refs} now={now} rank={i + 1} fresh={fresh.has(p.ownedCardId)} />
      ))}
    </ol>
  );
}
