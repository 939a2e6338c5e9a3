import type { QueryClient } from '@tanstack/react-query';
import { PageHeader } from '@web/components/ui';
import { dashboardQuery } from '@web/features/dashboard/api';
import { AdminDashboard } from '@web/features/dashboard/dashboard';
import { checkRange, parseDashboardSearch } from '@web/features/dashboard/range';

/** Starts the dashboard's one request alongside the page's code. */
export function prefetch(queryClient: QueryClient, search: Record<string, unknown>) {
  const { query } = checkRange(parseDashboardSearch(search));
  if (query) return queryClient.prefetchQuery(dashboardQuery(query));
}

/** /admin: how the shop is doing over a period, and what needs attention (issue 18). Every other screen is in the side navigation. */
export default function AdminDashboardPage() {
  return (
    <>
      <PageHeader
        eyebrow="Back office"
        title="Dashboard"
        description="Money, opens and players for a period against the one before it, and what needs attention now."
      />
      <AdminDashboard />
    </>
  );
}
