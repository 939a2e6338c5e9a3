/**
 * The tables modules/inventory publishes (ADR 0013): what other modules may READ and join. Only
 * modules/inventory writes them; to change one, call its service. Adding a table here is a reviewed decision.
 */
export { cardSlabs, ownedCards } from '../../db/schema/inventory.ts';
