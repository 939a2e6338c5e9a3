/**
 * The tables modules/market publishes (ADR 0013): what other modules may READ and join. Only
 * modules/market writes them; to change one, call its service. Adding a table here is a reviewed decision.
 */
export { marketBinder, marketListings, marketOffers, marketSwapItems, marketSwaps } from '../../db/schema/market.ts';
