/**
 * The tables modules/audit publishes (ADR 0013): what other modules may READ and join. Only
 * modules/audit writes them; to change one, call its service. Adding a table here is a reviewed decision.
 */
export { auditLog } from '../../db/schema/audit.ts';
