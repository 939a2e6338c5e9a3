import { ArrowDownRight, ArrowRight, ArrowUpRight } from 'lucide-react';
import { DASHBOARD_FIGURES, type Compared, type DashboardFigure } from '@shared/contracts/dashboard';
import { cn, Skeleton, useCurrency } from '@web/components/ui';
import { delta, deltaSentence, deltaTone, FIGURE_META, formatFigure, formatPercent } from './format';

const TONE = {
  good: 'text-emerald-300',
  bad: 'text-red-300',
  neutral: 'text-zinc-400',
} as const;

/** Figures that are a result: below zero they are a loss, said in words as well as red. */
const LOSS_FIGURES = new Set<DashboardFigure>(['grossMarginCents', 'netResultCents']);

/** One key figure: the period's value, the previous period's, and the change with a sentence for screen readers. */
export function FigureCard({ figure, value }: { figure: DashboardFigure; value: Compared }) {
  const currency = useCurrency();
  const meta = FIGURE_META[figure];
  const fmt = (n: number) => formatFigure(meta.kind, n, currency);
  const d = delta(value.current, value.previous);
  const tone = deltaTone(d.direction, meta.cost);
  const Arrow = d.direction === 'up' ? ArrowUpRight : d.direction === 'down' ? ArrowDownRight : ArrowRight;
  return (
    <li className="min-w-0 rounded-2xl border border-white/10 bg-surface/80 p-4" data-figure={figure}>
      <p className="text-sm text-zinc-400" title={meta.hint}>
        {meta.label}
      </p>
      <div
        className={cn(
          'mt-1 text-xl font-semibold break-words sm:text-2xl tabular-nums',
          LOSS_FIGURES.has(figure) && value.current < 0 ? 'text-red-200' : 'text-white',
        )}
      >
        {fmt(value.current)}
        {LOSS_FIGURES.has(figure) && value.current < 0 ? <span className="ml-2 align-middle text-xs font-medium text-red-200">Loss</span> : null}
      </div>
      <div className="mt-1 flex flex-wrap items-center gap-x-1.5 text-xs">
        <span aria-hidden="true" className={cn('inline-flex items-center gap-0.5 font-medium', TONE[tone])}>
          <Arrow className="size-3.5" />
          {d.direction === 'flat' ? 'No change' : d.percent === null ? 'New' : formatPercent(d.percent)}
        </span>
        <span aria-hidden="true" className="text-zinc-400">
          vs {fmt(value.previous)}
        </span>
        <span className="sr-only">{deltaSentence(value.current, value.previous, fmt)} in the previous period</span>
      </div>
    </li>
  );
}

export function FigureCards({ figures }: { figures: Record<DashboardFigure, Compared> }) {
  return (
    <ul aria-label="Key figures" className="grid grid-cols-2 gap-3 lg:grid-cols-3 xl:grid-cols-5">
      {DASHBOARD_FIGURES.map((f) => (
        <FigureCard key={f} figure={f} value={figures[f]} />
      ))}
    </ul>
  );
}

export function FigureCardsSkeleton() {
  return (
    <ul aria-hidden="true" className="grid grid-cols-2 gap-3 lg:grid-cols-3 xl:grid-cols-5">
      {DASHBOARD_FIGURES.map((f) => (
        <li key={f} className="rounded-2xl border border-white/10 bg-surface/80 p-4">
          <Skeleton className="h-4 w-24" />
          <Skeleton className="mt-2 h-7 w-28" />
          <Skeleton className="mt-2 h-3 w-20" />
        </li>
      ))}
    </ul>
  );
}
