import { z } from 'zod';
import { idSchema, MAX_VALUE_CENTS } from './catalog.ts';

/**
 * Shipping (issue 15): addresses, fee quotes, shipments and their life, the back-office queue,
 * pick list, origins (ship-from warehouses) and settings. Shared by the API
 * (src/server/modules/shipping) and the web (src/web/features/shipping).
 * Every amount is integer cents; rates are basis points (150 = 1.5%).
 *
 * API paths (all JSON; errors use the usual { error: { code, message, fields? } } shape):
 *
 * User (signed in; spending needs a verified email):
 *   GET    /api/shipping/options                      -> shippingOptionsSchema (fees + countries shipped to)
 *   GET    /api/shipping/addresses                    -> addressListSchema (archived ones left out)
 *   POST   /api/shipping/addresses                    addressInputSchema -> 201 addressSchema
 *   PATCH  /api/shipping/addresses/{id}               addressInputSchema -> addressSchema
 *   POST   /api/shipping/addresses/{id}/default       -> addressSchema
 *   DELETE /api/shipping/addresses/{id}               -> addressDeleteResultSchema (archived if a shipment used it)
 *   POST   /api/shipping/quote                        quoteInputSchema -> quoteSchema
 *   POST   /api/shipping/shipments                    createShipmentSchema, header Idempotency-Key
 *                                                     -> 201 createShipmentResultSchema
 *            400 validation_failed (empty list, > MAX_SHIPMENT_CARDS, duplicates, country not shipped to)
 *            409 card_unavailable (fields.ownedCardIds: a card not in your vault: in a shipment,
 *                sold back, not yours), 409 insufficient_funds (offer a deposit), 409 quote_changed
 *                (expectedFeeCents differs), 404 address not found
 *   GET    /api/shipping/shipments?status&page&pageSize  -> shipmentListSchema (own shipments)
 *   GET    /api/shipping/shipments/{id}               -> shipmentSchema (404 if not yours)
 *   POST   /api/shipping/shipments/{id}/cancel        -> shipmentSchema (409 invalid_shipment_state unless requested)
 *
 * Admin (requireAdmin: admin role + second factor):
 *   GET    /api/admin/shipping/shipments?status&originId&minAgeDays&maxAgeDays&q&page&pageSize
 *                                                     -> adminShipmentListSchema (oldest first, counts per status)
 *   GET    /api/admin/shipping/shipments/{id}         -> adminShipmentSchema
 *   POST   /api/admin/shipping/shipments/{id}/advance advanceShipmentSchema -> adminShipmentSchema
 *   POST   /api/admin/shipping/shipments/bulk-advance bulkAdvanceSchema -> bulkAdvanceResultSchema
 *   POST   /api/admin/shipping/shipments/{id}/cancel  adminCancelSchema -> adminShipmentSchema
 *   POST   /api/admin/shipping/shipments/{id}/resolve resolveShipmentSchema -> adminShipmentSchema (lost / returned)
 *   GET    /api/admin/shipping/pick-list?originId     -> pickListSchema
 *   POST   /api/admin/shipping/pick-list/{shipmentCardId} pickInputSchema -> pickItemSchema
 *   GET    /api/admin/shipping/origins                -> originListSchema
 *   POST   /api/admin/shipping/origins                originInputSchema -> 201 originSchema
 *   GET    /api/admin/shipping/origins/{id}           -> originSchema
 *   PATCH  /api/admin/shipping/origins/{id}           originUpdateSchema -> originSchema
 *   POST   /api/admin/shipping/origins/{id}/default   -> originSchema
 *   PUT    /api/admin/shipping/cards/{cardId}/location cardLocationInputSchema -> cardLocationSchema
 *   GET    /api/admin/shipping/users/{userId}         -> adminUserShippingSchema (addresses incl. archived + shipments)
 *   GET    /api/admin/shipping/settings               -> shippingSettingsSchema
 *   PUT    /api/admin/shipping/settings               shippingSettingsSchema -> shippingSettingsSchema
 *
 * Realtime (topic user:<id>): 'shipment.updated' { shipmentId, status }.
 */

const cents = z.number().int();
const isoDate = z.string();

/** How many cards one shipment (or one quote) may hold. */
export const MAX_SHIPMENT_CARDS = 500;

