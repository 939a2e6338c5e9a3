/**
 * The tables modules/uploads publishes (ADR 0013): what other modules may READ and join. Only
 * modules/uploads writes them; to change one, call its service. Adding a table here is a reviewed decision.
 */
export { uploads } from '../../db/schema/uploads.ts';
