import { Money, cn } from '@web/components/ui';

export interface ValueRangeProps {
  floorCents: number;
  expectedValueCents: number;
  ceilingCents: number;
  priceCents?: number | null;
  className?: string;
}

/** Floor, expected value and ceiling of a pack, with where the price sits between them. */
export function ValueRange({ floorCents, expectedValueCents, ceilingCents, priceCents, className }: ValueRangeProps) {
  const span = Math.max(1, ceilingCents - floorCents);
  // Square-root scale: ceilings are often 100× the floor, and a linear bar would hide the EV.
  const pos = (v: number) => `${Math.round(Math.sqrt(Math.min(1, Math.max(0, (v - floorCents) / span))) * 1000) / 10}%`;
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
        <span className="absolute top-1/2 size-3.5 -translate-x-1/2 -translate-y-1/2 rounded-full bg-gold-300 ring-2 ring-ink" style={{ left: pos(expectedValueCents) }} />
        {priceCents ? (
          <span className="absolute -top-1 h-4 w-0.5 -translate-x-1/2 bg-white" style={{ left: pos(priceCents) }} />
        ) : null}
      </div>
      <p className="flex justify-between text-xs text-zinc-400">
        <span>Lowest possible pack</span>
        {priceCents ? (
          <span>
            <span aria-hidden="true" className="mr-1 inline-block h-3 w-0.5 bg-white align-middle" />
            price <Money cents={priceCents} />
          </span>
        ) : null}
        <span>Best possible pack</span>
      </p>
    </div>
  );
}
