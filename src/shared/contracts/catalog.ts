import { z } from 'zod';
import { patchOf } from './patch.ts';
import { STOCK_MOVEMENT_REASONS } from './inventory.ts';
import { pageSchema, pageSizeSchema, pagedSchema } from './paging.ts';
import { GRADING_COMPANIES, SLAB_STATES } from './grading.ts';

/**
 * Catalog contracts: classes (rarity tiers), textures (holo overlays), architects (frame
 * templates) and cards. Shared by the API (validation + OpenAPI) and the web forms.
 */

// The zod-free parts live in catalog-look.ts so public pages can draw cards without loading zod;
// they are re-exported here so every existing import keeps working.
import {
  BLEND_MODES,
  HEX_COLOUR,
  MAX_STOCK,
  MAX_VALUE_CENTS,
  PUBLIC_CARD_SORTS,
  PUBLIC_PAGE_SIZE,
  UPLOAD_KEY,
} from './catalog-look';
export {
  BLEND_MODES,
  DEFAULT_LAYOUT,
  HEX_COLOUR,
  imageUrl,
  lookFromRefs,
  MAX_STOCK,
  MAX_VALUE_CENTS,
  PUBLIC_CARD_SORTS,
  PUBLIC_PAGE_SIZE,
  UPLOAD_ACCEPT,
  UPLOAD_KEY,
  UPLOAD_MAX_BYTES,
  type CardLook,
  type PublicCardSort,
  type UploadVariant,
} from './catalog-look';

