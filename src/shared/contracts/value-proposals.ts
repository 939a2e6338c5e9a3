import { z } from 'zod';

/**
 * Card value proposals (ADR 0024): a non-owner admin's value change beyond the owner's daily
 * bound waits for the owner, and the card keeps its value (the one buyback, insurance, shipping
 * and grants use) until then.
 *
 *   GET  /api/admin/catalog/value-proposals?status=pending   -> valueProposalListSchema (admins read)
 *   POST /api/admin/catalog/value-proposals/{id}/approve     -> valueProposalSchema (owner)
 *   POST /api/admin/catalog/value-proposals/{id}/reject      { note } -> valueProposalSchema (owner)
 *
 * PATCH /api/admin/catalog/cards/{id} answers `valueProposal` when the value change was held.
 */

export const VALUE_PROPOSAL_STATUSES = ['pending', 'approved', 'rejected', 'superseded'] as const;
export type ValueProposalStatus = (typeof VALUE_PROPOSAL_STATUSES)[number];

export const valueProposalSchema = z.object({
  id: z.string(),
  cardId: z.string(),
  cardName: z.string(),
  setName: z.string(),
  number: z.number().int(),
  /** The card's value in effect when it was proposed, and now. */
  fromCents: z.number().int(),
  currentCents: z.number().int(),
  toCents: z.number().int(),
  /** Copies in vaults now (what a buyback at the new value could pay on). */
  copiesInVaults: z.number().int(),
  proposedBy: z.string().nullable(),
  proposedByName: z.string().nullable(),
  status: z.enum(VALUE_PROPOSAL_STATUSES),
  decidedBy: z.string().nullable(),
  decidedByName: z.string().nullable(),
  decidedAt: z.string().nullable(),
  decisionNote: z.string().nullable(),
  createdAt: z.string(),
});
export type ValueProposal = z.infer<typeof valueProposalSchema>;

export const valueProposalListQuerySchema = z.object({
  status: z.enum(VALUE_PROPOSAL_STATUSES).default('pending'),
});

export const valueProposalListSchema = z.object({
  items: z.array(valueProposalSchema),
  /** Pending proposals in all (the back office badge). */
  pendingCount: z.number().int(),
  callerIsOwner: z.boolean(),
});
export type ValueProposalList = z.infer<typeof valueProposalListSchema>;

export const rejectValueProposalSchema = z
  .object({
    note: z.string({ message: 'Say why.' }).trim().min(3, 'Say why in a few words.').max(500, 'At most 500 characters.'),
  })
  .strict();

/** What a held value change answers beside the card (the card keeps its value in effect). */
export const heldValueChangeSchema = z.object({
  id: z.string(),
  toCents: z.number().int(),
  message: z.string(),
});
export type HeldValueChange = z.infer<typeof heldValueChangeSchema>;
