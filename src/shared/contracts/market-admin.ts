import { z } from 'zod';
import { dayRangeFields, fromNotAfterTo, instantRangeFields } from './dates.ts';
import { MARKET_LISTING_STATES, marketListingSchema } from './market.ts';
import { pageSchema, pageSizeSchema, pagedSchema } from './paging.ts';

/**
 * The marketplace's back office (issue 43 item 7, /admin/market): every listing and every trade
 * with filters, removing a listing with a reason the seller is told, and the market's volume and
 * fee revenue over a period. The fee and the price bounds are the owner's `market.settings`.
 */

const text = (max: number) => z.string().trim().max(max).optional();

export const adminMarketListingsQuerySchema = z
  .object({
    state: z.enum(['all', ...MARKET_LISTING_STATES], { message: 'Pick a state from the list.' }).default('all'),
    /** Card name (contains). */
    card: text(100),
    /** Seller's username or email (contains). */
    seller: text(200),
    ...dayRangeFields,
    page: pageSchema,
    pageSize: pageSizeSchema(25, 100),
  })
  .superRefine(fromNotAfterTo);
export type AdminMarketListingsQuery = z.input<typeof adminMarketListingsQuerySchema>;

export const adminMarketListingSchema = marketListingSchema.extend({
  sellerEmail: z.string().nullable(),
  buyerId: z.string().nullable(),
  buyerUsername: z.string().nullable(),
  /** Open offers on it now. */
  openOffers: z.number().int(),
  removedBy: z.string().nullable(),
  removedReason: z.string().nullable(),
  closedAt: z.string().nullable(),
});
export type AdminMarketListing = z.infer<typeof adminMarketListingSchema>;
export const adminMarketListingPageSchema = pagedSchema(adminMarketListingSchema);

export const adminMarketTradesQuerySchema = z
  .object({
    card: text(100),
    /** Buyer's or seller's username or email (contains). */
    user: text(200),
    ...dayRangeFields,
    page: pageSchema,
    pageSize: pageSizeSchema(25, 100),
  })
  .superRefine(fromNotAfterTo);
export type AdminMarketTradesQuery = z.input<typeof adminMarketTradesQuerySchema>;

/**
 * One trade between collectors: a listing bought (now, or by an accepted offer), a card offer
 * accepted, or a swap accepted (its price is the cash part, 0 card for card; its seller the one who
 * received the cash, else the recipient; its card the first the seller gave, `swapCards` in all).
 */
export const adminMarketTradeSchema = z.object({
  /** The listing's id, the card offer's, or the swap's. */
  id: z.string(),
  via: z.enum(['listing', 'card_offer', 'swap']),
  /** How many cards changed hands (1 but for a swap). */
  cards: z.number().int(),
  cardId: z.string(),
  name: z.string(),
  priceCents: z.number().int(),
  feeCents: z.number().int(),
  sellerId: z.string().nullable(),
  sellerUsername: z.string().nullable(),
  buyerId: z.string().nullable(),
  buyerUsername: z.string().nullable(),
  ledgerEntryId: z.string().nullable(),
  at: z.string(),
});
export type AdminMarketTrade = z.infer<typeof adminMarketTradeSchema>;
export const adminMarketTradePageSchema = pagedSchema(adminMarketTradeSchema);

/** Days (`to` inclusive) or instants (`to` exclusive, as the dashboard's period); the last 30 days by default. */
export const adminMarketSummaryQuerySchema = z.object({ ...instantRangeFields }).superRefine(fromNotAfterTo);

/** The market now, and its sales over the period (`from`–`to`). */
export const adminMarketSummarySchema = z.object({
  from: z.string(),
  to: z.string(),
  activeListings: z.number().int(),
  activeListingsCents: z.number().int(),
  openOffers: z.number().int(),
  heldCents: z.number().int(),
  sales: z.number().int(),
  volumeCents: z.number().int(),
  /** The house's fee revenue: what the `market_fees` account took in over the period. */
  feesCents: z.number().int(),
});
export type AdminMarketSummary = z.infer<typeof adminMarketSummarySchema>;

export const adminRemoveListingSchema = z.object({
  reason: z
    .string({ message: 'A reason is required.' })
    .trim()
    .min(3, 'Give a reason (at least 3 characters): the seller is told it, and it goes to the audit log.')
    .max(500, 'Keep the reason under 500 characters.'),
});
export type AdminRemoveListingInput = z.input<typeof adminRemoveListingSchema>;
