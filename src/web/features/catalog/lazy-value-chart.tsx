import { lazy, Suspense } from 'react';
import type { MarketSale } from '@shared/contracts/market';
import { Skeleton } from '@web/components/ui';

// recharts loads with the chart, when a card is opened: no page's first load pays for it.
const ValueChart = lazy(() => import('./value-chart'));

/** A card's price history (value-chart.tsx), loaded when first drawn. */
export function LazyValueChart({ cardId, name, sales }: { cardId: string; name: string; sales?: MarketSale[] }) {
  return (
    <Suspense fallback={<Skeleton className="h-44 w-full" />}>
      <ValueChart cardId={cardId} name={name} sales={sales} />
    </Suspense>
  );
}
