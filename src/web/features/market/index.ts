/** The marketplace (issue 43): browse, one listing with buy now, the seller's side, and the vault's actions. */
export { MarketBrowse, prefetchMarket } from './browse';
export { ListingView, prefetchListing } from './listing-view';
export { MyMarket } from './my-market';
export { ListedCopyActions, SellOnMarketButton } from './vault-actions';
export { useMarketLiveUpdates } from './live';
export { parseMarketSearch, type MarketSearch } from './search';