const trimmed = (label: string, max: number) =>
  z
    .string({ message: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} must be at most ${max} characters.`);

export const hexColourSchema = z
  .string()
  .trim()
  .regex(HEX_COLOUR, 'Use a hex colour such as #a855f7.')
  .transform((v) => v.toLowerCase());

export const uploadKeySchema = z.string().regex(UPLOAD_KEY, 'Upload an image first.');
export const idSchema = z.string().uuid('Not a valid id.');

// ───────────────────────── uploads ─────────────────────────

export const uploadVariantSchema = z.object({
  file: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  bytes: z.number().int(),
});
export const uploadSchema = z.object({
  key: z.string(),
  mime: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  bytes: z.number().int(),
  variants: z.object({ thumb: uploadVariantSchema, full: uploadVariantSchema }),
});
export type Upload = z.infer<typeof uploadSchema>;

// ───────────────────────── shared list bits ─────────────────────────

export const archivedFilterSchema = z.enum(['active', 'archived', 'all']).default('active');

const dateString = z.string();

// ───────────────────────── classes ─────────────────────────

export const classInputSchema = z.object({
  name: trimmed('Name', 40),
  colour: hexColourSchema,
  sortOrder: z.coerce.number({ message: 'Order must be a number.' }).int('Order must be a whole number.').min(0).max(10_000),
  defaultTextureId: idSchema.nullable().default(null),
  /** Basis points: 8500 = 85%. Null = the site default buyback rate. */
  buybackRateBp: z
    .number({ message: 'Buyback rate must be a number.' })
    .int('Buyback rate must be whole basis points.')
    .min(0, 'Buyback rate cannot be negative.')
    .max(10_000, 'Buyback rate cannot exceed 100%.')
    .nullable()
    .default(null),
});
export type ClassInput = z.input<typeof classInputSchema>;
export const classPatchSchema = patchOf(classInputSchema);

export const cardClassSchema = z.object({
  id: z.string(),
  name: z.string(),
  colour: z.string(),
  sortOrder: z.number().int(),
  defaultTextureId: z.string().nullable(),
  buybackRateBp: z.number().int().nullable(),
  archivedAt: dateString.nullable(),
  createdAt: dateString,
  updatedAt: dateString,
  cardCount: z.number().int().optional(),
});
export type CardClass = z.infer<typeof cardClassSchema>;

export const classListQuerySchema = z.object({
  q: z.string().trim().max(100).optional(),
  archived: archivedFilterSchema,
  sort: z.enum(['order', 'name', 'newest', 'cards']).default('order'),
  page: pageSchema,
  pageSize: pageSizeSchema(50),
});

// ───────────────────────── textures ─────────────────────────

export const blendModeSchema = z.enum(BLEND_MODES, { message: 'Pick a blend mode from the list.' });
export type BlendMode = z.infer<typeof blendModeSchema>;

export const textureInputSchema = z.object({
  name: trimmed('Name', 60),
  imageKey: uploadKeySchema,
  blendMode: blendModeSchema,
  /** 0–100 (%) */
  opacity: z.coerce
    .number({ message: 'Opacity must be a number.' })
    .int('Opacity must be a whole percentage.')
    .min(0, 'Opacity is 0–100%.')
    .max(100, 'Opacity is 0–100%.'),
});
export type TextureInput = z.input<typeof textureInputSchema>;
export const texturePatchSchema = patchOf(textureInputSchema);

export const textureSchema = z.object({
  id: z.string(),
  name: z.string(),
  imageKey: z.string(),
  blendMode: blendModeSchema,
  opacity: z.number().int(),
  archivedAt: dateString.nullable(),
  createdAt: dateString,
  updatedAt: dateString,
  usage: z.number().int().optional(),
});
export type Texture = z.infer<typeof textureSchema>;

export const textureListQuerySchema = z.object({
  q: z.string().trim().max(100).optional(),
  archived: archivedFilterSchema,
  blendMode: blendModeSchema.optional(),
  sort: z.enum(['name', 'newest', 'oldest']).default('name'),
  page: pageSchema,
  pageSize: pageSizeSchema(50),
});

// ───────────────────────── architects ─────────────────────────

const pct = (label: string) =>
  z.number({ message: `${label} must be a number.` }).min(0, `${label} is 0–100%.`).max(100, `${label} is 0–100%.`);

export const rectSchema = z
  .object({ x: pct('Left'), y: pct('Top'), w: pct('Width'), h: pct('Height') })
  .refine((r) => r.x + r.w <= 100.0001 && r.y + r.h <= 100.0001, { message: 'The box must fit inside the card.' });

export const textSlotSchema = z
  .object({
    x: pct('Left'),
    y: pct('Top'),
    w: pct('Width'),
    /** Font size as a percentage of the card's width, so text scales with the card. */
    size: z.number({ message: 'Size must be a number.' }).min(1, 'Size is 1–20%.').max(20, 'Size is 1–20%.'),
    align: z.enum(['left', 'center', 'right']),
    colour: hexColourSchema,
  })
  .refine((s) => s.x + s.w <= 100.0001, { message: 'The text box must fit inside the card.' });
export type TextSlot = z.infer<typeof textSlotSchema>;

export const architectLayoutSchema = z.object({
  art: rectSchema,
  name: textSlotSchema,
  class: textSlotSchema,
  value: textSlotSchema,
});
export type ArchitectLayout = z.infer<typeof architectLayoutSchema>;


export const architectInputSchema = z.object({
  name: trimmed('Name', 60),
  frameImageKey: uploadKeySchema,
  layout: architectLayoutSchema,
});
export type ArchitectInput = z.input<typeof architectInputSchema>;
export const architectPatchSchema = patchOf(architectInputSchema);

export const architectSchema = z.object({
  id: z.string(),
  name: z.string(),
  frameImageKey: z.string(),
  layout: architectLayoutSchema,
  archivedAt: dateString.nullable(),
  createdAt: dateString,
  updatedAt: dateString,
  cardCount: z.number().int().optional(),
});
export type Architect = z.infer<typeof architectSchema>;

export const architectListQuerySchema = z.object({
  q: z.string().trim().max(100).optional(),
  archived: archivedFilterSchema,
  sort: z.enum(['name', 'newest', 'oldest', 'cards']).default('name'),
  page: pageSchema,
  pageSize: pageSizeSchema(50),
});

// ───────────────────────── cards ─────────────────────────

export const gradingCompanySchema = z.enum(GRADING_COMPANIES, { message: 'Pick PSA, BGS, CGC or SGC, or none.' });
/** A slab's grading; on a catalog listing `certNumber` is null (each slab has its own, issue 38). */
export const gradingSchema = z.object({ company: gradingCompanySchema, grade: z.number(), certNumber: z.string().nullable() });

const gradeField = z
  .number({ message: 'Grade must be a number such as 9.5.' })
  .min(1, 'Grades run from 1 to 10.')
  .max(10, 'Grades run from 1 to 10.');
const certField = z
  .string({ message: 'Certificate number must be text.' })
  .trim()
  .max(20, 'Certificate number must be at most 20 characters.')
  .transform((v) => v || null)
  .nullable();

/**
 * One physical slab (issue 38, ADR 0023). Grader and grade default to the card's listing; the
 * certificate is checked against the grader's format (shared/contracts/grading.ts) by the service.
 */
export const slabInputSchema = z.object({
  grader: gradingCompanySchema.optional(),
  grade: gradeField.optional(),
  certNumber: certField,
  frontPhotoKey: uploadKeySchema.nullable().default(null),
  backPhotoKey: uploadKeySchema.nullable().default(null),
});
export type SlabInput = z.input<typeof slabInputSchema>;
/** Add slabs to a graded card: each one in stock at once (its certificate is required). */
export const addSlabsInputSchema = z.object({
  slabs: z.array(slabInputSchema).min(1, 'Add at least one slab.').max(100, 'At most 100 slabs at a time.'),
});
/** Edit a slab, or fill in its missing certificate (a held slab then goes into stock). */
export const slabPatchSchema = z.object({
  grader: gradingCompanySchema.optional(),
  grade: gradeField.optional(),
  certNumber: certField.optional(),
  frontPhotoKey: uploadKeySchema.nullable().optional(),
  backPhotoKey: uploadKeySchema.nullable().optional(),
});
export const slabSchema = z.object({
  id: z.string(),
  cardId: z.string(),
  grader: gradingCompanySchema,
  grade: z.number(),
  certNumber: z.string().nullable(),
  certMissing: z.boolean(),
  frontPhotoKey: z.string().nullable(),
  backPhotoKey: z.string().nullable(),
  state: z.enum(SLAB_STATES),
  ownedCardId: z.string().nullable(),
  createdAt: dateString,
  updatedAt: dateString,
});
export type Slab = z.infer<typeof slabSchema>;
export const slabListSchema = z.object({ items: z.array(slabSchema) });

export const cardInputSchema = z.object({
  name: trimmed('Name', 80),
  setName: trimmed('Set', 60),
  number: z.coerce
    .number({ message: 'Number must be a number.' })
    .int('Number must be a whole number.')
    .min(1, 'Number starts at 1.')
    .max(99_999, 'Number must be at most 99999.'),
  classId: idSchema,
  architectId: idSchema,
  textureId: idSchema.nullable().default(null),
  imageKey: uploadKeySchema,
  valueCents: z
    .number({ message: 'Value must be a number.' })
    .int('Value must be whole cents.')
    .min(0, 'Value cannot be negative.')
    .max(MAX_VALUE_CENTS, 'Value must be at most $1,000,000.'),
  description: z.string().trim().max(2000, 'Description must be at most 2000 characters.').default(''),
  active: z.boolean().default(true),
  /** Only on create; later changes go through stock adjustments (with a reason). */
  stock: z.coerce.number().int('Stock must be a whole number.').min(0, 'Stock cannot be negative.').max(MAX_STOCK).default(0),
  // Grading and photos carry no defaults, so a patch without them leaves them as they are; the
  // service checks company, grade and certificate together (shared/contracts/grading.ts).
  gradingCompany: gradingCompanySchema.nullable().optional(),
  grade: gradeField.nullable().optional(),
  /**
   * Only on create, for a graded card: the certificate of its first slab, whose photos are the
   * card's photos. A graded card's stock is its slabs (this one and `slabs`), never more.
   */
  certNumber: certField.optional(),
  slabs: z.array(slabInputSchema).max(100, 'At most 100 slabs at a time.').optional(),
  frontPhotoKey: uploadKeySchema.nullable().optional(),
  backPhotoKey: uploadKeySchema.nullable().optional(),
});
export type CardInput = z.input<typeof cardInputSchema>;
export const cardPatchSchema = patchOf(cardInputSchema.omit({ stock: true, certNumber: true, slabs: true }));

export const cardSchema = z.object({
  id: z.string(),
  name: z.string(),
  setName: z.string(),
  number: z.number().int(),
  classId: z.string(),
  architectId: z.string(),
  textureId: z.string().nullable(),
  imageKey: z.string(),
  valueCents: z.number().int(),
  description: z.string(),
  active: z.boolean(),
  stock: z.number().int(),
  gradingCompany: gradingCompanySchema.nullable(),
  grade: z.number().nullable(),
  frontPhotoKey: z.string().nullable(),
  backPhotoKey: z.string().nullable(),
  archivedAt: dateString.nullable(),
  createdAt: dateString,
  updatedAt: dateString,
});
export type Card = z.infer<typeof cardSchema>;

/** ?graded=true: graded cards only; false: raw (ungraded) cards only; absent: both. */
export const gradedFilterSchema = z.enum(['true', 'false'], { message: 'Graded is true or false.' }).optional();

export const ADMIN_CARD_SORTS = ['newest', 'oldest', 'name', 'value_desc', 'value_asc', 'stock_asc', 'stock_desc', 'number'] as const;
export const adminCardListQuerySchema = z.object({
  q: z.string().trim().max(100).optional(),
  classId: idSchema.optional(),
  architectId: idSchema.optional(),
  textureId: idSchema.optional(),
  set: z.string().trim().max(60).optional(),
  active: z.enum(['true', 'false']).optional(),
  stock: z.enum(['in', 'out', 'low']).optional(),
  graded: gradedFilterSchema,
  archived: archivedFilterSchema,
  sort: z.enum(ADMIN_CARD_SORTS).default('newest'),
  page: pageSchema,
  pageSize: pageSizeSchema(25),
});
export type AdminCardListQuery = z.input<typeof adminCardListQuerySchema>;

export const stockAdjustmentInputSchema = z.object({
  delta: z
    .number({ message: 'Change must be a number.' })
    .int('Change must be a whole number.')
    .refine((d) => d !== 0, 'Change cannot be zero.')
    .refine((d) => Math.abs(d) <= MAX_STOCK, 'Change is too large.'),
  reason: trimmed('Reason', 300).refine((r) => r.length >= 3, 'Say why, in a few words.'),
});
export type StockAdjustmentInput = z.infer<typeof stockAdjustmentInputSchema>;

/** One line of a card's stock history: a stock movement that changed its stock (the inventory's log). */
export const stockAdjustmentSchema = z.object({
  id: z.string(),
  cardId: z.string(),
  delta: z.number().int(),
  stockAfter: z.number().int(),
  /** For people: the admin's note, else what happened ("Pack opening", "Shipment cancelled"…). */
  reason: z.string(),
  kind: z.enum(STOCK_MOVEMENT_REASONS),
  actorId: z.string().nullable(),
  createdAt: dateString,
});
export type StockAdjustment = z.infer<typeof stockAdjustmentSchema>;

export const csvImportInputSchema = z.object({
  csv: z.string().min(1, 'The file is empty.').max(900_000, 'The file is too large; split it into smaller files.'),
  dryRun: z.boolean().default(false),
});
export const csvImportResultSchema = z.object({
  ok: z.boolean(),
  dryRun: z.boolean(),
  created: z.number().int(),
  updated: z.number().int(),
  errors: z.array(z.object({ row: z.number().int(), field: z.string().optional(), message: z.string() })),
});
export type CsvImportResult = z.infer<typeof csvImportResultSchema>;
export const CSV_COLUMNS = [
  'name',
  'set',
  'number',
  'class',
  'architect',
  'texture',
  'image',
  'value',
  'description',
  'active',
  'stock',
] as const;

// ───────────────────────── public ─────────────────────────


export const publicCardListQuerySchema = z.object({
  q: z.string().trim().max(80).optional(),
  classId: idSchema.optional(),
  set: z.string().trim().max(60).optional(),
  graded: gradedFilterSchema,
  sort: z.enum(PUBLIC_CARD_SORTS).default('value_desc'),
  page: pageSchema,
  pageSize: pageSizeSchema(PUBLIC_PAGE_SIZE, 96),
});
export type PublicCardListQuery = z.input<typeof publicCardListQuerySchema>;

/** Everything the renderer needs about a class/architect/texture (shared across many cards). */
export const lookClassSchema = z.object({ id: z.string(), name: z.string(), colour: z.string(), sortOrder: z.number().int() });
export const lookArchitectSchema = z.object({ id: z.string(), frameImageKey: z.string(), layout: architectLayoutSchema });
export const lookTextureSchema = z.object({
  id: z.string(),
  imageKey: z.string(),
  blendMode: blendModeSchema,
  opacity: z.number().int(),
});
export type LookClass = z.infer<typeof lookClassSchema>;
export type LookArchitect = z.infer<typeof lookArchitectSchema>;
export type LookTexture = z.infer<typeof lookTextureSchema>;

export const publicCardSchema = z.object({
  id: z.string(),
  name: z.string(),
  setName: z.string(),
  number: z.number().int(),
  valueCents: z.number().int(),
  imageKey: z.string(),
  classId: z.string(),
  architectId: z.string(),
  /** Already resolved: the card's own texture, else its class's default, else none. */
  textureId: z.string().nullable(),
  /** The slab, when the copy is professionally graded (optional: not every card view carries it). */
  grading: gradingSchema.nullable().optional(),
});
export type PublicCard = z.infer<typeof publicCardSchema>;

export const lookRefsSchema = z.object({
  classes: z.array(lookClassSchema),
  architects: z.array(lookArchitectSchema),
  textures: z.array(lookTextureSchema),
});
export type LookRefs = z.infer<typeof lookRefsSchema>;

export const publicCardPageSchema = pagedSchema(publicCardSchema).extend({
  refs: lookRefsSchema,
});
export type PublicCardPage = z.infer<typeof publicCardPageSchema>;

/** Photos of the physical copy (front and back of the slab or card), beside the artwork. */
export const cardPhotosShape = { frontPhotoKey: z.string().nullable(), backPhotoKey: z.string().nullable() };

export const publicCardDetailSchema = z.object({
  card: publicCardSchema.extend({ description: z.string(), inStock: z.boolean(), ...cardPhotosShape }),
  refs: lookRefsSchema,
});
export type PublicCardDetail = z.infer<typeof publicCardDetailSchema>;

export const publicSetSchema = z.object({ name: z.string(), cardCount: z.number().int() });
export type PublicSet = z.infer<typeof publicSetSchema>;

// ───────────────────────── value history ─────────────────────────

/** Why a card's market value changed (card_value_history.source). */
export const VALUE_SOURCES = ['created', 'admin_edit', 'csv_import', 'seed'] as const;
export type ValueSource = (typeof VALUE_SOURCES)[number];

export const valuePointSchema = z.object({ at: dateString, valueCents: z.number().int() });
export const cardValueHistorySchema = z.object({
  cardId: z.string(),
  /** Oldest first; the last point is the value now. */
  points: z.array(valuePointSchema),
});
export type CardValueHistory = z.infer<typeof cardValueHistorySchema>;
