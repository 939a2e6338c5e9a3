/**
 * The tables modules/mail publishes (ADR 0013): what other modules may READ and join. Only
 * modules/mail writes them; to change one, call its service. Adding a table here is a reviewed decision.
 */
export { mailMessages } from '../../db/schema/mail.ts';
