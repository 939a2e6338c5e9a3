import { asc, eq } from 'drizzle-orm';
import { vaultHoldings } from '../../db/schema/vault-proof.ts';
import type { PersonalDataSection } from '../../lib/personal-data-section.ts';

/**
 * Which leaves of each vault snapshot are a person's (never published). On deletion they go:
 * the signed trees stay as they are, but nothing links their leaves to anyone any more.
 */
export const vaultProofPersonalData: PersonalDataSection = {
  name: 'vaultProof',
  tables: [{ table: vaultHoldings, keyedBy: ['owner_id'], onDelete: 'delete', why: 'only the owner proves their own copies' }],
  async export(db, { id }) {
    const rows = await db.select().from(vaultHoldings).where(eq(vaultHoldings.ownerId, id)).orderBy(asc(vaultHoldings.seq));
    return { snapshots: rows.map((r) => ({ snapshot: r.seq, copies: r.leaves.map(([index, cardId, copy]) => ({ index, cardId, copy })) })) };
  },
  async erase(tx, { id }) {
    await tx.delete(vaultHoldings).where(eq(vaultHoldings.ownerId, id));
  },
};
