import { z } from 'zod';
import { pageSchema, pageSizeSchema, pagedSchema } from './paging.ts';
import { applyBasisPoints } from '../money.ts';
import { dayRangeFields, fromNotAfterTo } from './dates.ts';
import { cardPhotosShape, gradedFilterSchema, idSchema, lookRefsSchema, MAX_VALUE_CENTS, publicCardSchema } from './catalog.ts';
import { ACQUIRED_VIA, COLLECTION_SORTS, COLLECTION_STATUS_FILTERS, OWNED_CARD_STATUSES } from './owned-cards.ts';

export { ACQUIRED_LABEL, COLLECTION_SORTS, COLLECTION_STATUS_FILTERS, formatRate, STATUS_LABEL } from './owned-cards.ts';

/**
 * Collection, buyback and owned cards in the back office (issue 7). Shared by the API
 * (src/server/modules/collection, buyback, owned-admin) and the web (src/web/features/collection).
 * Every amount is integer cents; rates are basis points (8500 = 85%).
 */

const cents = z.number().int();
const isoDate = z.string();

export const DEFAULT_BUYBACK_RATE_BP = 8500;
/** How many cards one sale (or one quote) may hold. */
export const MAX_BUYBACK_CARDS = 500;

export const ownedCardStatusSchema = z.enum(OWNED_CARD_STATUSES, { message: 'Pick a status from the list.' });
export const acquiredViaSchema = z.enum(ACQUIRED_VIA);

/** Rate × value, rounded down to the cent (the house never pays a fraction it does not have). */
export function buybackAmount(valueCents: number, rateBp: number): number {
  return applyBasisPoints(valueCents, rateBp);
}

const rateBpSchema = z
  .number({ message: 'The rate must be a number.' })
  .int('Use whole basis points (8500 = 85%).')
  .min(0, 'The rate cannot be below 0%.')
  .max(10_000, 'The rate cannot be above 100%.');

// ───────────────────────── the vault ─────────────────────────


export const collectionQuerySchema = z.object({
  q: z.string().trim().max(100, 'Search is at most 100 characters.').optional(),
  classId: idSchema.optional(),
  set: z.string().trim().min(1).max(100).optional(),
  /** Graded (slabbed) cards only, or raw cards only. */
  graded: gradedFilterSchema,
  status: z.enum(COLLECTION_STATUS_FILTERS, { message: 'Pick a status from the list.' }).default('in_vault'),
  sort: z.enum(COLLECTION_SORTS, { message: 'Pick a sort order from the list.' }).default('acquired_desc'),
  /** Only these owned cards (comma-separated ids, e.g. the cards of a reveal). */
  ids: z
    .string()
    .max(100 * 37)
    .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean))
    .pipe(z.array(idSchema).max(100, 'At most 100 ids.'))
    .optional(),
  page: pageSchema,
  pageSize: pageSizeSchema(48, 200),
});
export type CollectionQuery = z.input<typeof collectionQuerySchema>;

/** One owned copy, with the card to draw and what selling it back pays right now. */
export const ownedCardSchema = z.object({
  id: z.string(),
  status: ownedCardStatusSchema,
  acquiredVia: acquiredViaSchema,
  acquiredAt: isoDate,
  /** The card's value when it was acquired (the pull value). */
  acquiredValueCents: cents,
  openingId: z.string().nullable(),
  productId: z.string().nullable(),
  card: publicCardSchema,
  className: z.string(),
  classColour: z.string(),
  /** Current market value (the card's value now). */
  valueCents: cents,
  rateBp: z.number().int(),
  buybackCents: cents,
});
export type OwnedCard = z.infer<typeof ownedCardSchema>;

export const collectionPageSchema = pagedSchema(ownedCardSchema).extend({
  /** What is in the vault now (whatever the filters): count and current market value. */
  vault: z.object({ count: z.number().int(), valueCents: cents, buybackCents: cents }),
  /** Counts per status, for the status filter. */
  statusCounts: z.record(z.string(), z.number().int()),
  /** Classes and sets of the user's cards, for the filters. */
  classes: z.array(z.object({ id: z.string(), name: z.string(), colour: z.string() })),
  sets: z.array(z.string()),
  refs: lookRefsSchema,
});
export type CollectionPage = z.infer<typeof collectionPageSchema>;

export const ownedCardDetailSchema = z.object({
  ownedCard: ownedCardSchema.extend({ description: z.string(), ...cardPhotosShape }),
  opening: z
    .object({
      id: z.string(),
      productId: z.string(),
      productName: z.string(),
      serverSeedHash: z.string(),
      clientSeed: z.string(),
      nonce: z.number().int(),
      slot: z.number().int().nullable(),
      createdAt: isoDate,
    })
    .nullable(),
  buyback: z
    .object({ id: z.string(), amountCents: cents, rateBp: z.number().int(), marketValueCents: cents, createdAt: isoDate })
    .nullable(),
  refs: lookRefsSchema,
});
export type OwnedCardDetail = z.infer<typeof ownedCardDetailSchema>;

