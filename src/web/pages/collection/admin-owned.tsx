import { PageHeader } from '@web/components/ui';
import { renderCard } from '@web/features/catalog/card-view';
import { AdminOwned, CollectionCardRenderer } from '@web/features/collection';

export default function AdminOwnedPage() {
  return (
    <CollectionCardRenderer value={renderCard}>
      <PageHeader
        eyebrow="Catalog"
        title="Owned cards"
        description="Every copy in every vault. Grant a card from stock or revoke one back to stock; both need a reason and are audited."
      />
      <AdminOwned />
    </CollectionCardRenderer>
  );
}
