/**
 * The tables modules/auth publishes (ADR 0013): what other modules may READ and join. Only
 * modules/auth writes them; to change one, call its service. Adding a table here is a reviewed decision.
 *
 * Not yet true for writes: account (the erase) and admin-users (ban, role, two-factor reset) still
 * write the user, session and two-factor tables (module-ownership.test.ts lists them).
 */
export { account, session, twoFactor, user, verification } from '../../db/schema/auth.ts';
