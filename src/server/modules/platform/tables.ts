/**
 * The tables modules/platform publishes (ADR 0013): what other modules may READ and join. Only
 * modules/platform writes them; to change one, call its service. Adding a table here is a reviewed decision.
 */
export { idempotencyKeys } from '../../db/schema/platform.ts';
