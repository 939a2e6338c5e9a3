import { asc, eq } from 'drizzle-orm';
import { balances, journalEntries, ledgerAccounts, ledgerEntries } from '../../db/schema/wallet.ts';
import { idempotencyKeys } from '../platform/tables.ts';
import { forgetKeysOf } from '../../lib/idempotency.ts';
import type { PersonalDataSection } from '../../lib/personal-data-section.ts';

/**
 * The wallet: account, balance and books are kept on deletion (accounting), stored request
 * replays are not. Journal entries the person caused on someone else's wallet (staff
 * adjustments) are not exported here: they belong to that other person; the audit section lists
 * the action. `ledger_entries` is a view of the wallet's postings (migration 0009).
 */
export const walletPersonalData: PersonalDataSection = {
  name: 'wallet',
  tables: [
    { table: ledgerAccounts, keyedBy: ['user_id'], onDelete: 'keep', why: 'wallet account of retained books (accounting)' },
    { table: balances, keyedBy: ['user_id'], onDelete: 'keep', why: 'balance of retained ledger (accounting)' },
    {
      table: journalEntries,
      keyedBy: ['actor_id', 'idempotency_key'],
      onDelete: 'keep',
      why: 'money movements (accounting); keys are scoped by the wallet owner id',
    },
    { table: idempotencyKeys, keyedBy: ['user_id'], onDelete: 'delete', why: 'replay cache, no retention need' },
  ],
  async export(db, { id }) {
    const [balance] = await db.select().from(balances).where(eq(balances.userId, id));
    const [accounts, entries, keys] = await Promise.all([
      db.select().from(ledgerAccounts).where(eq(ledgerAccounts.userId, id)),
      db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, id)).orderBy(asc(ledgerEntries.seq)),
      db
        .select({ id: idempotencyKeys.id, key: idempotencyKeys.key, responseStatus: idempotencyKeys.responseStatus, createdAt: idempotencyKeys.createdAt })
        .from(idempotencyKeys)
        .where(eq(idempotencyKeys.userId, id))
        .orderBy(asc(idempotencyKeys.createdAt)),
    ]);
    return {
      balanceCents: balance?.cents ?? 0,
      accounts: accounts.map((a) => ({ id: a.id, currency: a.currency, createdAt: a.createdAt.toISOString() })),
      ledger: entries.map((e) => ({
        id: e.id,
        kind: e.kind,
        amountCents: e.amountCents,
        balanceAfterCents: e.balanceAfter,
        referenceType: e.referenceType,
        referenceId: e.referenceId,
        causedBy: e.actorId === null ? 'system' : e.actorId === id ? 'you' : 'staff',
        memo: e.memo,
        createdAt: e.createdAt.toISOString(),
      })),
      storedRequests: keys.map((k) => ({ id: k.id, key: k.key, responseStatus: k.responseStatus, createdAt: k.createdAt.toISOString() })),
    };
  },
  async erase(tx, { id }) {
    await forgetKeysOf(tx, id);
  },
};
