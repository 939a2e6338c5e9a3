import { z } from 'zod';
import { pageSchema, pageSizeSchema, pagedSchema } from './paging.ts';

/**
 * The marketplace (issue 43, ADR 0028): listings of vaulted copies at a fixed price, bought now.
 * Shared by the API (src/server/modules/market) and, later, the web. Amounts are integer cents,
 * the fee in basis points (500 = 5%).
 */

export const MARKET_LISTING_STATES = ['active', 'sold', 'delisted', 'expired'] as const;
export type MarketListingState = (typeof MARKET_LISTING_STATES)[number];

/** The house's fee on a sale at `priceCents`: the share, rounded down, at least the minimum, never above the price. */
export function marketFee(priceCents: number, feeBp: number, minFeeCents: number): number {
  return Math.min(priceCents, Math.max(minFeeCents, Math.floor((priceCents * feeBp) / 10_000)));
}

/**
 * A price in whole cents. Bounds from the settings (market.settings) are checked by the service,
 * with the same field message shape; this only refuses what is never a price.
 */
const priceCents = z
  .number({ message: 'Enter a price in cents.' })
  .int('Use whole cents.')
  .positive('The price must be more than zero.')
  .max(1_000_000_000, 'That price is too high.');

export const createListingSchema = z
  .object({
    ownedCardId: z.uuid('Pick one of your vault cards.'),
    priceCents,
    /** Days until the listing expires and the card returns to the vault; none = until delisted. */
    expiresInDays: z.number().int('Use whole days.').min(1, 'At least one day.').max(365, 'At most a year.').optional(),
    /** The seller saw that the price is far from the card's comparables and lists it anyway. */
    confirmFarPrice: z.boolean().optional(),
  })
  .strict();
export type CreateListingInput = z.infer<typeof createListingSchema>;

export const marketQuoteInputSchema = z.object({ priceCents }).strict();

export const updateListingSchema = z.object({ priceCents, confirmFarPrice: z.boolean().optional() }).strict();

/**
 * A price is far from a card's comparables below half or above three times the reference: the
 * median of its last sales on the market (at least MARKET_COMPS_MIN_SALES in MARKET_COMPS_DAYS),
 * else the card's value. The seller confirms such a price (ADR 0028, "Rules").
 */
export const MARKET_FAR_BELOW = 0.5;
export const MARKET_FAR_ABOVE = 3;
export const MARKET_COMPS_MIN_SALES = 3;
export const MARKET_COMPS_DAYS = 90;
export function isFarFromComps(priceCents: number, referenceCents: number): boolean {
  return referenceCents > 0 && (priceCents < referenceCents * MARKET_FAR_BELOW || priceCents > referenceCents * MARKET_FAR_ABOVE);
}

export const buyListingSchema = z
  .object({
    /** The price the buyer saw: a different price now is 409 price_changed and nothing moves. */
    expectedPriceCents: priceCents,
    /** The listing version the buyer saw (bumped by each price edit); optional. */
    expectedVersion: z.number().int().positive().optional(),
  })
  .strict();

export const marketQuoteSchema = z.object({
  priceCents: z.number().int(),
  feeBp: z.number().int(),
  minFeeCents: z.number().int(),
  feeCents: z.number().int(),
  /** What the seller receives: price − fee. */
  sellerReceivesCents: z.number().int(),
  minPriceCents: z.number().int(),
  maxPriceCents: z.number().int(),
});
export type MarketQuote = z.infer<typeof marketQuoteSchema>;

