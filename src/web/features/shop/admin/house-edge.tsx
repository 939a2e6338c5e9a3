import { Badge, cn } from '@web/components/ui';
import { formatBp } from './pack-math';

/**
 * A pack's house edge. A negative edge (the pack pays out more than it costs) gets a badge and
 * words, not only a colour, so it stands out to everyone scanning the list.
 */
export function HouseEdge({ bp, className }: { bp: number | null; className?: string }) {
  if (bp === null) return <span className={cn('text-zinc-400', className)}>—</span>;
  const negative = bp < 0;
  return (
    <span className={cn('inline-flex flex-wrap items-center justify-end gap-1.5 tabular-nums', negative ? 'text-red-300' : undefined, className)}>
      {formatBp(bp)}
      {negative ? (
        <Badge tone="danger" title="On average this pack pays out more than it costs.">
          Negative edge
        </Badge>
      ) : null}
    </span>
  );
}
