import { lazy, Suspense } from 'react';
import { PAGE_HEADS } from '@shared/page-heads';
import { PageHeader, Skeleton, Tabs, TabsContent, TabsList, TabsTrigger } from '@web/components/ui';
import { renderCard } from '@web/features/catalog/card-view';
import { LazyValueChart } from '@web/features/catalog/lazy-value-chart';
import { CollectionCardRenderer, SetCompletion, Vault, WishlistPanel, type OwnedCardExtras } from '@web/features/collection';
import { ShipCardsButton, useShippingLiveUpdates } from '@web/features/shipping';
import { ListedCopyActions, SellOnMarketButton } from '@web/features/market/vault-actions';
import { TradeBinderToggle } from '@web/features/market/swaps';
import { useUrlState } from '@web/lib/url-state';

// Proof of the vault (issue 44): its code loads when the tab opens, not with the vault.
const VaultProofPanel = lazy(() => import('@web/features/collection/vault-proof-panel').then((m) => ({ default: m.VaultProofPanel })));

const TABS = ['cards', 'sets', 'wishlist', 'proof'] as const;
type Tab = (typeof TABS)[number];
const URL_DEFAULTS = { tab: 'cards', card: '' };

// One card's dialog in the vault: ship it or sell it on the market from there, see its price
// history, and for a copy on the market its listing (other features).
const CARD_EXTRAS: OwnedCardExtras = {
  actions: (copy, done) => (
    <>
      <SellOnMarketButton copy={copy} onListed={done} />
      <TradeBinderToggle copy={copy} />
      <ShipCardsButton cards={[copy]} label="Ship" onShipped={done} />
    </>
  ),
  listedActions: (copy, done) => <ListedCopyActions copy={copy} done={done} />,
  chart: (card) => <LazyValueChart cardId={card.id} name={card.name} />,
};

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
          <TabsTrigger value="proof">Proof</TabsTrigger>
        </TabsList>
        <TabsContent value="cards">
          <Vault
            cardExtras={CARD_EXTRAS}
            openCard={s.card || null}
            onOpenCardChange={(id) => set({ card: id ?? '' })}
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
        <TabsContent value="proof">
          <Suspense fallback={<Skeleton className="h-40 w-full" />}>
            <VaultProofPanel />
          </Suspense>
        </TabsContent>
      </Tabs>
    </CollectionCardRenderer>
  );
}
