import { PageHeader } from '@web/components/ui';
import { renderCard } from '@web/features/catalog/card-view';
import { CollectionCardRenderer, Vault } from '@web/features/collection';
import { ShipCardsButton, useShippingLiveUpdates } from '@web/features/shipping';

export default function CollectPage() {
  // A cancelled or returned shipment puts cards back in the vault: refresh it when that happens.
  useShippingLiveUpdates();
  return (
    <CollectionCardRenderer value={renderCard}>
      <PageHeader
        eyebrow="Collection"
        title="My vault"
        description="Every card you own is stored here. Open one for its story and proof, sell cards back for instant credit, or have them shipped to you."
      />
      <Vault
        selectionActions={(selected, clear) => (
          <ShipCardsButton cards={selected.map((c) => ({ id: c.id, name: c.card.name }))} onShipped={(ids) => clear(ids)} />
        )}
      />
    </CollectionCardRenderer>
  );
}
