import { useState } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { PageHeader, Tabs, TabsContent, TabsList, TabsTrigger } from '@web/components/ui';
import { topPullsQuery, type TopPullWindow } from '@web/features/shop/api';
import { LiveDot, TopPullsList } from '@web/features/shop/pulls';
import { WithCards } from './with-cards';

const WINDOWS: Array<{ value: TopPullWindow; label: string }> = [
  { value: '24h', label: '24 hours' },
  { value: '7d', label: '7 days' },
  { value: 'all', label: 'All time' },
];

const FIRST_WINDOW: TopPullWindow = '24h';

export function prefetch(queryClient: QueryClient) {
  return queryClient.prefetchQuery(topPullsQuery(FIRST_WINDOW));
}
/** The list in the first paint when its data is here: the skeleton's height would shift the footer. */
export const firstPaintWithData = true;

/** /top-pulls — the most valuable pulls, live. Public. */
export default function TopPullsPage() {
  const [window, setWindow] = useState<TopPullWindow>(FIRST_WINDOW);
  return (
    <WithCards>
      <PageHeader
        eyebrow="Hall of fame"
        title="Top pulls"
        description="The most valuable cards pulled from packs. New big pulls appear here the moment they happen."
        actions={<LiveDot />}
      />
      <Tabs value={window} onValueChange={(v) => setWindow(v as TopPullWindow)}>
        <TabsList aria-label="Period">
          {WINDOWS.map((w) => (
            <TabsTrigger key={w.value} value={w.value}>
              {w.label}
            </TabsTrigger>
          ))}
        </TabsList>
        {WINDOWS.map((w) => (
          <TabsContent key={w.value} value={w.value}>
            {w.value === window ? <TopPullsList window={w.value} /> : null}
          </TabsContent>
        ))}
      </Tabs>
    </WithCards>
  );
}
