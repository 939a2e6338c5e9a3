import { Money, cn } from '@web/components/ui';

export interface ValueRangeProps {
  floorCents: number;
  expectedValueCents: number;
  ceilingCents: number;
  priceCents?: number | null;
  className?: string;
}

/** Stacking and sizes of the bar's markers: the price tick is drawn over the EV dot and outgrows it. */
export const MARKERS = { dot: { z: 1, sizePx: 14 }, tick: { z: 2, heightPx: 24 } } as const;
/** Within this share of the bar from an end, the price label hangs inwards from its tick instead of centring on it. */
export const LABEL_EDGE_PCT = 15;

export type LabelAnchor = 'start' | 'center' | 'end';

export interface ValueRangeLayout {
  /** Positions along the bar, 0–100. */
  evPct: number;
  pricePct: number | null;
  /** How the price label hangs from its tick, so it stays under the tick and inside the bar. */
  priceAnchor: LabelAnchor;
}

/**
 * Where the markers sit. Square-root scale: ceilings are often 100× the floor, and a linear bar
 * would hide the EV. The price label always sits under the price tick (issue 19), on its own row
 * so it never meets the end labels.
 */
export function valueRangeLayout(p: Pick<ValueRangeProps, 'floorCents' | 'expectedValueCents' | 'ceilingCents' | 'priceCents'>): ValueRangeLayout {
  const span = Math.max(1, p.ceilingCents - p.floorCents);
  const pct = (v: number) => Math.round(Math.sqrt(Math.min(1, Math.max(0, (v - p.floorCents) / span))) * 1000) / 10;
  const pricePct = p.priceCents ? pct(p.priceCents) : null;
  const priceAnchor: LabelAnchor =
    pricePct === null ? 'center' : pricePct < LABEL_EDGE_PCT ? 'start' : pricePct > 100 - LABEL_EDGE_PCT ? 'end' : 'center';
  return { evPct: pct(p.expectedValueCents), pricePct, priceAnchor };
}

const SHIFT: Record<LabelAnchor, string> = { start: '0%', center: '-50%', end: '-100%' };

/** Floor, expected value and ceiling of a pack, with where the price sits between them. */
export function ValueRange({ floorCents, expectedValueCents, ceilingCents, priceCents, className }: ValueRangeProps) {
  const l = valueRangeLayout({ floorCents, expectedValueCents, ceilingCents, priceCents });
  return (
    <div className={cn('space-y-3', className)}>
      <dl className="grid grid-cols-3 gap-2 text-center">
        <div className="rounded-xl bg-white/[0.04] p-3 ring-1 ring-white/10">
          <dt className="text-xs text-zinc-400">Floor</dt>
          <dd className="mt-0.5 font-semibold text-white">
            <Money cents={floorCents} />
          </dd>
        </div>
        <div className="rounded-xl bg-gold-400/10 p-3 ring-1 ring-gold-400/30">
          <dt className="text-xs text-gold-300">Expected value</dt>
          <dd className="mt-0.5 font-bold text-gold-300">
            <Money cents={expectedValueCents} />
          </dd>
        </div>
        <div className="rounded-xl bg-white/[0.04] p-3 ring-1 ring-white/10">
          <dt className="text-xs text-zinc-400">Ceiling</dt>
          <dd className="mt-0.5 font-semibold text-white">
            <Money cents={ceilingCents} />
          </dd>
        </div>
      </dl>
      <div aria-hidden="true" className="relative h-2 rounded-full bg-gradient-to-r from-zinc-700 via-violet-600 to-amber-400">
        <span
          data-marker="ev"
          className="absolute top-1/2 -translate-x-1/2 -translate-y-1/2 rounded-full bg-gold-300 ring-2 ring-ink"
          style={{ left: `${l.evPct}%`, zIndex: MARKERS.dot.z, width: MARKERS.dot.sizePx, height: MARKERS.dot.sizePx }}
        />
        {l.pricePct !== null ? (
          <span
            data-marker="price"
            className="absolute top-1/2 w-1 -translate-x-1/2 -translate-y-1/2 rounded-full bg-white shadow-[0_0_0_2px_var(--color-ink)]"
            style={{ left: `${l.pricePct}%`, zIndex: MARKERS.tick.z, height: MARKERS.tick.heightPx }}
          />
        ) : null}
      </div>
      {l.pricePct !== null && priceCents ? (
        <p className="relative h-4 text-xs text-zinc-200">
          <span
            data-label="price"
            className="absolute top-0 whitespace-nowrap"
            style={{ left: `${l.pricePct}%`, transform: `translateX(${SHIFT[l.priceAnchor]})` }}
          >
            price <Money cents={priceCents} />
          </span>
        </p>
      ) : null}
      <p className="flex justify-between gap-4 text-xs text-zinc-400">
        <span>Lowest possible pack</span>
        <span className="text-right">Best possible pack</span>
      </p>
    </div>
  );
}
