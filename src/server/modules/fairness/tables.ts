/**
 * The tables modules/fairness publishes (ADR 0013): what other modules may READ and join. Only
 * modules/fairness writes them; to change one, call its service. Adding a table here is a reviewed decision.
 */
export { userSeeds } from '../../db/schema/fairness.ts';
