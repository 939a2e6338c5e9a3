/**
 * The tables modules/buyback publishes (ADR 0013): what other modules may READ and join. Only
 * modules/buyback writes them; to change one, call its service. Adding a table here is a reviewed decision.
 */
export { buybackLines, buybacks } from '../../db/schema/buyback.ts';
