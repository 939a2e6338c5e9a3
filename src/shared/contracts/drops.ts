import { z } from 'zod';
import { pageSchema, pageSizeSchema, pagedSchema } from './paging.ts';
import { idSchema, lookRefsSchema, publicCardSchema, uploadKeySchema } from './catalog.ts';
import { instantMs, instantSchema } from './dates.ts';
import { plural } from '../words.ts';

/**
 * Daily drops (issue 16): free raffles for cards from stock, drawn by commit–reveal
 * (shared/drop-draw.ts, docs/fairness.md "Daily drops").
 */

export const DROP_STATUSES = ['scheduled', 'open', 'drawing', 'closed', 'cancelled'] as const;
export type DropStatus = (typeof DROP_STATUSES)[number];

export const MAX_DROP_WINNERS = 1000;
export const MAX_MIN_ACCOUNT_AGE_DAYS = 3650;

const title = z.string().trim().min(1, 'Give the drop a title.').max(120, 'At most 120 characters.');
const description = z.string().trim().max(4000, 'At most 4,000 characters.');
const winnerCount = z
  .number({ error: 'A whole number of winners.' })
  .int('A whole number of winners.')
  .min(1, 'A drop has at least one winner.')
  .max(MAX_DROP_WINNERS, `At most ${MAX_DROP_WINNERS} winners.`);
const eligibility = {
  requireVerifiedEmail: z.boolean(),
  minAccountAgeDays: z.number().int('Whole days.').min(0, 'Zero or more days.').max(MAX_MIN_ACCOUNT_AGE_DAYS, 'At most ten years.'),
};

export const dropPrizeInputSchema = z.object({
  cardId: idSchema,
  quantity: z.number().int('A whole number of copies.').min(1, 'At least one copy.').max(MAX_DROP_WINNERS),
});
export type DropPrizeInput = z.infer<typeof dropPrizeInputSchema>;

const prizes = z
  .array(dropPrizeInputSchema)
  .min(1, 'A drop needs at least one prize card.')
  .max(20, 'At most 20 prize cards.')
  .refine((ps) => new Set(ps.map((p) => p.cardId)).size === ps.length, 'List each card once (use its quantity).');

function checkDrop(v: { opensAt?: string | undefined; closesAt?: string | undefined; winnerCount?: number | undefined; prizes?: DropPrizeInput[] | undefined }, ctx: z.RefinementCtx) {
  if (v.opensAt && v.closesAt && instantMs(v.closesAt) <= instantMs(v.opensAt)) {
    ctx.addIssue({ code: 'custom', path: ['closesAt'], message: 'The drop must close after it opens.' });
  }
  if (v.winnerCount !== undefined && v.prizes) {
    const units = v.prizes.reduce((n, p) => n + p.quantity, 0);
    if (v.winnerCount > units) {
      ctx.addIssue({ code: 'custom', path: ['winnerCount'], message: `More winners than prizes: ${plural(units, 'prize card')} for ${plural(v.winnerCount, 'winner')}.` });
    }
  }
}

const dropFields = {
  title,
  description: description.default(''),
  imageKey: uploadKeySchema.nullable().default(null),
  opensAt: instantSchema,
  closesAt: instantSchema,
  winnerCount,
  requireVerifiedEmail: eligibility.requireVerifiedEmail.default(true),
  minAccountAgeDays: eligibility.minAccountAgeDays.default(0),
  prizes,
};

export const createDropSchema = z.object(dropFields).superRefine(checkDrop);
export type CreateDropInput = z.infer<typeof createDropSchema>;

/**
 * Every field optional. Before the drop opens anything may change; after, only the text, the image
 * and a later closing time (409 drop_locked otherwise).
 */
export const updateDropSchema = z
  .object({
    title: title.optional(),
    description: description.optional(),
    imageKey: uploadKeySchema.nullable().optional(),
    opensAt: instantSchema.optional(),
    closesAt: instantSchema.optional(),
    winnerCount: winnerCount.optional(),
    requireVerifiedEmail: eligibility.requireVerifiedEmail.optional(),
    minAccountAgeDays: eligibility.minAccountAgeDays.optional(),
    prizes: prizes.optional(),
  })
  .superRefine(checkDrop);
export type UpdateDropInput = z.infer<typeof updateDropSchema>;

export const dropPrizeSchema = z.object({ card: publicCardSchema, quantity: z.number().int() });

export const dropWinnerSchema = z.object({
  place: z.number().int(),
  entryId: z.string(),
  /** The winner's public username. */
  username: z.string(),
  card: publicCardSchema,
});

/** What anyone sees of a drop. The seed and entry-list hash stay null until it has closed. */
export const publicDropSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  imageKey: z.string().nullable(),
  status: z.enum(DROP_STATUSES),
  opensAt: z.string(),
  closesAt: z.string(),
  winnerCount: z.number().int(),
  requireVerifiedEmail: z.boolean(),
  minAccountAgeDays: z.number().int(),
  entryCount: z.number().int(),
  /** SHA-256 of the secret seed, published when the drop opens. */
  commitment: z.string().nullable(),
  seed: z.string().nullable(),
  entryListHash: z.string().nullable(),
  drawnAt: z.string().nullable(),
  prizes: z.array(dropPrizeSchema),
  winners: z.array(dropWinnerSchema),
});
export type PublicDrop = z.infer<typeof publicDropSchema>;