// ───────────────────────── buyback ─────────────────────────

const ownedCardIdsSchema = z
  .array(idSchema)
  .min(1, 'Pick at least one card.')
  .max(MAX_BUYBACK_CARDS, `Sell at most ${MAX_BUYBACK_CARDS} cards at once.`)
  .refine((a) => new Set(a).size === a.length, 'A card is listed twice.');

/**
 * POST /api/buyback/quote and POST /api/buyback. Either explicit cards (`ownedCardIds`), every
 * vault card worth less than `belowCents`, or both (those of the listed cards worth less).
 */
export const buybackInputSchema = z
  .object({
    ownedCardIds: ownedCardIdsSchema.optional(),
    belowCents: z
      .number({ message: 'The amount must be a number.' })
      .int('Use whole cents.')
      .min(1, 'The amount must be at least 1 cent.')
      .max(MAX_VALUE_CENTS, 'That amount is too large.')
      .optional(),
    /** The quoted total the user confirmed: if prices moved since, the sale is refused (409 quote_changed). */
    expectedTotalCents: z.number().int().min(0).optional(),
  })
  .refine((v) => v.ownedCardIds !== undefined || v.belowCents !== undefined, {
    message: 'Pick the cards to sell, or an amount to sell everything below.',
    path: ['ownedCardIds'],
  });
export type BuybackInput = z.input<typeof buybackInputSchema>;

export const buybackLineSchema = z.object({
  ownedCardId: z.string(),
  cardId: z.string(),
  name: z.string(),
  classId: z.string(),
  className: z.string(),
  marketValueCents: cents,
  rateBp: z.number().int(),
  amountCents: cents,
});
export type BuybackLine = z.infer<typeof buybackLineSchema>;

export const buybackQuoteSchema = z.object({
  lines: z.array(buybackLineSchema),
  cardCount: z.number().int(),
  marketValueCents: cents,
  totalCents: cents,
  defaultRateBp: z.number().int(),
});
export type BuybackQuote = z.infer<typeof buybackQuoteSchema>;

/** 201 of POST /api/buyback. */
export const buybackResultSchema = z.object({
  buyback: z.object({
    id: z.string(),
    cardCount: z.number().int(),
    marketValueCents: cents,
    totalCents: cents,
    ledgerEntryId: z.string().nullable(),
    createdAt: isoDate,
  }),
  lines: z.array(buybackLineSchema),
  balanceCents: cents,
});
export type BuybackResult = z.infer<typeof buybackResultSchema>;

// ───────────────────────── admin: buybacks and rates ─────────────────────────

export const adminBuybackQuerySchema = z.object({
  /** Username or email (contains). */
  user: z.string().trim().max(200).optional(),
  userId: z.string().trim().min(1).max(100).optional(),
  classId: idSchema.optional(),
  /** Calendar days in UTC, `to` inclusive. */
  ...dayRangeFields,
  minCents: z.coerce.number().int().min(0).max(MAX_VALUE_CENTS).optional(),
  page: pageSchema,
  pageSize: pageSizeSchema(25, 100),
}).superRefine(fromNotAfterTo);
export type AdminBuybackQuery = z.input<typeof adminBuybackQuerySchema>;

export const adminBuybackSchema = z.object({
  id: z.string(),
  userId: z.string(),
  username: z.string().nullable(),
  email: z.string().nullable(),
  cardCount: z.number().int(),
  marketValueCents: cents,
  totalCents: cents,
  /** The rate the sale's cards were sold at (stored per line), basis points; null when the lines' rates differ. */
  rateBp: z.number().int().nullable(),
  ledgerEntryId: z.string().nullable(),
  createdAt: isoDate,
  lines: z.array(buybackLineSchema),
});
export type AdminBuyback = z.infer<typeof adminBuybackSchema>;

export const adminBuybackListSchema = pagedSchema(adminBuybackSchema).extend({
  /** Over the whole filtered set. */
  summary: z.object({ count: z.number().int(), cardCount: z.number().int(), marketValueCents: cents, totalCents: cents }),
  /** Per UTC day over the filtered set, newest first (at most 31 days). */
  daily: z.array(z.object({ day: z.string(), count: z.number().int(), cardCount: z.number().int(), totalCents: cents })),
});
export type AdminBuybackList = z.infer<typeof adminBuybackListSchema>;

export const buybackRatesSchema = z.object({
  defaultRateBp: z.number().int(),
  classes: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      colour: z.string(),
      archived: z.boolean(),
      /** Null: the class uses the default rate. */
      rateBp: z.number().int().nullable(),
      effectiveRateBp: z.number().int(),
    }),
  ),
});
export type BuybackRates = z.infer<typeof buybackRatesSchema>;

