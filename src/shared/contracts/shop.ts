import { z } from 'zod';
import { pageSchema, pageSizeSchema, pagedSchema } from './paging.ts';
import { gradingSchema, idSchema, lookRefsSchema, uploadKeySchema } from './catalog.ts';
import { CLIENT_SEED_RE, MAX_CARD_ODDS_IDS, MAX_PURCHASE_QUANTITY } from '../shop-limits.ts';

export { CLIENT_SEED_RE, MAX_CARD_ODDS_IDS, MAX_PURCHASE_QUANTITY };

/**
 * Shop contracts (issue 6): products, packs and their odds, purchases, openings, the unopened
 * pack inventory, provably-fair seeds and top pulls. Shared by the API (src/server/modules/shop,
 * src/server/modules/fairness) and the web (src/web/features/shop, fairness).
 * Every amount is integer cents. docs/api-shop.md lists the endpoints; docs/fairness.md the draw.
 */

const cents = z.number().int();
const isoDate = z.string();

export const MAX_PACK_SLOTS = 20;
export const MAX_CLASSES_PER_SLOT = 20;
/** Weights are integers; a slot's percentages are weight / sum of its weights. */
export const MAX_WEIGHT = 1_000_000;
export const MAX_PRICE_CENTS = 10_000_000; // $100,000
export const MAX_POOL_CARDS = 5_000;

// ───────────────────────── packs (odds) ─────────────────────────

export const slotOddsEntrySchema = z.object({
  classId: idSchema,
  weight: z
    .number({ message: 'Weight must be a number.' })
    .int('Weights are whole numbers.')
    .min(1, 'A weight must be at least 1; remove the class instead of giving it 0.')
    .max(MAX_WEIGHT, `A weight must be at most ${MAX_WEIGHT}.`),
});
export type SlotOddsEntry = z.infer<typeof slotOddsEntrySchema>;

export const packSlotSchema = z.object({
  odds: z
    .array(slotOddsEntrySchema)
    .min(1, 'Every slot needs at least one class.')
    .max(MAX_CLASSES_PER_SLOT, `At most ${MAX_CLASSES_PER_SLOT} classes per slot.`)
    .refine((o) => new Set(o.map((e) => e.classId)).size === o.length, 'A class appears twice in this slot.'),
});
export type PackSlot = z.infer<typeof packSlotSchema>;

/**
 * Which cards a pack can give: every active card of the slot's classes ('classes'), or only the
 * listed cards ('cards', still filtered to the slot's class, active and in stock).
 */
export const packPoolSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('classes') }),
  z.object({
    mode: z.literal('cards'),
    cardIds: z
      .array(idSchema)
      .min(1, 'Pick at least one card, or use all cards of the classes.')
      .max(MAX_POOL_CARDS, `At most ${MAX_POOL_CARDS} cards.`),
  }),
]);
export type PackPool = z.infer<typeof packPoolSchema>;

/**
 * PUT /api/admin/packs/{id} and POST /api/admin/packs/preview. Cards per pack = slots.length.
 * "Sum to exactly 100%" holds by construction: each slot's percentages are its integer weights
 * over their sum (e.g. weights 70/25/5 = 70%/25%/5%; 1/1/1 = three exact thirds).
 */
export const packInputSchema = z.object({
  name: z.string().trim().min(1, 'Name is required.').max(80, 'Name must be at most 80 characters.'),
  slots: z.array(packSlotSchema).min(1, 'A pack needs at least one card slot.').max(MAX_PACK_SLOTS, `At most ${MAX_PACK_SLOTS} cards per pack.`),
  pool: packPoolSchema,
});
export type PackInput = z.input<typeof packInputSchema>;

/** One class's odds in one slot, resolved for display. */
export const slotOddsRowSchema = z.object({
  classId: z.string(),
  className: z.string(),
  classColour: z.string(),
  weight: z.number().int(),
  /** weight / total, as a fraction 0–1 (display: × 100, e.g. to 2 decimals). */
  probability: z.number(),
  /** Eligible cards of this class with stock (the pool the card is drawn from). */
  poolSize: z.number().int(),
  /** Expected value of one card of this class (mean value over the pool), cents (rounded). */
  meanValueCents: cents,
  minValueCents: cents.nullable(),
  maxValueCents: cents.nullable(),
});