// ───────────────────────── countries and postal codes ─────────────────────────

/** Countries the settings may list, with their names (ISO 3166-1 alpha-2). */
export const COUNTRIES: Record<string, string> = {
  US: 'United States',
  CA: 'Canada',
  MX: 'Mexico',
  GB: 'United Kingdom',
  IE: 'Ireland',
  DE: 'Germany',
  FR: 'France',
  NL: 'Netherlands',
  BE: 'Belgium',
  LU: 'Luxembourg',
  ES: 'Spain',
  PT: 'Portugal',
  IT: 'Italy',
  AT: 'Austria',
  CH: 'Switzerland',
  DK: 'Denmark',
  SE: 'Sweden',
  NO: 'Norway',
  FI: 'Finland',
  PL: 'Poland',
  CZ: 'Czechia',
  AU: 'Australia',
  NZ: 'New Zealand',
  JP: 'Japan',
  KR: 'South Korea',
  SG: 'Singapore',
  HK: 'Hong Kong',
  BR: 'Brazil',
  IN: 'India',
};
export const COUNTRY_CODES = Object.keys(COUNTRIES) as [string, ...string[]];

interface PostalRule {
  pattern: RegExp;
  example: string;
}

/** Postal code formats of the common countries; a country not listed takes any 1–12 letters, digits, spaces and dashes. */
export const POSTAL_RULES: Record<string, PostalRule> = {
  US: { pattern: /^\d{5}(-\d{4})?$/, example: '94105 or 94105-1234' },
  CA: { pattern: /^[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d$/i, example: 'K1A 0B1' },
  MX: { pattern: /^\d{5}$/, example: '06600' },
  GB: { pattern: /^(GIR ?0AA|[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2})$/i, example: 'SW1A 1AA' },
  IE: { pattern: /^[AC-FHKNPRTV-Y]\d{2}[ \d]?[AC-FHKNPRTV-Y\d]{4}$/i, example: 'D02 X285' },
  DE: { pattern: /^\d{5}$/, example: '10115' },
  FR: { pattern: /^\d{5}$/, example: '75001' },
  NL: { pattern: /^\d{4} ?[A-Z]{2}$/i, example: '1012 AB' },
  BE: { pattern: /^\d{4}$/, example: '1000' },
  LU: { pattern: /^(L-)?\d{4}$/i, example: 'L-1234' },
  ES: { pattern: /^\d{5}$/, example: '28001' },
  PT: { pattern: /^\d{4}-\d{3}$/, example: '1000-001' },
  IT: { pattern: /^\d{5}$/, example: '00184' },
  AT: { pattern: /^\d{4}$/, example: '1010' },
  CH: { pattern: /^\d{4}$/, example: '8001' },
  DK: { pattern: /^\d{4}$/, example: '1050' },
  SE: { pattern: /^\d{3} ?\d{2}$/, example: '114 55' },
  NO: { pattern: /^\d{4}$/, example: '0150' },
  FI: { pattern: /^\d{5}$/, example: '00100' },
  PL: { pattern: /^\d{2}-\d{3}$/, example: '00-001' },
  CZ: { pattern: /^\d{3} ?\d{2}$/, example: '110 00' },
  AU: { pattern: /^\d{4}$/, example: '2000' },
  NZ: { pattern: /^\d{4}$/, example: '6011' },
  JP: { pattern: /^\d{3}-?\d{4}$/, example: '100-0001' },
  KR: { pattern: /^\d{5}$/, example: '03051' },
  SG: { pattern: /^\d{6}$/, example: '018956' },
  BR: { pattern: /^\d{5}-?\d{3}$/, example: '01310-100' },
  IN: { pattern: /^\d{6}$/, example: '110001' },
};

/** Countries without postal codes: the field may stay empty. */
export const NO_POSTAL_CODE_COUNTRIES = ['HK'] as const;

/** Null when `postalCode` fits `country`'s format, else a message for the field. */
export function postalCodeError(country: string, postalCode: string): string | null {
  const code = postalCode.trim();
  if ((NO_POSTAL_CODE_COUNTRIES as readonly string[]).includes(country)) {
    return code === '' || /^[A-Z0-9 -]{1,12}$/i.test(code) ? null : 'Not a valid postal code.';
  }
  if (code === '') return 'Enter a postal code.';
  const rule = POSTAL_RULES[country];
  if (!rule) return /^[A-Z0-9][A-Z0-9 -]{0,11}$/i.test(code) ? null : 'Not a valid postal code.';
  return rule.pattern.test(code) ? null : `Not a valid postal code for ${COUNTRIES[country] ?? country} (e.g. ${rule.example}).`;
}

/** Canonical form stored: upper case, single spaces. */
export function normalizePostalCode(postalCode: string): string {
  return postalCode.trim().replace(/\s+/g, ' ').toUpperCase();
}

// ───────────────────────── addresses ─────────────────────────

// Letters of any script, digits, spaces and common punctuation; no emoji or control characters.
const PLAIN_TEXT = /^[\p{L}\p{M}\p{N} .,'’#&()/°ºª:;+-]*$/u;
const plain = (label: string, max: number) =>
  z
    .string({ message: `${label} is required.` })
    .trim()
    .max(max, `${label} is at most ${max} characters.`)
    .refine((s) => PLAIN_TEXT.test(s), `${label} may only hold letters, digits and common punctuation.`);
const required = (label: string, max: number) => plain(label, max).refine((s) => s.length > 0, `${label} is required.`);

export const countrySchema = z
  .string({ message: 'Pick a country.' })
  .trim()
  .toUpperCase()
  .refine((c) => c in COUNTRIES, 'Pick a country from the list.');

export const phoneSchema = z
  .string({ message: 'Enter a phone number.' })
  .trim()
  .min(1, 'Enter a phone number (the carrier may call).')
  .max(32, 'The phone number is at most 32 characters.')
  .regex(/^\+?[0-9 ()./-]{5,31}$/, 'Use digits, spaces and + ( ) - only.');

/** The fields of an address (user's or origin's), without the postal-code check. */
export const addressFieldsSchema = z.object({
  name: required('Name', 100),
  line1: required('Address line 1', 200),
  line2: plain('Address line 2', 200).default(''),
  city: required('City', 100),
  region: plain('Region', 100).default(''),
  postalCode: z.string({ message: 'Enter a postal code.' }).max(20, 'The postal code is at most 20 characters.').default(''),
  country: countrySchema,
  phone: phoneSchema,
});

/** Adds the per-country postal-code check (field `postalCode`). */
export function withPostalCheck<T extends z.ZodType<{ country: string; postalCode: string }>>(schema: T) {
  return schema.superRefine((v, ctx) => {
    const err = postalCodeError(v.country, v.postalCode);
    if (err) ctx.addIssue({ code: 'custom', message: err, path: ['postalCode'] });
  });
}

/** Body of POST /api/shipping/addresses and PATCH /api/shipping/addresses/{id} (whole address). */
export const addressInputSchema = withPostalCheck(addressFieldsSchema.extend({ isDefault: z.boolean().default(false) }));
export type AddressInput = z.input<typeof addressInputSchema>;

export const addressSchema = z.object({
  id: z.string(),
  name: z.string(),
  line1: z.string(),
  line2: z.string(),
  city: z.string(),
  region: z.string(),
  postalCode: z.string(),
  country: z.string(),
  phone: z.string(),
  isDefault: z.boolean(),
  archived: z.boolean(),
  /** How many shipments used it (an address used once is archived, never deleted). */
  shipmentCount: z.number().int(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type Address = z.infer<typeof addressSchema>;

export const addressListSchema = z.object({ items: z.array(addressSchema) });
export type AddressList = z.infer<typeof addressListSchema>;

export const addressDeleteResultSchema = z.object({ id: z.string(), outcome: z.enum(['deleted', 'archived']) });
export type AddressDeleteResult = z.infer<typeof addressDeleteResultSchema>;

/** The address as it was when the shipment was made (a later edit does not change history). */
export const addressSnapshotSchema = z.object({
  name: z.string(),
  line1: z.string(),
  line2: z.string(),
  city: z.string(),
  region: z.string(),
  postalCode: z.string(),
  country: z.string(),
  phone: z.string(),
});
export type AddressSnapshot = z.infer<typeof addressSnapshotSchema>;

// ───────────────────────── settings and quotes ─────────────────────────

const feeCents = (label: string) =>
  z
    .number({ message: `${label} must be a number.` })
    .int('Use whole cents.')
    .min(0, `${label} cannot be negative.`)
    .max(1_000_000, `${label} is at most $10,000.`);

/** GET/PUT /api/admin/shipping/settings (stored in app_settings 'shipping.settings'). */
export const shippingSettingsSchema = z.object({
  baseFeeCents: feeCents('The base fee'),
  perCardFeeCents: feeCents('The per-card fee'),
  /** Insurance premium: basis points of the declared value (150 = 1.5%)… */
  insuranceRateBp: z
    .number({ message: 'The insurance rate must be a number.' })
    .int('Use whole basis points (150 = 1.5%).')
    .min(0, 'The rate cannot be below 0%.')
    .max(10_000, 'The rate cannot be above 100%.'),
  /** …but at least this much when insurance is chosen. */
  insuranceMinCents: feeCents('The insurance minimum'),
  /** ISO codes of the countries the shop ships to. */
  countries: z
    .array(countrySchema)
    .min(1, 'Ship to at least one country.')
    .max(COUNTRY_CODES.length)
    .refine((a) => new Set(a).size === a.length, 'A country is listed twice.'),
});
export type ShippingSettings = z.infer<typeof shippingSettingsSchema>;
export type ShippingSettingsInput = z.input<typeof shippingSettingsSchema>;

export const DEFAULT_SHIPPING_SETTINGS: ShippingSettings = {
  baseFeeCents: 500,
  perCardFeeCents: 50,
  insuranceRateBp: 150,
  insuranceMinCents: 100,
  countries: ['US', 'CA', 'GB', 'DE', 'FR', 'NL', 'BE', 'ES', 'IT', 'AU', 'JP'],
};

/** GET /api/shipping/options: what the user's forms need. */
export const shippingOptionsSchema = shippingSettingsSchema.extend({
  countryOptions: z.array(z.object({ code: z.string(), name: z.string() })),
  maxCards: z.number().int(),
});
export type ShippingOptions = z.infer<typeof shippingOptionsSchema>;

/** Base + per card, plus insurance (rate × declared value, at least the minimum) when chosen. */
export function shippingFee(
  s: Pick<ShippingSettings, 'baseFeeCents' | 'perCardFeeCents' | 'insuranceRateBp' | 'insuranceMinCents'>,
  cardCount: number,
  declaredValueCents: number,
  insured: boolean,
): { baseFeeCents: number; cardsFeeCents: number; insuranceCents: number; feeCents: number } {
  const cardsFeeCents = s.perCardFeeCents * cardCount;
  // Rounded up: the premium never undercharges by a fraction of a cent.
  const insuranceCents = insured ? Math.max(s.insuranceMinCents, Math.ceil((declaredValueCents * s.insuranceRateBp) / 10_000)) : 0;
  return { baseFeeCents: s.baseFeeCents, cardsFeeCents, insuranceCents, feeCents: s.baseFeeCents + cardsFeeCents + insuranceCents };
}

export const ownedCardIdsSchema = z
  .array(idSchema, { message: 'Pick the cards to ship.' })
  .min(1, 'Pick at least one card.')
  .max(MAX_SHIPMENT_CARDS, `Ship at most ${MAX_SHIPMENT_CARDS} cards at once.`)
  .refine((a) => new Set(a).size === a.length, 'A card is listed twice.');

/** POST /api/shipping/quote. addressId optional: with it, the country is checked too. */
export const quoteInputSchema = z.object({
  ownedCardIds: ownedCardIdsSchema,
  insured: z.boolean().default(false),
  addressId: idSchema.optional(),
});
export type QuoteInput = z.input<typeof quoteInputSchema>;

export const quoteSchema = z.object({
  cardCount: z.number().int(),
  declaredValueCents: cents,
  insured: z.boolean(),
  baseFeeCents: cents,
  perCardFeeCents: cents,
  cardsFeeCents: cents,
  insuranceCents: cents,
  /** What confirming charges. */
  feeCents: cents,
  balanceCents: cents,
  /** How much more credit is needed (0 when the balance covers the fee): offer a deposit. */
  shortfallCents: cents,
});
export type Quote = z.infer<typeof quoteSchema>;

/** POST /api/shipping/shipments (header Idempotency-Key). */
export const createShipmentSchema = z.object({
  ownedCardIds: ownedCardIdsSchema,
  addressId: idSchema,
  insured: z.boolean().default(false),
  /** The quoted fee the user confirmed: if settings or values moved since, 409 quote_changed. */
  expectedFeeCents: z.number().int().min(0).max(MAX_VALUE_CENTS).optional(),
});
export type CreateShipmentInput = z.input<typeof createShipmentSchema>;

// ───────────────────────── shipments ─────────────────────────

export const SHIPMENT_STATUSES = ['requested', 'packing', 'shipped', 'delivered', 'cancelled', 'lost', 'returned'] as const;
export type ShipmentStatus = (typeof SHIPMENT_STATUSES)[number];
export const shipmentStatusSchema = z.enum(SHIPMENT_STATUSES, { message: 'Pick a status from the list.' });
/** Shipments the warehouse still has to work on. */
export const OPEN_SHIPMENT_STATUSES = ['requested', 'packing'] as const satisfies readonly ShipmentStatus[];

export const SHIPMENT_STATUS_LABEL: Record<ShipmentStatus, string> = {
  requested: 'Requested',
  packing: 'Packing',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
  lost: 'Lost',
  returned: 'Returned to sender',
};

/** The forward steps an admin takes (advance): from → to. */
export const NEXT_STATUS: Partial<Record<ShipmentStatus, ShipmentStatus>> = {
  requested: 'packing',
  packing: 'shipped',
  shipped: 'delivered',
};

export const CARRIERS = ['usps', 'ups', 'fedex', 'dhl', 'royal_mail', 'canada_post', 'australia_post', 'japan_post', 'dpd', 'postnl', 'la_poste', 'deutsche_post', 'other'] as const;
export type Carrier = (typeof CARRIERS)[number];
export const carrierSchema = z.enum(CARRIERS, { message: 'Pick a carrier from the list.' });
export const CARRIER_LABEL: Record<Carrier, string> = {
  usps: 'USPS',
  ups: 'UPS',
  fedex: 'FedEx',
  dhl: 'DHL',
  royal_mail: 'Royal Mail',
  canada_post: 'Canada Post',
  australia_post: 'Australia Post',
  japan_post: 'Japan Post',
  dpd: 'DPD',
  postnl: 'PostNL',
  la_poste: 'La Poste',
  deutsche_post: 'Deutsche Post',
  other: 'Other',
};

const TRACKING_URL: Partial<Record<Carrier, (n: string) => string>> = {
  usps: (n) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${n}`,
  ups: (n) => `https://www.ups.com/track?tracknum=${n}`,
  fedex: (n) => `https://www.fedex.com/fedextrack/?trknbr=${n}`,
  dhl: (n) => `https://www.dhl.com/global-en/home/tracking/tracking-express.html?tracking-id=${n}`,
  royal_mail: (n) => `https://www.royalmail.com/track-your-item#/tracking-results/${n}`,
  canada_post: (n) => `https://www.canadapost-postescanada.ca/track-reperage/en#/search?searchFor=${n}`,
  australia_post: (n) => `https://auspost.com.au/mypost/track/#/details/${n}`,
  japan_post: (n) => `https://trackings.post.japanpost.jp/services/srv/search/direct?reqCodeNo1=${n}&locale=en`,
  dpd: (n) => `https://tracking.dpd.de/status/en_US/parcel/${n}`,
  postnl: (n) => `https://postnl.post/tracktrace?barcodes=${n}`,
  la_poste: (n) => `https://www.laposte.fr/outils/suivre-vos-envois?code=${n}`,
  deutsche_post: (n) => `https://www.deutschepost.de/sendung/simpleQuery.html?form.sendungsnummer=${n}`,
};

/** The carrier's tracking page, or null for an unknown carrier. */
export function trackingUrl(carrier: Carrier | null, trackingNumber: string | null): string | null {
  if (!carrier || !trackingNumber) return null;
  const f = TRACKING_URL[carrier];
  return f ? f(encodeURIComponent(trackingNumber)) : null;
}

export const trackingNumberSchema = z
  .string({ message: 'Enter the tracking number.' })
  .trim()
  .min(4, 'The tracking number is at least 4 characters.')
  .max(40, 'The tracking number is at most 40 characters.')
  .regex(/^[A-Z0-9 -]+$/i, 'Use letters, digits, spaces and dashes only.');

export const shipmentCardSchema = z.object({
  /** Row id of the card in this shipment (the pick list checks it off). */
  id: z.string(),
  ownedCardId: z.string(),
  cardId: z.string(),
  name: z.string(),
  setName: z.string(),
  number: z.number().int(),
  /** The card's value when the shipment was requested. */
  valueCents: cents,
  originId: z.string().nullable(),
  originName: z.string().nullable(),
  shelfLocation: z.string(),
  picked: z.boolean(),
});
export type ShipmentCard = z.infer<typeof shipmentCardSchema>;

export const SHIPMENT_EVENT_TYPES = ['requested', 'packing', 'shipped', 'delivered', 'cancelled', 'lost', 'returned', 'refunded', 'cards_restored'] as const;
export type ShipmentEventType = (typeof SHIPMENT_EVENT_TYPES)[number];

export const shipmentEventSchema = z.object({
  id: z.string(),
  type: z.enum(SHIPMENT_EVENT_TYPES),
  /** Who did it; null actor: the system. */
  actor: z.object({ id: z.string().nullable(), username: z.string().nullable(), role: z.enum(['user', 'admin', 'system']) }),
  at: isoDate,
  note: z.string().nullable(),
});
export type ShipmentEvent = z.infer<typeof shipmentEventSchema>;

export const originRefSchema = z.object({ id: z.string(), name: z.string() });

export const shipmentSummarySchema = z.object({
  id: z.string(),
  /** Short human reference, e.g. "SH-1042". */
  reference: z.string(),
  status: shipmentStatusSchema,
  cardCount: z.number().int(),
  declaredValueCents: cents,
  insured: z.boolean(),
  feeCents: cents,
  /** What was refunded (0 if nothing). */
  refundedCents: cents,
  carrier: carrierSchema.nullable(),
  trackingNumber: z.string().nullable(),
  trackingUrl: z.string().nullable(),
  /** Recipient name and city, country for lists. */
  shipTo: z.string(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type ShipmentSummary = z.infer<typeof shipmentSummarySchema>;

export const shipmentSchema = shipmentSummarySchema.extend({
  baseFeeCents: cents,
  cardsFeeCents: cents,
  insuranceCents: cents,
  address: addressSnapshotSchema,
  addressId: z.string().nullable(),
  /** Where it ships from (the origin of most of its cards). */
  origin: originRefSchema.nullable(),
  cards: z.array(shipmentCardSchema),
  events: z.array(shipmentEventSchema),
  /** Journal entries of the fee and refund, for the history. */
  feeEntryId: z.string().nullable(),
  refundEntryId: z.string().nullable(),
  /** Actions the viewer may take now. */
  canCancel: z.boolean(),
});
export type Shipment = z.infer<typeof shipmentSchema>;

export const shipmentQuerySchema = z.object({
  status: z.enum(['all', ...SHIPMENT_STATUSES], { message: 'Pick a status from the list.' }).default('all'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});
export type ShipmentQuery = z.input<typeof shipmentQuerySchema>;

export const shipmentListSchema = z.object({
  items: z.array(shipmentSummarySchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type ShipmentList = z.infer<typeof shipmentListSchema>;

export const createShipmentResultSchema = z.object({ shipment: shipmentSchema, balanceCents: cents });
export type CreateShipmentResult = z.infer<typeof createShipmentResultSchema>;

// ───────────────────────── admin ─────────────────────────

const reasonSchema = z
  .string({ message: 'A reason is required.' })
  .trim()
  .min(3, 'Give a reason (at least 3 characters); the user sees it.')
  .max(500, 'Keep the reason under 500 characters.');
const noteSchema = z.string().trim().max(500, 'Keep the note under 500 characters.').optional();

export const adminShipmentQuerySchema = z
  .object({
    /** 'open' = requested + packing. */
    status: z.enum(['open', 'all', ...SHIPMENT_STATUSES], { message: 'Pick a status from the list.' }).default('open'),
    originId: idSchema.optional(),
    /** Age in whole days since the request. */
    minAgeDays: z.coerce.number().int().min(0).max(3650).optional(),
    maxAgeDays: z.coerce.number().int().min(0).max(3650).optional(),
    /** Reference, username or email (contains). */
    q: z.string().trim().max(200).optional(),
    userId: z.string().trim().min(1).max(100).optional(),
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(100).default(25),
  })
  .refine((v) => v.minAgeDays === undefined || v.maxAgeDays === undefined || v.minAgeDays <= v.maxAgeDays, {
    message: 'The minimum age is above the maximum.',
    path: ['minAgeDays'],
  });
export type AdminShipmentQuery = z.input<typeof adminShipmentQuerySchema>;

const userRefSchema = z.object({ id: z.string(), username: z.string().nullable(), email: z.string().nullable() });

export const adminShipmentSummarySchema = shipmentSummarySchema.extend({
  user: userRefSchema,
  origin: originRefSchema.nullable(),
  /** Whole days since the request. */
  ageDays: z.number().int(),
  pickedCount: z.number().int(),
});
export type AdminShipmentSummary = z.infer<typeof adminShipmentSummarySchema>;

export const adminShipmentListSchema = z.object({
  /** Oldest first. */
  items: z.array(adminShipmentSummarySchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Per status over every shipment matching the other filters (origin, age, q). */
  counts: z.record(shipmentStatusSchema, z.number().int()),
});
export type AdminShipmentList = z.infer<typeof adminShipmentListSchema>;

export const adminShipmentSchema = shipmentSchema.extend({
  user: userRefSchema,
  /** Fee + declared value when insured, else the fee: what a refund of a lost shipment pays. */
  suggestedRefundCents: cents,
  /** Forward step an admin can take now, if any. */
  nextStatus: shipmentStatusSchema.nullable(),
  canResolve: z.boolean(),
});
export type AdminShipment = z.infer<typeof adminShipmentSchema>;

/**
 * POST /api/admin/shipping/shipments/{id}/advance. `to` must be the next step (409
 * invalid_shipment_state otherwise); 'shipped' needs carrier + trackingNumber.
 */
export const advanceShipmentSchema = z
  .object({
    to: z.enum(['packing', 'shipped', 'delivered'], { message: 'Pick the next status.' }),
    carrier: carrierSchema.optional(),
    trackingNumber: trackingNumberSchema.optional(),
    note: noteSchema,
  })
  .superRefine((v, ctx) => {
    if (v.to !== 'shipped') return;
    if (!v.carrier) ctx.addIssue({ code: 'custom', message: 'Pick the carrier.', path: ['carrier'] });
    if (!v.trackingNumber) ctx.addIssue({ code: 'custom', message: 'Enter the tracking number.', path: ['trackingNumber'] });
  });
export type AdvanceShipmentInput = z.input<typeof advanceShipmentSchema>;

/** POST /api/admin/shipping/shipments/bulk-advance: each shipment moves one step to `to` (no tracking, so packing or delivered). */
export const bulkAdvanceSchema = z.object({
  ids: z
    .array(idSchema)
    .min(1, 'Pick at least one shipment.')
    .max(200, 'At most 200 shipments at once.')
    .refine((a) => new Set(a).size === a.length, 'A shipment is listed twice.'),
  to: z.enum(['packing', 'delivered'], { message: 'Bulk moves go to packing or delivered.' }),
});
export type BulkAdvanceInput = z.input<typeof bulkAdvanceSchema>;

export const bulkAdvanceResultSchema = z.object({
  results: z.array(
    z.object({ id: z.string(), ok: z.boolean(), status: shipmentStatusSchema.nullable(), error: z.object({ code: z.string(), message: z.string() }).nullable() }),
  ),
  advanced: z.number().int(),
  failed: z.number().int(),
});
export type BulkAdvanceResult = z.infer<typeof bulkAdvanceResultSchema>;

/** POST /api/admin/shipping/shipments/{id}/cancel (requested or packing): refund + cards back. */
export const adminCancelSchema = z.object({ reason: reasonSchema });
export type AdminCancelInput = z.input<typeof adminCancelSchema>;

/**
 * POST /api/admin/shipping/shipments/{id}/resolve, for a shipped shipment.
 * - outcome 'lost': resolution 'restore_cards' puts the copies back in the vault; 'refund' writes
 *   them off and refunds `suggestedRefundCents` (fee + declared value if insured, else the fee).
 * - outcome 'returned': the copies go back to the vault either way; 'refund' also refunds the fee.
 */
export const resolveShipmentSchema = z.object({
  outcome: z.enum(['lost', 'returned'], { message: 'Pick lost or returned.' }),
  resolution: z.enum(['restore_cards', 'refund'], { message: 'Pick put the cards back or refund.' }),
  reason: reasonSchema,
});
export type ResolveShipmentInput = z.input<typeof resolveShipmentSchema>;

// ───────────────────────── pick list ─────────────────────────

export const pickItemSchema = z.object({
  shipmentCardId: z.string(),
  shipmentId: z.string(),
  shipmentReference: z.string(),
  shipmentStatus: shipmentStatusSchema,
  ownedCardId: z.string(),
  cardId: z.string(),
  name: z.string(),
  setName: z.string(),
  number: z.number().int(),
  picked: z.boolean(),
  pickedAt: isoDate.nullable(),
  requestedAt: isoDate,
});
export type PickItem = z.infer<typeof pickItemSchema>;

export const pickListQuerySchema = z.object({ originId: idSchema.optional() });

/** GET /api/admin/shipping/pick-list: every card of requested/packing shipments, by origin then shelf. */
export const pickListSchema = z.object({
  groups: z.array(
    z.object({
      origin: originRefSchema.nullable(),
      shelfLocation: z.string(),
      items: z.array(pickItemSchema),
    }),
  ),
  total: z.number().int(),
  picked: z.number().int(),
});
export type PickList = z.infer<typeof pickListSchema>;

export const pickInputSchema = z.object({ picked: z.boolean({ message: 'Say whether the card is picked.' }) });
export type PickInput = z.input<typeof pickInputSchema>;

// ───────────────────────── origins (ship-from) ─────────────────────────

export const originInputSchema = withPostalCheck(addressFieldsSchema.extend({ isDefault: z.boolean().default(false) }));
export type OriginInput = z.input<typeof originInputSchema>;

/** PATCH: the whole address again, plus archived (the default origin cannot be archived). */
export const originUpdateSchema = withPostalCheck(addressFieldsSchema.extend({ archived: z.boolean().default(false) }));
export type OriginUpdateInput = z.input<typeof originUpdateSchema>;

export const originSchema = z.object({
  id: z.string(),
  name: z.string(),
  line1: z.string(),
  line2: z.string(),
  city: z.string(),
  region: z.string(),
  postalCode: z.string(),
  country: z.string(),
  phone: z.string(),
  isDefault: z.boolean(),
  archived: z.boolean(),
  /** Cards whose stock lives here. */
  cardCount: z.number().int(),
  /** Cards of open shipments waiting here. */
  openCardCount: z.number().int(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type Origin = z.infer<typeof originSchema>;

export const originListSchema = z.object({ items: z.array(originSchema) });
export type OriginList = z.infer<typeof originListSchema>;

/** PUT /api/admin/shipping/cards/{cardId}/location. */
export const cardLocationInputSchema = z.object({
  originId: idSchema,
  shelfLocation: z
    .string()
    .trim()
    .max(40, 'The shelf location is at most 40 characters.')
    .regex(/^[A-Z0-9 ./-]*$/i, 'Use letters, digits, spaces and . / - only.')
    .default(''),
});
export type CardLocationInput = z.input<typeof cardLocationInputSchema>;

export const cardLocationSchema = z.object({ cardId: z.string(), originId: z.string(), shelfLocation: z.string() });
export type CardLocation = z.infer<typeof cardLocationSchema>;

// ───────────────────────── admin: a user's shipping ─────────────────────────

export const adminUserShippingSchema = z.object({
  /** Archived ones included. */
  addresses: z.array(addressSchema),
  shipments: z.array(shipmentSummarySchema),
});
export type AdminUserShipping = z.infer<typeof adminUserShippingSchema>;
