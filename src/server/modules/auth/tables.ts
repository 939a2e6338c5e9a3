/**
 * The tables modules/auth publishes (ADR 0013): what other modules may READ and join. Only
 * modules/auth writes them; to change one, call its service. Adding a table here is a reviewed decision.
 * Other modules change a person's sign-in state through `user-writes.ts` (ban, role, username, two-factor off,
 * ending sessions, the erase).
 */
export { account, session, twoFactor, user, verification } from '../../db/schema/auth.ts';