export const packSlotOddsSchema = z.object({
  slot: z.number().int(),
  totalWeight: z.number().int(),
  odds: z.array(slotOddsRowSchema),
});
export type PackSlotOdds = z.infer<typeof packSlotOddsSchema>;

/** A card's chance to appear in one pack (any slot), for the per-card odds table. */
export const cardOddsSchema = z.object({
  cardId: z.string(),
  name: z.string(),
  classId: z.string(),
  valueCents: cents,
  imageKey: z.string(),
  stock: z.number().int(),
  /** Probability per slot (same order as slots; 0 when the card cannot come from that slot). */
  perSlot: z.array(z.number()),
  /** Expected copies per pack = sum of perSlot. */
  expectedPerPack: z.number(),
});
export type CardOdds = z.infer<typeof cardOddsSchema>;

export const SOLD_OUT_REASONS = ['class_out_of_stock', 'no_slots', 'not_released', 'archived', 'draft'] as const;
export const soldOutReasonSchema = z.object({
  code: z.enum(SOLD_OUT_REASONS),
  /** Human sentence, e.g. "No Legendary cards are in stock (slot 5)." */
  message: z.string(),
  classId: z.string().optional(),
  slot: z.number().int().optional(),
});
export type SoldOutReason = z.infer<typeof soldOutReasonSchema>;

/** Value range and house edge of one pack (all from the same odds and pool the draw uses). */
export const packStatsSchema = z.object({
  cardsPerPack: z.number().int(),
  /** Lowest possible pack value: sum over slots of the cheapest card any of its classes can give. */
  floorCents: cents,
  /** Sum over slots of Σ p(class) × mean value of the class pool (rounded to cents). */
  expectedValueCents: cents,
  ceilingCents: cents,
  /** (price − EV) / price in basis points (negative: the pack pays out more than it costs). Null without a price. */
  houseEdgeBp: z.number().int().nullable(),
  soldOut: z.boolean(),
  soldOutReasons: z.array(soldOutReasonSchema),
});
export type PackStats = z.infer<typeof packStatsSchema>;

