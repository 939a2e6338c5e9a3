/** Collection and buyback (issue 7): the vault, selling back, owned cards in the back office. */
export { Vault } from './vault';
export type { OwnedCardExtras } from './owned-card-dialog';
export { SellBackPanel, type SellBackPanelProps } from './sell-back-panel';
export { SellBackDialog } from './sell-back-dialog';
export { CollectionCardRenderer, type RenderCollectionCard } from './card-renderer';
export { AdminBuybacks } from './admin-buybacks';
export { AdminRates } from './admin-rates';
export { AdminOwned } from './admin-owned';
export { SetCompletion } from './set-completion';
export { WishlistPanel } from './wishlist-panel';
export { useWishlistHearts } from './wishlist-heart';
