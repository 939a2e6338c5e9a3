import type { QueryClient } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { PageHeader } from '@web/components/ui';
import { revisionsQuery } from '@web/features/fairness/api';
import { OddsHistory } from '@web/features/fairness/odds-history';

export function prefetch(queryClient: QueryClient, _search: Record<string, unknown>, params: Record<string, string>) {
  return params.id ? queryClient.prefetchQuery(revisionsQuery(params.id)) : undefined;
}

/** /fairness/products/$id — a pack's published odds revisions, each checkable in the browser (issue 44). */
export default function FairnessProductPage() {
  const { id } = useParams({ from: '/chrome/site/fairness/products/$id' });
  return (
    <div className="space-y-8">
      <PageHeader
        eyebrow="Provably fair"
        title="Odds history"
        description="The odds, the card pool and every card's value, hashed and published before any pack is opened under them. Editing any of them makes a new revision; earlier ones stay here."
      />
      <OddsHistory productId={id} />
    </div>
  );
}
