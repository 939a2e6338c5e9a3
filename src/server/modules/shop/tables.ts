/**
 * The tables modules/shop publishes (ADR 0013): what other modules may READ and join. Only
 * modules/shop writes them; to change one, call its service. Adding a table here is a reviewed decision.
 */
export { openings, products, purchases } from '../../db/schema/shop.ts';
