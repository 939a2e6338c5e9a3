import { asc, eq } from 'drizzle-orm';
import { deposits } from '../../db/schema/payments.ts';
import type { PersonalDataSection } from '../../lib/personal-data-section.ts';

/** Deposits are payment records: kept on deletion (accounting, refunds, disputes). */
export const paymentsPersonalData: PersonalDataSection = {
  name: 'payments',
  tables: [{ table: deposits, keyedBy: ['user_id'], onDelete: 'keep', why: 'payment records (accounting, refunds, disputes)' }],
  async export(db, { id }) {
    const rows = await db.select().from(deposits).where(eq(deposits.userId, id)).orderBy(asc(deposits.createdAt));
    return {
      deposits: rows.map((d) => ({
        id: d.id,
        amountCents: d.amountCents,
        bonusCents: d.bonusCents,
        refundedCents: d.refundedCents,
        currency: d.currency,
        status: d.status,
        provider: d.provider,
        testMode: d.testMode,
        providerReference: d.providerRef,
        failureReason: d.failureReason,
        returnPath: d.returnPath,
        createdAt: d.createdAt.toISOString(),
        completedAt: d.completedAt?.toISOString() ?? null,
      })),
    };
  },
  async erase() {
    // Kept as they are: they name no one once the user row is pseudonymised.
  },
};
