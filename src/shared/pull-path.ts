/**
 * A pull's public page address and id check, without zod: the reveal, the vault dialog and the
 * pull page itself link to or check pulls, and importing contracts/pulls.ts for that pulled the
 * zod schemas (25 KB gzip) into public pages (issue 21). contracts/pulls.ts re-exports these.
 */

/** Where a pull's page lives. */
export const pullPagePath = (id: string) => `/pulls/${encodeURIComponent(id)}`;

// The ids are Postgres uuids; same shape as the contract's z.string().uuid() (RFC 9562 versions
// 1-8 and the nil and max ids). A unit test keeps the two in agreement.
const UUID = /^([0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/i;

/** Whether `id` can be a pull's id at all (the page asks the API only then). */
export const isPullId = (id: string) => UUID.test(id);
