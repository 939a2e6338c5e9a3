import { customType, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { user } from './auth.ts';

/**
 * Proof of the vault (issue 44, modules/vault-proof, ADR 0030): the signed daily Merkle snapshots of
 * every copy the shop holds. Append-only: a snapshot is written whole, in one transaction, and
 * never changed.
 */

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
});

/** One signed snapshot. `statement` is the exact signed text; it signs `totals` by its hash. */
export const vaultSnapshots = pgTable('vault_snapshots', {
  /** 1, 2, 3…: the order of publication; each statement names the previous root. */
  seq: integer('seq').primaryKey(),
  takenAt: timestamp('taken_at', { withTimezone: true }).notNull(),
  /** 'schedule' (the daily job) or 'owner' (on demand; the audit log says who). */
  trigger: text('trigger').notNull(),
  leafCount: integer('leaf_count').notNull(),
  stockCopies: integer('stock_copies').notNull(),
  vaultCopies: integer('vault_copies').notNull(),
  root: text('root').notNull(),
  previousRoot: text('previous_root'),
  statement: text('statement').notNull(),
  /** The totals per card, the exact text whose SHA-256 the statement signs (`totalsSha256`). */
  totals: text('totals').notNull(),
  /** Ed25519 over the statement's UTF-8 bytes, base64. */
  signature: text('signature').notNull(),
  /** The signing key's public half, base64 of its 32 bytes. */
  publicKey: text('public_key').notNull(),
  buildMs: integer('build_ms').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The tree, level by level (0 = the sorted leaves), in chunks of VAULT_CHUNK hashes of 32 bytes:
 * a proof reads one 32-byte substring per level (storage EXTERNAL, set in the migration, so
 * PostgreSQL fetches only the bytes asked for).
 */
export const vaultTreeChunks = pgTable(
  'vault_tree_chunks',
  {
    seq: integer('seq')
      .notNull()
      .references(() => vaultSnapshots.seq),
    level: integer('level').notNull(),
    chunk: integer('chunk').notNull(),
    hashes: bytea('hashes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.seq, t.level, t.chunk] })],
);

/**
 * Whose leaves are whose, never published: per snapshot and collector, `[index, cardId, copy]`
 * of each of their leaves. Only the collector's own proof request reads their row.
 */
export const vaultHoldings = pgTable(
  'vault_holdings',
  {
    seq: integer('seq')
      .notNull()
      .references(() => vaultSnapshots.seq),
    ownerId: text('owner_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    leaves: jsonb('leaves').$type<Array<[number, string, string]>>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.seq, t.ownerId] }), index('vault_holdings_owner_idx').on(t.ownerId)],
);
