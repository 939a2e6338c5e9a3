import { PageHeader } from '@web/components/ui';
import { useSession } from '@web/features/auth/session';
import { renderCard } from '@web/features/catalog/card-view';
import { AdminOwned, CollectionCardRenderer } from '@web/features/collection';

export default function AdminOwnedPage() {
  const { data: me } = useSession();
  return (
    <CollectionCardRenderer value={renderCard}>
      <PageHeader
        eyebrow="Catalog"
        title="Owned cards"
        description="Every copy in every vault. Grant a card from stock or revoke one back to stock; both need a reason and are audited."
      />
      <AdminOwned viewer={me?.user} />
    </CollectionCardRenderer>
  );
}
