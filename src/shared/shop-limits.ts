/**
 * Limits of the shop the web pages check before asking the API, without zod: importing them from
 * contracts/shop.ts pulled the zod schemas (25 KB gzip) into the product and fairness pages
 * (issue 21). contracts/shop.ts re-exports them and builds its schemas from them.
 */

export const MAX_PURCHASE_QUANTITY = 10;

/** A client seed a player may choose for provably fair draws. */
export const CLIENT_SEED_RE = /^[A-Za-z0-9._-]{1,64}$/;

/** Cards per GET /api/shop/card-odds request (a wishlist asks in chunks of this many). */
export const MAX_CARD_ODDS_IDS = 100;
