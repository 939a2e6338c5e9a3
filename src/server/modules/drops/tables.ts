/**
 * The tables modules/drops publishes (ADR 0013): what other modules may READ and join. Only
 * modules/drops writes them; to change one, call its service. Adding a table here is a reviewed decision.
 */
export { dropPrizes, drops } from '../../db/schema/drops.ts';
