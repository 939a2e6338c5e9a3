import { asc, eq } from 'drizzle-orm';
import { depositLimits, selfExclusions } from '../../db/schema/responsible-play.ts';
import type { PersonalDataSection } from '../../lib/personal-data-section.ts';

/** Deposit limits and self-exclusions: protections for a live account, deleted with it. */
export const responsiblePlayPersonalData: PersonalDataSection = {
  name: 'responsiblePlay',
  tables: [
    { table: depositLimits, keyedBy: ['user_id'], onDelete: 'delete', why: 'settings of a closed account' },
    { table: selfExclusions, keyedBy: ['user_id'], onDelete: 'delete', why: 'cannot match anyone once the email is gone' },
  ],
  async export(db, { id }) {
    const [limits, exclusions] = await Promise.all([
      db.select().from(depositLimits).where(eq(depositLimits.userId, id)).orderBy(asc(depositLimits.period)),
      db.select().from(selfExclusions).where(eq(selfExclusions.userId, id)).orderBy(asc(selfExclusions.startsAt)),
    ]);
    return {
      depositLimits: limits.map((l) => ({
        period: l.period,
        limitCents: l.limitCents,
        pendingLimitCents: l.pendingLimitCents,
        pendingEffectiveAt: l.pendingEffectiveAt?.toISOString() ?? null,
        updatedAt: l.updatedAt.toISOString(),
      })),
      selfExclusions: exclusions.map((x) => ({ id: x.id, duration: x.duration, startsAt: x.startsAt.toISOString(), endsAt: x.endsAt.toISOString() })),
    };
  },
  async erase(tx, { id }) {
    await tx.delete(depositLimits).where(eq(depositLimits.userId, id));
    await tx.delete(selfExclusions).where(eq(selfExclusions.userId, id));
  },
};
