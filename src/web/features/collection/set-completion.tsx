import { useQuery } from '@tanstack/react-query';
import { plural, pluralNoun } from '@web/lib/format';
import { Link } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { ChevronDown, Layers } from 'lucide-react';
import type { SetCompletion as SetRow } from '@shared/contracts/collection';
import { Button, EmptyState, Money, Notice, Skeleton, buttonClasses, cn } from '@web/components/ui';
import { cardOddsQuery, missingCardsQuery, setCompletionQuery } from './api';
import { CollectionCard } from './card-renderer';
import { useWishlistHearts } from './wishlist-heart';
import { WhereToPull } from './where-to-pull';

/** /collect, Sets: how much of each set is in the vault, and (opened) the cards still to find. */
export function SetCompletion() {
  const q = useQuery(setCompletionQuery);
  if (q.isPending) {
    return (
      <div role="status" aria-label="Loading sets" className="space-y-3">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-20 w-full" />
        ))}
      </div>
    );
  }
  if (q.isError) return <Notice tone="danger" title="Sets could not be loaded">Reload the page to try again.</Notice>;
  if (!q.data.items.length) {
    return (
      <EmptyState
        icon={<Layers />}
        title="No sets yet"
        description="When cards are added to the catalog, their sets show here."
        action={
          <Link to="/cards" className={buttonClasses({ variant: 'secondary' })}>
            Browse cards
          </Link>
        }
      />
    );
  }
  return (
    <ul aria-label="Sets" className="space-y-3">
      {q.data.items.map((s) => (
        <SetItem key={s.setName} set={s} />
      ))}
    </ul>
  );
}

function SetItem({ set }: { set: SetRow }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const pct = set.total ? Math.round((set.owned / set.total) * 100) : 0;
  const missing = set.total - set.owned;
  return (
    <li className="rounded-2xl border border-white/10 bg-surface/70 p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="font-semibold text-white">
          {set.setName}
        </h2>
        <p className="text-sm text-zinc-300">
          <span className="font-semibold text-white">{set.owned}</span> of {plural(set.total, 'card')}
          {missing === 0 ? <span className="ml-2 text-emerald-300">Complete</span> : null}
        </p>
      </div>
      <div
        role="progressbar"
        aria-label={`${set.setName} completion`}
        aria-valuemin={0}
        aria-valuemax={set.total}
        aria-valuenow={set.owned}
        aria-valuetext={`${set.owned} of ${plural(set.total, 'card')} (${pct}%)`}
        className="mt-3 h-2 overflow-hidden rounded-full bg-white/10"
      >
        <div className={cn('h-full rounded-full', missing === 0 ? 'bg-emerald-400' : 'bg-violet-400')} style={{ width: `${pct}%` }} />
      </div>
      {missing > 0 ? (
        <>
          <Button variant="ghost" size="sm" className="mt-2 -ml-2" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((o) => !o)}>
            <ChevronDown aria-hidden="true" className={cn('size-4 transition-transform', open && 'rotate-180')} />
            {open ? 'Hide' : 'Show'} the {missing} missing {pluralNoun(missing, 'card')}
          </Button>
          <div id={panelId} hidden={!open}>
            {open ? <MissingCards setName={set.setName} /> : null}
          </div>
        </>
      ) : null}
    </li>
  );
}

function MissingCards({ setName }: { setName: string }) {
  const q = useQuery(missingCardsQuery(setName));
  // Beside the caption, not on the art (it covered the rarity badge).
  const heart = useWishlistHearts(true, 'size-8 shrink-0');
  const odds = useQuery(cardOddsQuery(q.data?.items.map((c) => c.id) ?? []));
  if (q.isPending) {
    return (
      <div role="status" aria-label="Loading missing cards" className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-6">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="aspect-[5/7] w-full" />
        ))}
      </div>
    );
  }
  if (q.isError) return <p className="mt-3 text-sm text-zinc-300">The missing cards could not be loaded. Close and open this again.</p>;
  return (
    <ul aria-label={`Missing from ${setName}`} className="mt-3 grid grid-cols-2 gap-x-3 gap-y-5 sm:grid-cols-4 lg:grid-cols-6">
      {q.data.items.map((card) => (
        <li key={card.id} className="min-w-0">
          <Link
            to="/cards"
            search={{ card: card.id }}
            className="block rounded-lg focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-violet-400"
          >
            <CollectionCard card={card} refs={q.data.refs} size="xs" className="opacity-70 grayscale-[60%]" />
            <span className="sr-only">. Open the card</span>
          </Link>
          <div className="mt-1 flex items-start justify-between gap-1">
            <div className="min-w-0">
              <p className="truncate text-xs text-zinc-300">
                #{card.number} {card.name}
              </p>
              <p className="text-xs font-medium text-white">
                <Money cents={card.valueCents} />
              </p>
            </div>
            {heart(card)}
          </div>
          <WhereToPull packs={odds.data?.[card.id]} pending={odds.isPending} className="mt-1" />
        </li>
      ))}
    </ul>
  );
}
