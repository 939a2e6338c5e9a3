import { z } from 'zod';
import { pageSchema, pageSizeSchema, pagedSchema } from './paging.ts';
import { VAULT_PROOF_FORMAT } from '../vault-proof.ts';

/** Proof of the vault (issue 44, ADR 0030): what the public and each collector may read. */

const hex32 = z.string().regex(/^[0-9a-f]{64}$/);

export const vaultKeyInfoSchema = z.object({
  algorithm: z.literal('Ed25519'),
  /** Base64 of the 32 raw bytes; null when this server has no signing key (production without VAULT_SIGNING_KEY). */
  publicKey: z.string().nullable(),
  format: z.string(),
});
export type VaultKeyInfo = z.infer<typeof vaultKeyInfoSchema>;

export const vaultSnapshotSummarySchema = z.object({
  seq: z.number().int(),
  takenAt: z.string(),
  root: hex32,
  previousRoot: hex32.nullable(),
  leafCount: z.number().int(),
  stockCopies: z.number().int(),
  vaultCopies: z.number().int(),
  trigger: z.enum(['schedule', 'owner']),
});
export type VaultSnapshotSummary = z.infer<typeof vaultSnapshotSummarySchema>;

export const vaultSnapshotListSchema = pagedSchema(vaultSnapshotSummarySchema);
export const vaultSnapshotListQuerySchema = z.object({ page: pageSchema, pageSize: pageSizeSchema(30, 100) });

export const vaultSnapshotDetailSchema = vaultSnapshotSummarySchema.extend({
  /** The exact signed text: verify the signature over its UTF-8 bytes. */
  statement: z.string(),
  signature: z.string(),
  publicKey: z.string(),
  /** The totals as signed: SHA-256 of this exact text is the statement's `totalsSha256`. */
  totalsText: z.string(),
  totals: z.array(z.object({ cardId: z.string(), cardName: z.string().nullable(), stock: z.number().int(), vault: z.number().int() })),
});
export type VaultSnapshotDetail = z.infer<typeof vaultSnapshotDetailSchema>;

export const vaultSeqParamSchema = z.object({ seq: z.coerce.number().int().min(1).max(2_000_000_000) });

export const vaultDiffQuerySchema = z.object({
  fromSeq: z.coerce.number().int().min(1).max(2_000_000_000),
  toSeq: z.coerce.number().int().min(1).max(2_000_000_000),
});

export const vaultDiffSchema = z.object({
  from: vaultSnapshotSummarySchema,
  to: vaultSnapshotSummarySchema,
  copiesBefore: z.number().int(),
  copiesAfter: z.number().int(),
  /** Only the cards whose totals changed. */
  changes: z.array(
    z.object({
      cardId: z.string(),
      cardName: z.string().nullable(),
      stockBefore: z.number().int(),
      stockAfter: z.number().int(),
      vaultBefore: z.number().int(),
      vaultAfter: z.number().int(),
    }),
  ),
});
export type VaultDiff = z.infer<typeof vaultDiffSchema>;

export const vaultProofQuerySchema = z.object({ snapshot: z.coerce.number().int().min(1).max(2_000_000_000).optional() });

export const vaultProofFileSchema = z.object({
  format: z.literal(VAULT_PROOF_FORMAT),
  statement: z.string(),
  signature: z.string(),
  publicKey: z.string(),
  holder: z.object({ id: z.string(), salt: z.string() }),
  leaves: z.array(
    z.object({
      index: z.number().int(),
      cardId: z.string(),
      cardName: z.string().optional(),
      copy: z.string(),
      commitment: z.string(),
      leafHash: z.string(),
      path: z.array(z.string()),
    }),
  ),
});
