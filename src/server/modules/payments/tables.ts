/**
 * The tables modules/payments publishes (ADR 0013): what other modules may READ and join. Only
 * modules/payments writes them; to change one, call its service. Adding a table here is a reviewed decision.
 */
export { deposits } from '../../db/schema/payments.ts';
