import { PageHeader } from '@web/components/ui';
import { ValueReviews } from '@web/features/catalog/value-reviews';

/** /admin/value-reviews (ADR 0024) */
export default function AdminValueReviewsPage() {
  return (
    <>
      <PageHeader
        eyebrow="Catalog"
        title="Value reviews"
        description="Card value changes beyond what admins may make alone in a day. The card keeps its value until the owner approves."
      />
      <ValueReviews />
    </>
  );
}
