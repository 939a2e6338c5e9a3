import { asc, eq } from 'drizzle-orm';
import { promoCodes, promoRedemptions } from '../../db/schema/promo.ts';
import type { PersonalDataSection } from '../../lib/personal-data-section.ts';

/** Redemptions are credits paid out (kept); codes a staff member created stay with the business. */
export const promoPersonalData: PersonalDataSection = {
  name: 'promo',
  tables: [
    { table: promoRedemptions, keyedBy: ['user_id'], onDelete: 'keep', why: 'credits paid out (accounting)' },
    { table: promoCodes, keyedBy: ['created_by'], onDelete: 'keep', why: 'business record; creator id is pseudonymous' },
  ],
  async export(db, { id }) {
    const [redemptions, created] = await Promise.all([
      db
        .select({ r: promoRedemptions, code: promoCodes.code, kind: promoCodes.kind })
        .from(promoRedemptions)
        .innerJoin(promoCodes, eq(promoCodes.id, promoRedemptions.promoId))
        .where(eq(promoRedemptions.userId, id))
        .orderBy(asc(promoRedemptions.createdAt)),
      db
        .select({ id: promoCodes.id, code: promoCodes.code, createdAt: promoCodes.createdAt })
        .from(promoCodes)
        .where(eq(promoCodes.createdBy, id))
        .orderBy(asc(promoCodes.createdAt)),
    ]);
    return {
      redemptions: redemptions.map(({ r, code, kind }) => ({
        id: r.id,
        code,
        kind,
        status: r.status,
        creditedCents: r.creditedCents,
        depositId: r.depositId,
        createdAt: r.createdAt.toISOString(),
        appliedAt: r.appliedAt?.toISOString() ?? null,
      })),
      codesCreated: created.map((c) => ({ id: c.id, code: c.code, createdAt: c.createdAt.toISOString() })),
    };
  },
  async erase() {
    // Kept: see tables.
  },
};
