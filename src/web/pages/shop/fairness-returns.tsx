import type { QueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { PageHeader } from '@web/components/ui';
import { returnsQuery } from '@web/features/fairness/api';
import { ReturnsTable } from '@web/features/fairness/returns';

export function prefetch(queryClient: QueryClient) {
  return queryClient.prefetchQuery(returnsQuery);
}

/** /fairness/returns — what each pack promised and what it actually gave back, in public (issue 44). */
export default function FairnessReturnsPage() {
  return (
    <div className="space-y-8">
      <PageHeader
        eyebrow="Provably fair"
        title="Promised and realised returns"
        description="For every pack and every revision of its odds: what the published odds promise back (expected card value ÷ price) and what all openings under it actually gave back, with a 95 % interval and the same drift test our back office watches."
      />
      <ReturnsTable />
      <article className="prose-vault" aria-labelledby="how-title">
        <h2 id="how-title">How these are computed</h2>
        <ul>
          <li>
            <strong>Promised</strong>: the expected card value of a pack under the revision — per slot, each class&apos;s chance
            times the mean value of that class&apos;s cards in the published pool — divided by its price.
          </li>
          <li>
            <strong>Realised</strong>: the value of every card pulled under the revision divided by the price paid for those
            packs. The interval is realised ± 1.96 σ ÷ √n ÷ price, σ being the spread of one pack&apos;s value under the
            revision.
          </li>
          <li>
            <strong>Drift test</strong>: z = (value pulled − n × expected) ÷ √(n × variance). With at least 30 openings, |z|
            above 3.5 (about 1 in 2,000 for fair odds) is flagged.
          </li>
          <li>
            Cards are valued at the revision&apos;s values; a card out of stock cannot be drawn, so long sell-outs of valuable
            cards show here as a realised return below the promise.
          </li>
        </ul>
        <p>
          Each revision, with every card and value, is on its pack&apos;s odds history; see{' '}
          <Link to="/fairness">how every draw can be checked</Link>.
        </p>
      </article>
    </div>
  );
}