export const marketListingSchema = z.object({
  id: z.string(),
  ownedCardId: z.string(),
  cardId: z.string(),
  name: z.string(),
  setName: z.string(),
  number: z.number().int(),
  classId: z.string(),
  className: z.string(),
  classColour: z.string(),
  imageKey: z.string(),
  gradingCompany: z.string().nullable(),
  grade: z.number().nullable(),
  valueCents: z.number().int(),
  sellerId: z.string(),
  sellerUsername: z.string().nullable(),
  priceCents: z.number().int(),
  /** The fee and what the seller receives, by the terms quoted when it was listed. */
  feeCents: z.number().int(),
  sellerReceivesCents: z.number().int(),
  state: z.enum(MARKET_LISTING_STATES),
  version: z.number().int(),
  expiresAt: z.string().nullable(),
  soldAt: z.string().nullable(),
  /** What it sold for: the price, or the accepted offer's amount (null until sold). */
  soldPriceCents: z.number().int().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type MarketListing = z.infer<typeof marketListingSchema>;

export const MARKET_SORTS = ['newest', 'price_asc', 'price_desc'] as const;

const optionalInt = z.coerce.number().int('Use whole cents.').min(0, 'Cannot be negative.').optional();

export const marketBrowseQuerySchema = z
  .object({
    q: z.string().trim().max(100, 'At most 100 characters.').optional(),
    set: z.string().trim().max(200).optional(),
    classId: z.uuid('Pick a class.').optional(),
    /** 'raw' for ungraded copies, or a grade 1–10 (at least). */
    graded: z.enum(['graded', 'raw']).optional(),
    minGrade: z.coerce.number().min(1).max(10).optional(),
    minPriceCents: optionalInt,
    maxPriceCents: optionalInt,
    sort: z.enum(MARKET_SORTS).default('newest'),
    page: pageSchema,
    pageSize: pageSizeSchema(24, 100),
  })
  .refine((q) => q.minPriceCents === undefined || q.maxPriceCents === undefined || q.minPriceCents <= q.maxPriceCents, {
    message: 'The lowest price must not be above the highest.',
    path: ['maxPriceCents'],
  });

export const myListingsQuerySchema = z.object({
  state: z.enum(MARKET_LISTING_STATES).optional(),
  page: pageSchema,
  pageSize: pageSizeSchema(24, 100),
});

export const marketListingPageSchema = pagedSchema(marketListingSchema).extend({
  /**
   * True when the browse stopped counting at MARKET_COUNT_CAP matches: `total` is then the cap and
   * the page says "10,000+" (an exact count of 100,000 listings costs a scan per request).
   */
  totalIsCapped: z.boolean(),
});
/** Browse counts matches up to this many (bench/market.ts: a capped count is ~3 ms at 100,000 listings, an exact one ~100 ms). */
export const MARKET_COUNT_CAP = 10_000;
export type MarketListingPage = z.infer<typeof marketListingPageSchema>;

export const marketPurchaseSchema = z.object({
  listing: marketListingSchema,
  /** The copy, now in the buyer's vault (the same id). */
  ownedCardId: z.string(),
  ledgerEntryId: z.string(),
  balanceCents: z.number().int(),
});
export type MarketPurchase = z.infer<typeof marketPurchaseSchema>;

// ───────────────────────── offers (ADR 0028 part 2) ─────────────────────────

/**
 * open → accepted | rejected | cancelled | expired | countered (the seller answered with a counter,
 * a new offer) | lapsed (the listing sold elsewhere, was delisted or expired).
 */
export const MARKET_OFFER_STATES = ['open', 'countered', 'accepted', 'rejected', 'cancelled', 'expired', 'lapsed'] as const;
export type MarketOfferState = (typeof MARKET_OFFER_STATES)[number];
/** Who made the offer: the buyer (a bid), or the seller (a counter to a bid). */
export const MARKET_OFFER_SIDES = ['buyer', 'seller'] as const;

/** How long an offer stays open unless answered (hours): 3 days by default, at most 14. */
export const OFFER_EXPIRY_HOURS = { default: 72, max: 336 } as const;

/** An offered amount in whole cents (the settings' price bounds are checked by the service). */
const amountCents = z
  .number({ message: 'Enter an amount in cents.' })
  .int('Use whole cents.')
  .positive('The amount must be more than zero.')
  .max(1_000_000_000, 'That amount is too high.');

const expiresInHours = z.number().int('Use whole hours.').min(1, 'At least one hour.').max(OFFER_EXPIRY_HOURS.max, 'At most 14 days.').optional();

export const makeListingOfferSchema = z.object({ amountCents, expiresInHours }).strict();
export const makeCardOfferSchema = z.object({ cardId: z.uuid('Pick a card.'), amountCents, expiresInHours }).strict();
export const counterOfferSchema = z.object({ amountCents, expiresInHours }).strict();
/** Accepting a card offer names the vaulted, unlisted copy to sell; a listing offer sells the listed copy. */
export const acceptOfferSchema = z.object({ ownedCardId: z.uuid('Pick one of your vault cards.').optional() }).strict();

export const marketOfferSchema = z.object({
  id: z.string(),
  /** Null for an offer on a card (any owner of a vaulted copy may accept). */
  listingId: z.string().nullable(),
  cardId: z.string(),
  name: z.string(),
  setName: z.string(),
  imageKey: z.string(),
  buyerId: z.string(),
  buyerUsername: z.string().nullable(),
  /** The listing's seller; on a card offer, the owner who accepted it (else null). */
  sellerId: z.string().nullable(),
  sellerUsername: z.string().nullable(),
  madeBy: z.enum(MARKET_OFFER_SIDES),
  amountCents: z.number().int(),
  /** What the buyer's wallet holds for it now (0 once closed). */
  heldCents: z.number().int(),
  /** The listing's price now (listing offers only). */
  listingPriceCents: z.number().int().nullable(),
  state: z.enum(MARKET_OFFER_STATES),
  counterOf: z.string().nullable(),
  /** Set when accepted. */
  ownedCardId: z.string().nullable(),
  feeCents: z.number().int().nullable(),
  expiresAt: z.string(),
  closedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type MarketOffer = z.infer<typeof marketOfferSchema>;

export const offersQuerySchema = z.object({
  state: z.enum(MARKET_OFFER_STATES).optional(),
  page: pageSchema,
  pageSize: pageSizeSchema(24, 100),
});

export const marketOfferPageSchema = pagedSchema(marketOfferSchema);
export type MarketOfferPage = z.infer<typeof marketOfferPageSchema>;

/** An accepted offer: the sale it made. */
export const marketOfferSaleSchema = z.object({
  offer: marketOfferSchema,
  ownedCardId: z.string(),
  ledgerEntryId: z.string(),
});
export type MarketOfferSale = z.infer<typeof marketOfferSaleSchema>;

// ───────────────────────── price comps (issue 43 item 5) ─────────────────────────

/** How many recent sales a card's comps list, and over how long. */
export const CARD_COMPS_SALES = 20;
export const CARD_COMPS_SALES_DAYS = 365;

/** One sale of a copy of the card between collectors: a listing bought (now or by an accepted offer), or a card offer accepted. */
export const marketSaleSchema = z.object({
  priceCents: z.number().int(),
  soldAt: z.string(),
  via: z.enum(['listing', 'card_offer']),
});
export type MarketSale = z.infer<typeof marketSaleSchema>;

/** GET /api/market/cards/{id}/comps: what a copy of this card goes for, and where each figure comes from. */
export const cardCompsSchema = z.object({
  cardId: z.string(),
  /** The shop's market value (the catalog's, set by the shop); the value history chart plots it over time. */
  valueCents: z.number().int(),
  /** Collectors' sales on the market, newest first (at most CARD_COMPS_SALES in CARD_COMPS_SALES_DAYS). */
  sales: z.array(marketSaleSchema),
  /** The cheapest active listing, or null when none. */
  lowestListing: z.object({ id: z.string(), priceCents: z.number().int() }).nullable(),
  activeListings: z.number().int(),
  /** What the shop pays for a copy now (its class's buyback rate of the value). */
  buyback: z.object({ rateBp: z.number().int(), amountCents: z.number().int() }),
  /** The reference a listing's price is checked against (the far-price rule), and what it is based on. */
  reference: z.object({ cents: z.number().int(), basis: z.enum(['sales', 'value']), sales: z.number().int() }),
});
export type CardComps = z.infer<typeof cardCompsSchema>;

// ───────────────────────── trade binders and swaps (issue 43 item 4, ADR 0032) ─────────────────────────

/** How many copies each side of a swap may name. */
export const SWAP_MAX_COPIES = 10;

/** A copy a collector opened to trade offers (their trade binder): others may propose swaps for it. */
export const binderItemSchema = z.object({
  ownedCardId: z.string(),
  cardId: z.string(),
  name: z.string(),
  setName: z.string(),
  imageKey: z.string(),
  valueCents: z.number().int(),
  ownerId: z.string(),
  ownerUsername: z.string().nullable(),
  addedAt: z.string(),
});
export type BinderItem = z.infer<typeof binderItemSchema>;
export const binderPageSchema = pagedSchema(binderItemSchema);
export type BinderPage = z.infer<typeof binderPageSchema>;

/** Other collectors' binders: the copies open to trade, of one card or matching a name. */
export const bindersQuerySchema = z.object({
  cardId: z.uuid('Pick a card.').optional(),
  /** One copy: is it open to trade? (the vault's toggle, whatever the binder's size). */
  ownedCardId: z.uuid('Pick a card of yours.').optional(),
  q: z.string().trim().max(80, 'At most 80 characters.').optional(),
  page: pageSchema,
  pageSize: pageSizeSchema(24, 100),
});

/** A swap: open → accepted | declined | cancelled | expired | stale (a copy moved before it was accepted). */
export const MARKET_SWAP_STATES = ['open', 'accepted', 'declined', 'cancelled', 'expired', 'stale'] as const;
export type MarketSwapState = (typeof MARKET_SWAP_STATES)[number];

const copyIds = (what: string) =>
  z
    .array(z.uuid(`Pick ${what}.`))
    .min(1, `Pick at least one card ${what === 'your cards' ? 'to give' : 'you want'}.`)
    .max(SWAP_MAX_COPIES, `At most ${SWAP_MAX_COPIES} cards a side.`)
    .refine((a) => new Set(a).size === a.length, 'A card is named twice.');

/**
 * A proposal: copies of yours for copies in another collector's binder (all theirs), plus cash
 * either way: `cashCents` > 0 you pay it (held from your free balance at once), < 0 they pay you
 * (taken from theirs when they accept), 0 none.
 */
export const proposeSwapSchema = z
  .object({
    give: copyIds('your cards'),
    want: copyIds('their cards'),
    cashCents: z
      .number({ message: 'Enter an amount in cents.' })
      .int('Use whole cents.')
      .min(-1_000_000_000, 'That amount is too high.')
      .max(1_000_000_000, 'That amount is too high.')
      .default(0),
    expiresInHours,
  })
  .strict();

export const swapItemSchema = z.object({
  ownedCardId: z.string(),
  cardId: z.string(),
  name: z.string(),
  setName: z.string(),
  imageKey: z.string(),
  valueCents: z.number().int(),
  /** Whose copy it is in the proposal: the proposer gives it, or the recipient does. */
  from: z.enum(['proposer', 'recipient']),
});

export const marketSwapSchema = z.object({
  id: z.string(),
  proposerId: z.string(),
  proposerUsername: z.string().nullable(),
  recipientId: z.string(),
  recipientUsername: z.string().nullable(),
  /** > 0 the proposer pays it, < 0 the recipient does. */
  cashCents: z.number().int(),
  /** What the proposer's wallet holds for it now (0 once closed). */
  heldCents: z.number().int(),
  /** The house's fee on the cash part, paid by whoever receives the cash (set when accepted). */
  feeCents: z.number().int().nullable(),
  state: z.enum(MARKET_SWAP_STATES),
  items: z.array(swapItemSchema),
  expiresAt: z.string(),
  closedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type MarketSwap = z.infer<typeof marketSwapSchema>;

export const swapsQuerySchema = z.object({
  state: z.enum(MARKET_SWAP_STATES).optional(),
  page: pageSchema,
  pageSize: pageSizeSchema(24, 100),
});
export const marketSwapPageSchema = pagedSchema(marketSwapSchema);
export type MarketSwapPage = z.infer<typeof marketSwapPageSchema>;
