/**
 * The tables modules/referrals publishes (ADR 0013): what other modules may READ and join. Only
 * modules/referrals writes them; to change one, call its service. Adding a table here is a reviewed decision.
 *
 * `referrals`: separation of duties (ADR 0024, modules/audit/duties.ts) reads who referred whom,
 * since an account a staff member referred (or was referred by) counts as theirs.
 *
 * `referralCodes`: GET /api/me (modules/auth) names the user's own code, so share links the web
 * builds (a pull's page) carry the sharer's referral code without a second request (issue 41).
 */
export { referralCodes, referrals } from '../../db/schema/referrals.ts';
