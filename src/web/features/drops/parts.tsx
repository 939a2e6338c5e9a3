import { useClock } from '@web/lib/hydration';
import { createContext, useContext, type ReactNode } from 'react';
import type { LookRefs, PublicCard } from '@shared/contracts/catalog';
import { lookFromRefs, type CardLook } from '@shared/contracts/catalog-look';
import type { PublicDrop } from '@shared/contracts/drops';
import { Badge, cn, type BadgeTone } from '@web/components/ui';
import { plural } from '@web/lib/format';

export type DropCardSize = 'xs' | 'sm' | 'md' | 'lg';
export type RenderDropCard = (look: CardLook, opts: { size: DropCardSize; className?: string }) => ReactNode;

/** Until a page provides the catalog's renderer: a plain box with the card's name. */
const fallback: RenderDropCard = (look, { className }) => (
  <div role="img" aria-label={look.name} className={cn('flex aspect-[5/7] w-full items-end rounded-xl bg-white/5 p-2 text-xs text-zinc-300 ring-1 ring-white/10', className)}>
    {look.name}
  </div>
);

const RendererCtx = createContext<RenderDropCard>(fallback);

/**
 * Features do not import each other, so the drop pages hand this feature the catalog's card renderer:
 *   <DropCardRenderer value={renderCard}>…</DropCardRenderer>
 */
export const DropCardRenderer = RendererCtx.Provider;

/** One card, drawn by the page's renderer. */
export function DropCard({ card, refs, size = 'sm', className }: { card: PublicCard; refs: LookRefs; size?: DropCardSize; className?: string }) {
  const render = useContext(RendererCtx);
  return <>{render(lookFromRefs(card, refs), { size, ...(className ? { className } : {}) })}</>;
}

/** A drop's prize cards, each with its number of copies when more than one. */
export function PrizeCards({ drop, refs, size = 'sm' }: { drop: PublicDrop; refs: LookRefs; size?: DropCardSize }) {
  const width = size === 'xs' ? 'w-20' : size === 'sm' ? 'w-32 sm:w-36' : 'w-44 sm:w-56';
  return (
    <ul aria-label={`Prizes of ${drop.title}`} className="flex flex-wrap gap-3">
      {drop.prizes.map((p) => (
        <li key={p.card.id} className={cn('relative shrink-0', width)}>
          <DropCard card={p.card} refs={refs} size={size} />
          {p.quantity > 1 ? (
            <span className="absolute top-1 right-1 rounded-full bg-black/80 px-2 py-0.5 text-xs font-semibold text-white ring-1 ring-white/20">
              ×{p.quantity}
              <span className="sr-only"> copies</span>
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/**
 * Where a drop is in its life as the visitor sees it now. An open drop whose closing time has
 * passed is shown as drawing: the job takes up to a few seconds to close it.
 */
export type DropPhase = 'upcoming' | 'open' | 'drawing' | 'closed' | 'cancelled';

export function dropPhase(drop: Pick<PublicDrop, 'status' | 'opensAt' | 'closesAt'>, now: number): DropPhase {
  if (drop.status === 'cancelled') return 'cancelled';
  if (drop.status === 'closed') return 'closed';
  if (drop.status === 'drawing') return 'drawing';
  if (now >= Date.parse(drop.closesAt)) return 'drawing';
  if (drop.status === 'scheduled' || now < Date.parse(drop.opensAt)) return 'upcoming';
  return 'open';
}

const PHASE: Record<DropPhase, { label: string; tone: BadgeTone }> = {
  upcoming: { label: 'Upcoming', tone: 'info' },
  open: { label: 'Open', tone: 'success' },
  drawing: { label: 'Drawing', tone: 'warning' },
  closed: { label: 'Drawn', tone: 'violet' },
  cancelled: { label: 'Cancelled', tone: 'danger' },
};

export function PhaseBadge({ phase }: { phase: DropPhase }) {
  return <Badge tone={PHASE[phase].tone}>{PHASE[phase].label}</Badge>;
}

/** Re-renders every `ms` while mounted, for countdowns. */
export function useTicker(ms = 1000) {
  return useClock(ms);
}

/** "2d 03:04:05" / "03:04:05" / "04:05" until `target`. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(total / 86_400);
  const h = Math.floor((total % 86_400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  const clock = h > 0 || d > 0 ? `${two(h)}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}`;
  return d > 0 ? `${d}d ${clock}` : clock;
}

/** Spoken form, for screen readers (announced only on request, not every second). */
export function countdownWords(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const parts: string[] = [];
  const d = Math.floor(total / 86_400);
  const h = Math.floor((total % 86_400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (d) parts.push(plural(d, 'day'));
  if (h) parts.push(plural(h, 'hour'));
  if (m && d === 0) parts.push(plural(m, 'minute'));
  if (d === 0 && h === 0) parts.push(plural(s, 'second'));
  return parts.join(' ');
}

/** The visible ticking clock; the accessible name is in words and not re-announced each second. */
export function Countdown({ to, now, label }: { to: string; now: number; label: string }) {
  const left = Date.parse(to) - now;
  return (
    <p className="flex flex-wrap items-baseline gap-x-2">
      <span className="text-sm text-zinc-400">{label}</span>
      <span aria-hidden="true" className="font-mono text-2xl font-semibold text-white tabular-nums" data-testid="countdown">
        {formatCountdown(left)}
      </span>
      <span className="sr-only">{countdownWords(left)}</span>
    </p>
  );
}

/** A label and a hash that may wrap anywhere (64 hex characters fit no phone). */
export function HashField({ label, value, hint }: { label: string; value: string | null; hint?: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-zinc-400">{label}</dt>
      <dd className="font-mono text-xs break-all text-zinc-100">{value ?? hint ?? '—'}</dd>
    </div>
  );
}
