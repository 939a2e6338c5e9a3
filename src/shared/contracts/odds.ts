import { z } from 'zod';
import { packSlotSchema } from './shop.ts';

/**
 * Odds revisions and realised returns (issue 44): public, for anyone to check. docs/fairness.md,
 * "Odds revisions" and "Realised returns", says how each figure is computed.
 */

const cents = z.number().int();
const isoDate = z.string();
export const revisionHashSchema = z.string().regex(/^[a-f0-9]{64}$/, 'Not a revision hash (64 lowercase hex characters).');

export const oddsRevisionSummarySchema = z.object({
  hash: z.string(),
  /** 1 for the product's first revision, then 2, 3, … in the order they were published. */
  number: z.number().int(),
  productId: z.string(),
  priceCents: cents,
  slots: z.array(packSlotSchema),
  /** Each class the slots name with its class pool's hash, in class-id order. */
  classes: z.array(z.object({ classId: z.string(), hash: z.string() })),
  /** Expected card value of a pack, every card of the revision's pools equally likely within its class. */
  expectedValueCents: cents,
  /** Expected value ÷ price, in basis points. */
  promisedReturnBps: z.number().int().nullable(),
  publishedAt: isoDate,
});
export type OddsRevisionSummary = z.infer<typeof oddsRevisionSummarySchema>;

/** GET /api/fairness/products/{id}/revisions */
export const oddsRevisionListSchema = z.object({
  product: z.object({ id: z.string(), name: z.string(), status: z.string(), priceCents: cents }),
  /** The revision its packs are drawn under now (null unless live). */
  currentHash: z.string().nullable(),
  classNames: z.record(z.string(), z.string()),
  items: z.array(oddsRevisionSummarySchema),
});
export type OddsRevisionList = z.infer<typeof oddsRevisionListSchema>;

/** GET /api/fairness/revisions/{hash}: the revision with its class pools in full. */
export const oddsRevisionSchema = oddsRevisionSummarySchema.extend({
  productName: z.string(),
  classNames: z.record(z.string(), z.string()),
  classes: z.array(
    z.object({
      classId: z.string(),
      hash: z.string(),
      /** [cardId, valueCents] sorted by card id. */
      cards: z.array(z.tuple([z.string(), cents])),
    }),
  ),
});
export type OddsRevision = z.infer<typeof oddsRevisionSchema>;

/** GET /api/fairness/returns: one row per product and revision, from the dashboard's rollups. */
export const returnsRowSchema = z.object({
  productId: z.string(),
  productName: z.string(),
  revisionHash: z.string(),
  revisionNumber: z.number().int(),
  publishedAt: isoDate,
  priceCents: cents,
  openings: z.number().int(),
  expectedValueCents: cents,
  /** Expected value ÷ price (basis points). */
  promisedReturnBps: z.number().int().nullable(),
  /** Σ value pulled ÷ Σ price paid over every opening under the revision (basis points). */
  realisedReturnBps: z.number().int().nullable(),
  /** 95 % interval of the realised return: realised ± 1.96 σ ÷ √n ÷ price (σ: the revision's spread). */
  intervalLowBps: z.number().int().nullable(),
  intervalHighBps: z.number().int().nullable(),
  zScore: z.number().nullable(),
  /** The back office's drift test (|z| > 3.5 with enough openings): 'high', 'low' or null. */
  drift: z.enum(['high', 'low']).nullable(),
  rarities: z.array(
    z.object({
      classId: z.string(),
      className: z.string(),
      /** Expected cards of this class per pack. */
      promisedPerPack: z.number(),
      /** Cards of this class pulled per pack. */
      realisedPerPack: z.number().nullable(),
      pulled: z.number().int(),
    }),
  ),
});
export type ReturnsRow = z.infer<typeof returnsRowSchema>;
export const returnsSchema = z.object({
  /** The rollups cover openings up to this time (null: nothing rolled yet). */
  asOf: isoDate.nullable(),
  minOpeningsForDrift: z.number().int(),
  items: z.array(returnsRowSchema),
});
export type Returns = z.infer<typeof returnsSchema>;
