import { PageHeader } from '@web/components/ui';
import { renderCard } from '@web/features/catalog/card-view';
import { CollectionCardRenderer, Vault } from '@web/features/collection';

export default function CollectPage() {
  return (
    <CollectionCardRenderer value={renderCard}>
      <PageHeader
        eyebrow="Collection"
        title="My vault"
        description="Every card you own is stored here. Open one for its story and proof, or sell cards back for instant credit."
      />
      <Vault />
    </CollectionCardRenderer>
  );
}