export const dropListQuerySchema = z.object({
  /** current: upcoming, open and drawing (closing soonest first); past: closed, newest first. */
  when: z.enum(['current', 'past']).default('current'),
  page: pageSchema,
  pageSize: pageSizeSchema(20, 50),
});

export const dropListSchema = pagedSchema(publicDropSchema).extend({
  refs: lookRefsSchema,
});
export type DropList = z.infer<typeof dropListSchema>;

export const dropEntrySchema = z.object({
  dropId: z.string(),
  /** The entry's public id: the one listed in the draw's entry list. */
  entryId: z.string(),
  createdAt: z.string(),
});
export type DropEntry = z.infer<typeof dropEntrySchema>;

export const dropDetailSchema = z.object({
  drop: publicDropSchema,
  refs: lookRefsSchema,
  /** The signed-in user's entry, if any. */
  myEntry: dropEntrySchema.nullable(),
  /** Whether the signed-in user won, and the copy now in their vault. */
  myWin: z.object({ place: z.number().int(), ownedCardId: z.string().nullable() }).nullable(),
});
export type DropDetail = z.infer<typeof dropDetailSchema>;

export const enterDropResponseSchema = z.object({
  entry: dropEntrySchema,
  /** False when this was a retry that found the entry already made. */
  created: z.boolean(),
  entryCount: z.number().int(),
});

/** Everything needed to recompute the draw with verifyDrop (shared/drop-draw.ts). */
export const dropProofSchema = z.object({
  dropId: z.string(),
  seed: z.string(),
  commitment: z.string(),
  /** The frozen entry list: public ids, sorted as the draw sorts them. */
  entryIds: z.array(z.string()),
  entryListHash: z.string(),
  winnerCount: z.number().int(),
  winners: z.array(z.object({ place: z.number().int(), entryId: z.string(), username: z.string() })),
  drawnAt: z.string(),
});
export type DropProofDto = z.infer<typeof dropProofSchema>;

// Admin ------------------------------------------------------------------------------------------

export const adminDropSchema = publicDropSchema.extend({
  templateId: z.string().nullable(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  cancelledAt: z.string().nullable(),
});
export type AdminDrop = z.infer<typeof adminDropSchema>;

export const adminDropListQuerySchema = z.object({
  status: z.enum(DROP_STATUSES).optional(),
  page: pageSchema,
  pageSize: pageSizeSchema(20, 100),
});

export const dropCountsSchema = z.object({
  upcoming: z.number().int(),
  open: z.number().int(),
  drawing: z.number().int(),
  closed: z.number().int(),
  cancelled: z.number().int(),
});

export const adminDropListSchema = pagedSchema(adminDropSchema).extend({
  counts: dropCountsSchema,
  refs: lookRefsSchema,
});

export const adminDropEntriesQuerySchema = z.object({ page: pageSchema, pageSize: pageSizeSchema(50, 200) });
export const adminDropEntriesSchema = z.object({
  items: z.array(
    z.object({
      entryId: z.string(),
      userId: z.string(),
      username: z.string(),
      createdAt: z.string(),
      /** In the entry list frozen at the draw (false before the draw). */
      inDraw: z.boolean(),
      /** The place won, if any (0 = first drawn). */
      place: z.number().int().nullable(),
    }),
  ),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});

export const adminDropDetailSchema = z.object({ drop: adminDropSchema, refs: lookRefsSchema });

const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;

const templateFields = {
  title,
  description: description.default(''),
  imageKey: uploadKeySchema.nullable().default(null),
  /** Opens every day at this UTC time (HH:MM). */
  openTime: z.string().regex(TIME_OF_DAY, 'A UTC time like 12:00.'),
  durationMinutes: z.number().int().min(5, 'At least 5 minutes.').max(24 * 60, 'At most a day.'),
  winnerCount,
  requireVerifiedEmail: eligibility.requireVerifiedEmail.default(true),
  minAccountAgeDays: eligibility.minAccountAgeDays.default(0),
  prizes,
  active: z.boolean().default(true),
};

export const createDropTemplateSchema = z.object(templateFields).superRefine(checkDrop);
export const updateDropTemplateSchema = z
  .object({
    title: title.optional(),
    description: description.optional(),
    imageKey: uploadKeySchema.nullable().optional(),
    openTime: templateFields.openTime.optional(),
    durationMinutes: templateFields.durationMinutes.optional(),
    winnerCount: winnerCount.optional(),
    requireVerifiedEmail: eligibility.requireVerifiedEmail.optional(),
    minAccountAgeDays: eligibility.minAccountAgeDays.optional(),
    prizes: prizes.optional(),
    active: z.boolean().optional(),
  })
  .superRefine(checkDrop);
export type CreateDropTemplateInput = z.infer<typeof createDropTemplateSchema>;
export type UpdateDropTemplateInput = z.infer<typeof updateDropTemplateSchema>;

export const dropTemplateSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  imageKey: z.string().nullable(),
  openTime: z.string(),
  durationMinutes: z.number().int(),
  winnerCount: z.number().int(),
  requireVerifiedEmail: z.boolean(),
  minAccountAgeDays: z.number().int(),
  prizes: z.array(z.object({ cardId: z.string(), quantity: z.number().int() })),
  active: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DropTemplate = z.infer<typeof dropTemplateSchema>;
export const dropTemplateListSchema = z.object({ items: z.array(dropTemplateSchema) });
