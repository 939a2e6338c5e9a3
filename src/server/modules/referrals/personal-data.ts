import { asc, eq, or } from 'drizzle-orm';
import { referralCodes, referralRewards, referrals } from '../../db/schema/referrals.ts';
import type { PersonalDataSection } from '../../lib/personal-data-section.ts';

/**
 * The code is deleted with the account (an invite link to a deleted account leads nowhere).
 * Referrals and rewards are money records, kept; the code as used, which a vanity code may make
 * personal, is erased from the referrals the person made.
 */
export const referralsPersonalData: PersonalDataSection = {
  name: 'referrals',
  tables: [
    { table: referralCodes, keyedBy: ['user_id'], onDelete: 'delete', why: 'the invite code' },
    { table: referrals, keyedBy: ['referrer_id', 'referee_id', 'voided_by'], onDelete: 'keep', why: 'rewards paid (accounting); voided_by is the admin' },
    { table: referralRewards, keyedBy: ['user_id'], onDelete: 'keep', why: 'rewards paid and taken back (accounting)' },
  ],
  async export(db, { id }) {
    const [codes, rows, rewards] = await Promise.all([
      db.select().from(referralCodes).where(eq(referralCodes.userId, id)),
      db
        .select()
        .from(referrals)
        .where(or(eq(referrals.referrerId, id), eq(referrals.refereeId, id)))
        .orderBy(asc(referrals.createdAt)),
      db.select().from(referralRewards).where(eq(referralRewards.userId, id)).orderBy(asc(referralRewards.createdAt)),
    ]);
    return {
      code: codes[0] ? { code: codes[0].code, vanity: codes[0].vanity, createdAt: codes[0].createdAt.toISOString() } : null,
      referrals: rows.map((r) => ({
        id: r.id,
        role: r.referrerId === id ? 'referrer' : 'referee',
        code: r.code,
        status: r.status,
        reason: r.reason,
        qualifiedAt: r.qualifiedAt?.toISOString() ?? null,
        createdAt: r.createdAt.toISOString(),
      })),
      rewards: rewards.map((r) => ({
        id: r.id,
        referralId: r.referralId,
        kind: r.kind,
        amountCents: r.amountCents,
        shortfallCents: r.shortfallCents,
        journalEntryId: r.journalEntryId,
        createdAt: r.createdAt.toISOString(),
      })),
    };
  },
  async erase(tx, { id }) {
    await tx.delete(referralCodes).where(eq(referralCodes.userId, id));
    await tx.update(referrals).set({ code: '(erased)' }).where(eq(referrals.referrerId, id));
  },
};
