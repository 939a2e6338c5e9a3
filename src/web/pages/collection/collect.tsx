import { PAGE_HEADS } from '@shared/page-heads';
import { PageHeader, Tabs, TabsContent, TabsList, TabsTrigger } from '@web/components/ui';
import { renderCard } from '@web/features/catalog/card-view';
import { CollectionCardRenderer, SetCompletion, Vault, WishlistPanel } from '@web/features/collection';
import { ShipCardsButton, useShippingLiveUpdates } from '@web/features/shipping';
import { useUrlState } from '@web/lib/url-state';

const TABS = ['cards', 'sets', 'wishlist'] as const;
type Tab = (typeof TABS)[number];
const URL_DEFAULTS = { tab: 'cards' };

export default function CollectPage() {
  // A cancelled or returned shipment puts cards back in the vault: refresh it when that happens.
  useShippingLiveUpdates();
  const [s, set] = useUrlState(URL_DEFAULTS);
  const tab: Tab = (TABS as readonly string[]).includes(s.tab) ? (s.tab as Tab) : 'cards';
  return (
    <CollectionCardRenderer value={renderCard}>
      <PageHeader
        eyebrow={PAGE_HEADS.collect.eyebrow}
        title={PAGE_HEADS.collect.title}
        description={PAGE_HEADS.collect.description}
      />
      <Tabs value={tab} onValueChange={(v) => set({ tab: v })}>
        <TabsList aria-label="Your collection">
          <TabsTrigger value="cards">Cards</TabsTrigger>
          <TabsTrigger value="sets">Sets</TabsTrigger>
          <TabsTrigger value="wishlist">Wishlist</TabsTrigger>
        </TabsList>
        <TabsContent value="cards">
          <Vault
            selectionActions={(selected, clear) => (
              <ShipCardsButton cards={selected.map((c) => ({ id: c.id, name: c.card.name }))} onShipped={(ids) => clear(ids)} />
            )}
          />
        </TabsContent>
        <TabsContent value="sets">
          <SetCompletion />
        </TabsContent>
        <TabsContent value="wishlist">
          <WishlistPanel />
        </TabsContent>
      </Tabs>
    </CollectionCardRenderer>
  );
}