export const packSchema = z.object({
  id: z.string(),
  name: z.string(),
  cardsPerPack: z.number().int(),
  slots: z.array(packSlotSchema),
  pool: packPoolSchema,
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type Pack = z.infer<typeof packSchema>;

/** GET /api/admin/packs/{id}, POST /api/admin/packs/preview (stats for a price). */
export const adminPackDetailSchema = z.object({
  pack: packSchema,
  /** Products selling this pack (house edge is per product price). */
  products: z.array(z.object({ id: z.string(), name: z.string(), priceCents: cents, status: z.string() })),
  slotOdds: z.array(packSlotOddsSchema),
  stats: packStatsSchema,
  /** e.g. "Legendary has no cards in stock: the pack is sold out until stock is added." */
  warnings: z.array(z.string()),
});
export type AdminPackDetail = z.infer<typeof adminPackDetailSchema>;

export const packPreviewInputSchema = packInputSchema.extend({
  priceCents: z.number().int().min(0).max(MAX_PRICE_CENTS).nullable().default(null),
});

// ───────────────────────── products ─────────────────────────

export const PRODUCT_STATUSES = ['draft', 'live', 'archived'] as const;
export const productStatusSchema = z.enum(PRODUCT_STATUSES, { message: 'Pick draft, live or archived.' });
export type ProductStatus = z.infer<typeof productStatusSchema>;

const productFields = {
  name: z.string().trim().min(1, 'Name is required.').max(80, 'Name must be at most 80 characters.'),
  description: z.string().trim().max(4000, 'Description must be at most 4000 characters.').default(''),
  imageKey: uploadKeySchema.nullable().default(null),
  priceCents: z
    .number({ message: 'Price must be a number.' })
    .int('Price must be whole cents.')
    .min(1, 'Price must be at least 1 cent.')
    .max(MAX_PRICE_CENTS, 'Price must be at most $100,000.'),
  status: productStatusSchema.default('draft'),
  /** ISO date-time; null = on sale as soon as it is live. */
  releaseAt: z.iso.datetime({ offset: true, message: 'Use a date and time.' }).nullable().default(null),
  /** Max packs one user may buy of this product, all time; null = no limit. */
  purchaseLimitPerUser: z.number().int('Whole packs.').min(1, 'At least 1, or no limit.').max(100_000).nullable().default(null),
  featured: z.boolean().default(false),
  sortOrder: z.number().int('Whole number.').min(0).max(100_000).default(0),
  /** The pack it sells; omitted on create = a new empty pack named after the product. */
  packId: idSchema.optional(),
};
export const productInputSchema = z.object(productFields);
export type ProductInput = z.input<typeof productInputSchema>;
/** PATCH: only the fields sent change (no defaults, so an omitted field is left alone). */
export const productPatchSchema = z.object({
  name: productFields.name.optional(),
  description: z.string().trim().max(4000, 'Description must be at most 4000 characters.').optional(),
  imageKey: uploadKeySchema.nullable().optional(),
  priceCents: productFields.priceCents.optional(),
  status: productStatusSchema.optional(),
  releaseAt: z.iso.datetime({ offset: true, message: 'Use a date and time.' }).nullable().optional(),
  purchaseLimitPerUser: z.number().int('Whole packs.').min(1, 'At least 1, or no limit.').max(100_000).nullable().optional(),
  featured: z.boolean().optional(),
  sortOrder: z.number().int('Whole number.').min(0).max(100_000).optional(),
  packId: idSchema.optional(),
});

export const productSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  imageKey: z.string().nullable(),
  /** imageKey → /api/uploads/<key>-full.webp (null without an image). */
  imageUrl: z.string().nullable(),
  priceCents: cents,
  status: productStatusSchema,
  releaseAt: isoDate.nullable(),
  purchaseLimitPerUser: z.number().int().nullable(),
  featured: z.boolean(),
  sortOrder: z.number().int(),
  packId: z.string(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type Product = z.infer<typeof productSchema>;

/** An item of GET /api/shop/products (and the admin list): the product with its pack's stats. */
export const productSummarySchema = productSchema.extend({
  cardsPerPack: z.number().int(),
  floorCents: cents,
  expectedValueCents: cents,
  ceilingCents: cents,
  houseEdgeBp: z.number().int().nullable(),
  soldOut: z.boolean(),
  soldOutReasons: z.array(soldOutReasonSchema),
  /** True when releaseAt is in the future (shown as "coming soon"; buying is refused). */
  upcoming: z.boolean(),
});
export type ProductSummary = z.infer<typeof productSummarySchema>;

export const productListSchema = z.object({ items: z.array(productSummarySchema) });

export const adminProductListQuerySchema = z.object({
  q: z.string().trim().max(100).optional(),
  status: z.enum(['draft', 'live', 'archived', 'all']).default('all'),
  sort: z.enum(['order', 'name', 'price_asc', 'price_desc', 'newest']).default('order'),
  page: pageSchema,
  pageSize: pageSizeSchema(25, 100),
});
export const adminProductListSchema = pagedSchema(productSummarySchema);

// ───────────────────────── cards as revealed ─────────────────────────

/**
 * A pulled card, enough to render it (publicCard fields + class name/colour inline); the response
 * carries `refs` (classes, architects, textures) for the card renderer, like the catalog API.
 */
export const pulledCardSchema = z.object({
  id: z.string(),
  name: z.string(),
  setName: z.string(),
  number: z.number().int(),
  valueCents: cents,
  imageKey: z.string(),
  classId: z.string(),
  className: z.string(),
  classColour: z.string(),
  classSortOrder: z.number().int(),
  architectId: z.string(),
  /** Resolved: the card's texture, else its class default, else none. */
  textureId: z.string().nullable(),
  /** A graded copy: the slab this copy is (issue 38), with its own certificate and photos. */
  slab: z
    .object({ grading: gradingSchema, frontPhotoKey: z.string().nullable(), backPhotoKey: z.string().nullable() })
    .nullable()
    .optional(),
});
export type PulledCard = z.infer<typeof pulledCardSchema>;

// ───────────────────────── fairness ─────────────────────────

/** One slot of a draw: enough to recompute it (see docs/fairness.md). */
export const drawRecordSchema = z.object({
  slot: z.number().int(),
  classId: z.string(),
  /** Size of the class pool the card index was drawn from. */
  poolSize: z.number().int(),
  /** 0-based position of the card in that pool (pool sorted by card id). */
  index: z.number().int(),
  cardId: z.string(),
  /** True when this draw took the card's last copy: it leaves the pool for later draws. */
  exhausted: z.boolean(),
});
export type DrawRecord = z.infer<typeof drawRecordSchema>;

export const fairnessRecordSchema = z.object({
  serverSeedHash: z.string(),
  clientSeed: z.string(),
  nonce: z.number().int(),
  /** The odds used: slots with integer weights, in the listed order. */
  slots: z.array(packSlotSchema),
  oddsHash: z.string(),
  poolHash: z.string(),
  /** The odds revision drawn under (GET /api/fairness/revisions/{hash}); null before issue 44. */
  revisionHash: z.string().nullable(),
  draws: z.array(drawRecordSchema),
  /** Only once the seed is rotated; null while it is the active seed. */
  serverSeed: z.string().nullable(),
});
export type FairnessRecord = z.infer<typeof fairnessRecordSchema>;

export const clientSeedInputSchema = z.object({
  clientSeed: z
    .string()
    .trim()
    .regex(CLIENT_SEED_RE, 'Use 1–64 letters, digits, ".", "_" or "-".'),
});

export const seedPairSchema = z.object({
  id: z.string(),
  serverSeedHash: z.string(),
  clientSeed: z.string(),
  /** Openings made with this seed so far = the nonce the next opening uses. */
  nextNonce: z.number().int(),
  createdAt: isoDate,
});
export const revealedSeedSchema = seedPairSchema.extend({
  serverSeed: z.string(),
  revealedAt: isoDate,
});
/** GET /api/fairness/seeds */
export const seedsSchema = z.object({
  active: seedPairSchema,
  revealed: z.array(revealedSeedSchema),
});
export type Seeds = z.infer<typeof seedsSchema>;
/** POST /api/fairness/seeds/rotate */
export const rotateResultSchema = z.object({ revealed: revealedSeedSchema, active: seedPairSchema });

/** GET /api/fairness/pools/{hash}: the class pools an opening drew from (card ids sorted). */
export const poolSnapshotSchema = z.object({
  hash: z.string(),
  classes: z.array(z.object({ classId: z.string(), cardIds: z.array(z.string()) })),
});
export type PoolSnapshot = z.infer<typeof poolSnapshotSchema>;

// ───────────────────────── purchases, inventory, openings ─────────────────────────

export const quantitySchema = z
  .number({ message: 'Quantity must be a number.' })
  .int('Whole packs.')
  .min(1, 'Buy at least 1 pack.')
  .max(MAX_PURCHASE_QUANTITY, `At most ${MAX_PURCHASE_QUANTITY} packs at once.`);

/** POST /api/shop/purchases (Idempotency-Key header required). */
export const purchaseInputSchema = z.object({ productId: idSchema, quantity: quantitySchema });
export type PurchaseInput = z.infer<typeof purchaseInputSchema>;

/**
 * POST /api/shop/open (Idempotency-Key header required). Either open owned unopened packs
 * (`packIds`, 1–10 of yours) or buy and open in one step (`productId` + `quantity`).
 */
export const openInputSchema = z.union([
  z.object({
    packIds: z
      .array(idSchema)
      .min(1, 'Pick a pack to open.')
      .max(MAX_PURCHASE_QUANTITY, `Open at most ${MAX_PURCHASE_QUANTITY} packs at once.`)
      .refine((a) => new Set(a).size === a.length, 'A pack is listed twice.'),
  }),
  z.object({ productId: idSchema, quantity: quantitySchema }),
]);
export type OpenInput = z.infer<typeof openInputSchema>;

export const userPackSchema = z.object({
  /** Unopened pack id (send it in packIds to open). */
  id: z.string(),
  purchaseId: z.string(),
  productId: z.string(),
  productName: z.string(),
  productImageUrl: z.string().nullable(),
  cardsPerPack: z.number().int(),
  priceCents: cents,
  /** Whether it can be opened right now (its pack is not sold out). */
  soldOut: z.boolean(),
  createdAt: isoDate,
});
export type UserPack = z.infer<typeof userPackSchema>;

/** GET /api/shop/inventory */
export const inventorySchema = z.object({ items: z.array(userPackSchema), total: z.number().int() });

export const purchaseSchema = z.object({
  id: z.string(),
  productId: z.string(),
  productName: z.string(),
  quantity: z.number().int(),
  unitPriceCents: cents,
  totalCents: cents,
  ledgerEntryId: z.string(),
  balanceCents: cents,
  createdAt: isoDate,
});
export type Purchase = z.infer<typeof purchaseSchema>;

/** 201 of POST /api/shop/purchases */
export const purchaseResultSchema = z.object({
  purchase: purchaseSchema,
  packs: z.array(userPackSchema),
});
export type PurchaseResult = z.infer<typeof purchaseResultSchema>;

export const openingSchema = z.object({
  id: z.string(),
  userPackId: z.string(),
  purchaseId: z.string(),
  productId: z.string(),
  productName: z.string(),
  packId: z.string(),
  /** In slot order: reveal cards[0] first. */
  cards: z.array(pulledCardSchema.extend({ slot: z.number().int(), ownedCardId: z.string() })),
  totalValueCents: cents,
  fairness: fairnessRecordSchema,
  createdAt: isoDate,
});
export type Opening = z.infer<typeof openingSchema>;

/** 201 of POST /api/shop/open: settled before any animation; purchase is set for buy-and-open. */
export const openResultSchema = z.object({
  openings: z.array(openingSchema),
  purchase: purchaseSchema.nullable(),
  balanceCents: cents,
  refs: lookRefsSchema,
});
export type OpenResult = z.infer<typeof openResultSchema>;

/** GET /api/shop/purchases/{id} (the ledger entry's reference: referenceType 'purchase'). */
export const purchaseDetailSchema = z.object({
  purchase: purchaseSchema.omit({ balanceCents: true }),
  packs: z.array(userPackSchema.extend({ openingId: z.string().nullable(), openedAt: isoDate.nullable() })),
  openings: z.array(openingSchema),
  refs: lookRefsSchema,
});

/** GET /api/shop/openings (mine, newest first) and GET /api/fairness/openings/{id}. */
export const openingListQuerySchema = z.object({
  page: pageSchema,
  pageSize: pageSizeSchema(20, 50),
});
export const openingListSchema = pagedSchema(openingSchema).extend({
  refs: lookRefsSchema,
});
export const openingDetailSchema = z.object({ opening: openingSchema, refs: lookRefsSchema });

/**
 * GET /api/shop/openings/replay?ids=a,b — your own openings in the order asked, to replay their
 * reveal after a refresh or from the vault (issue 41). Someone else's opening is a 404.
 */
export const openingReplayQuerySchema = z.object({
  ids: z
    .string()
    .max(MAX_PURCHASE_QUANTITY * 37)
    .transform((s) => [...new Set(s.split(',').map((x) => x.trim()).filter(Boolean))])
    .pipe(z.array(idSchema).min(1, 'Name at least one opening.').max(MAX_PURCHASE_QUANTITY, `At most ${MAX_PURCHASE_QUANTITY} openings at once.`)),
});
export const openingReplaySchema = z.object({ openings: z.array(openingSchema), refs: lookRefsSchema });
export type OpeningReplay = z.infer<typeof openingReplaySchema>;

// ───────────────────────── product page, top pulls ─────────────────────────

export const pullSchema = z.object({
  ownedCardId: z.string(),
  openingId: z.string(),
  card: pulledCardSchema,
  valueCents: cents,
  productId: z.string(),
  productName: z.string(),
  username: z.string(),
  createdAt: isoDate,
});
export type Pull = z.infer<typeof pullSchema>;

/** GET /api/shop/products/{id} */
export const productDetailSchema = z.object({
  product: productSummarySchema,
  slotOdds: z.array(packSlotOddsSchema),
  cardOdds: z.array(cardOddsSchema),
  bestPulls: z.array(pullSchema),
  refs: lookRefsSchema,
});
export type ProductDetail = z.infer<typeof productDetailSchema>;

export const TOP_PULL_WINDOWS = ['24h', '7d', 'all'] as const;
export const topPullsQuerySchema = z.object({
  window: z.enum(TOP_PULL_WINDOWS).default('24h'),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
/** GET /api/top-pulls */
export const topPullsSchema = z.object({
  window: z.enum(TOP_PULL_WINDOWS),
  items: z.array(pullSchema),
  refs: lookRefsSchema,
});
export type TopPulls = z.infer<typeof topPullsSchema>;

/**
 * Realtime 'pull.created' on the public topic, after the commit, for pulls worth at least the
 * top-pull threshold (settings registry 'pulls.thresholds'; PULL_EVENT_MIN_CENTS is its default). Small on purpose: refetch /api/top-pulls (or GET /api/top-pulls/{ownedCardId}
 * is not needed — the payload carries what a ticker shows).
 */
export const PULL_EVENT_MIN_CENTS = 500;
export const pullEventSchema = z.object({
  ownedCardId: z.string(),
  openingId: z.string(),
  cardId: z.string(),
  cardName: z.string(),
  classId: z.string(),
  valueCents: cents,
  productId: z.string(),
  username: z.string(),
  createdAt: isoDate,
});
export type PullEvent = z.infer<typeof pullEventSchema>;

// ───────────────────────── owned cards ─────────────────────────

export { ACQUIRED_VIA, OWNED_CARD_STATUSES, type AcquiredVia, type OwnedCardStatus } from './owned-cards.ts';

/** GET /api/cards/:id/packs — the live packs that can give this card, and the chance per pack. */
export const cardPackOddsSchema = z.object({
  items: z.array(
    z.object({
      productId: z.string(),
      productName: z.string(),
      priceCents: z.number().int(),
      /** Probability per slot of drawing this very card (0 where the slot cannot give it). */
      perSlot: z.array(z.number()),
      /** Expected copies of this card per pack = sum of perSlot. */
      expectedPerPack: z.number(),
    }),
  ),
});
export type CardPackOdds = z.infer<typeof cardPackOddsSchema>;

/** GET /api/shop/card-odds?ids=a,b — cardPackOdds for many cards (a wishlist, a set's missing cards). */
export const cardOddsQuerySchema = z.object({
  ids: z
    .string()
    .max(MAX_CARD_ODDS_IDS * 37)
    .transform((s) => [...new Set(s.split(',').map((x) => x.trim()).filter(Boolean))])
    .pipe(z.array(idSchema).min(1, 'Name at least one card.').max(MAX_CARD_ODDS_IDS, `At most ${MAX_CARD_ODDS_IDS} cards at once.`)),
});
/** Every asked-for card, in the order asked; `packs` is empty when no live pack can give it. */
export const cardOddsListSchema = z.object({
  cards: z.array(z.object({ cardId: z.string(), packs: cardPackOddsSchema.shape.items })),
});
export type CardOddsList = z.infer<typeof cardOddsListSchema>;
