/**
 * The tables modules/catalog publishes (ADR 0013): what other modules may READ and join. Only
 * modules/catalog writes them; to change one, call its service. Adding a table here is a reviewed decision.
 */
export { cardClasses, cards, catalogState } from '../../db/schema/catalog.ts';