export const updateBuybackRatesSchema = z.object({
  defaultRateBp: rateBpSchema,
  /** Only the listed classes change; rateBp null = back to the default. */
  classes: z
    .array(z.object({ classId: idSchema, rateBp: rateBpSchema.nullable() }))
    .max(1000)
    .default([])
    .refine((a) => new Set(a.map((c) => c.classId)).size === a.length, 'A class is listed twice.'),
});
export type UpdateBuybackRatesInput = z.input<typeof updateBuybackRatesSchema>;
export type UpdateBuybackRatesOutput = z.output<typeof updateBuybackRatesSchema>;

// ───────────────────────── admin: owned cards ─────────────────────────

export const adminOwnedQuerySchema = z.object({
  status: z.enum(['all', ...OWNED_CARD_STATUSES], { message: 'Pick a status from the list.' }).default('all'),
  classId: idSchema.optional(),
  cardId: idSchema.optional(),
  /** Card name (contains). */
  card: z.string().trim().max(100).optional(),
  ownerId: z.string().trim().min(1).max(100).optional(),
  /** Owner username or email (contains). */
  owner: z.string().trim().max(200).optional(),
  page: pageSchema,
  pageSize: pageSizeSchema(25, 100),
});
export type AdminOwnedQuery = z.input<typeof adminOwnedQuerySchema>;

export const adminOwnedCardSchema = ownedCardSchema.extend({
  ownerId: z.string(),
  ownerUsername: z.string().nullable(),
  ownerEmail: z.string().nullable(),
  stock: z.number().int(),
});
export type AdminOwnedCard = z.infer<typeof adminOwnedCardSchema>;

export const adminOwnedListSchema = pagedSchema(adminOwnedCardSchema).extend({
  refs: lookRefsSchema,
});
export type AdminOwnedList = z.infer<typeof adminOwnedListSchema>;

const reasonSchema = z
  .string({ message: 'A reason is required.' })
  .trim()
  .min(3, 'Give a reason (at least 3 characters); it goes to the audit log.')
  .max(500, 'Keep the reason under 500 characters.');

export const grantCardSchema = z.object({
  cardId: idSchema,
  /** The user's id, username or email. */
  user: z.string().trim().min(1, 'Enter the user’s username, email or id.').max(200),
  reason: reasonSchema,
});
export type GrantCardInput = z.input<typeof grantCardSchema>;
export type GrantCardOutput = z.output<typeof grantCardSchema>;

export const revokeCardSchema = z.object({ reason: reasonSchema });
export type RevokeCardInput = z.input<typeof revokeCardSchema>;
export type RevokeCardOutput = z.output<typeof revokeCardSchema>;

export const adminOwnedResultSchema = z.object({ ownedCard: adminOwnedCardSchema, stock: z.number().int() });

// ───────────────────────── collecting: sets and the wishlist (issue 19) ─────────────────────────

/** One set of the catalog and how much of it the signed-in user holds in their vault. */
export const setCompletionSchema = z.object({
  setName: z.string(),
  /** Cards of the set in the catalog (active, not archived). */
  total: z.number().int(),
  /** Distinct cards of the set with at least one copy in the user's vault. */
  owned: z.number().int(),
});
export type SetCompletion = z.infer<typeof setCompletionSchema>;

/** GET /api/collection/sets: every set, the most complete first. */
export const setCompletionListSchema = z.object({ items: z.array(setCompletionSchema) });
export type SetCompletionList = z.infer<typeof setCompletionListSchema>;

export const setNameQuerySchema = z.object({
  set: z.string({ message: 'Pick a set.' }).trim().min(1, 'Pick a set.').max(100, 'A set name is at most 100 characters.'),
});

/** GET /api/collection/sets/missing?set=…: the cards of the set not in the user's vault, by number. */
export const missingCardsSchema = z.object({
  setName: z.string(),
  items: z.array(publicCardSchema.extend({ wished: z.boolean() })),
  refs: lookRefsSchema,
});
export type MissingCards = z.infer<typeof missingCardsSchema>;

export const wishlistItemSchema = z.object({ card: publicCardSchema, addedAt: isoDate, owned: z.boolean() });
export type WishlistItem = z.infer<typeof wishlistItemSchema>;

/** GET /api/wishlist: newest first; `cardIds` is every wished card (for the hearts). */
export const wishlistSchema = z.object({
  items: z.array(wishlistItemSchema),
  cardIds: z.array(z.string()),
  refs: lookRefsSchema,
});
export type Wishlist = z.infer<typeof wishlistSchema>;

/** PUT and DELETE /api/wishlist/{cardId}. */
export const wishlistChangeSchema = z.object({ cardId: z.string(), wished: z.boolean() });
export type WishlistChange = z.infer<typeof wishlistChangeSchema>;

/** A user may wish for at most this many cards (keeps the list and its fan-out bounded). */
export const MAX_WISHLIST = 500;
