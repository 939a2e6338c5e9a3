import { ApiClientError } from '@web/lib/api';
import type { ReactNode } from 'react';
import { Badge, cn } from '@web/components/ui';
import { plural } from '@web/lib/format';
import { cardsCaption, PackArt } from '../pack-art';

/** What a sealed pack needs to be drawn: known before the reveal's code or the opening arrive. */
export interface SealedPack {
  productId: string;
  productName: string;
  imageKey: string | null;
  cardCount: number;
}

/** The sealed pack(s), still: reduced motion, the shell, and while the tear animation loads. */
export function SealedPacks({ first, count }: { first: SealedPack; count: number }) {
  return (
    <div className="grid h-[26rem] place-items-center sm:h-[30rem]">
      <div className="relative w-44 sm:w-52">
        <PackArt
          seed={first.productId}
          name={first.productName}
          imageKey={first.imageKey}
          caption={cardsCaption(first.cardCount)}
          large
          eager
        />
        {count > 1 ? (
          <Badge tone="violet" className="absolute -top-2 -right-2 bg-violet-600 text-white">
            ×{count}
          </Badge>
        ) : null}
      </div>
    </div>
  );
}

/** The stage's frame, shared by the shell and the reveal so one replaces the other in place. */
export const STAGE_CLASSES =
  // Tall enough that the footer stays below the fold while the reveal plays (phones included).
  'relative flex min-h-[calc(100svh-6rem)] scroll-mt-20 flex-col overflow-hidden rounded-3xl border border-white/10 bg-black/40 px-4 py-5 sm:px-8 sm:py-6';

/**
 * The pack stage drawn at once, before the reveal's code (or, on a replay, the opening) has
 * arrived: the paid-for pack is on screen straight away, never a blank page (issue 41). It is light
 * on purpose — no animation library — so the pages that sell packs can carry it.
 */
export function StageShell({ pack, count = 1, status, className }: { pack: SealedPack; count?: number; status: ReactNode; className?: string }) {
  return (
    <section aria-labelledby="opening-title" aria-busy="true" data-testid="stage-shell" className={cn(STAGE_CLASSES, className)}>
      <h2 id="opening-title" className="text-lg font-semibold text-white">
        Opening {count > 1 ? plural(count, 'pack') : pack.productName}
      </h2>
      <div className="relative flex-1">
        <SealedPacks first={pack} count={count} />
      </div>
      <p role="status" className="mt-2 min-h-24 text-center text-sm text-zinc-400">
        {status}
      </p>
    </section>
  );
}

/** Why a replayed opening could not be shown, and what to do: the same words on every page that replays one. */
export function replayErrorText(error: unknown): string {
  return error instanceof ApiClientError && error.status === 404
    ? 'It is not one of your openings. Your own cards are always in your vault.'
    : 'Check your connection and reload the page. Your cards are safe in your vault.';
}
