import { inArray } from 'drizzle-orm';
import { user } from '../db/schema/auth.ts';
import { DEMO_OWNER_EMAIL, DEMO_USER_EMAIL } from '../modules/auth/demo-accounts.ts';
import { ensureCode } from '../modules/referrals/codes.ts';
import { recordReferral } from '../modules/referrals/service.ts';
import { seedReferralSettings } from '../modules/referrals/settings.ts';
import type { SeedStep } from './index.ts';

/**
 * The programme's terms stored, a code for each demo account, and one referral: the demo user
 * invited the demo owner (so /profile/referral lists an invitee and /admin/referrals/$id has a
 * row). The owner, not the user, is the friend: e2e suites deposit as users, and a qualifying
 * deposit would add rewards to the balances they check. Staff are never referees (ADR 0024), so
 * it is recorded rejected, with the reason, and never pays.
 */
export const referralsSeedStep: SeedStep = {
  name: 'referrals: settings, demo codes and a demo referral',
  async run(deps) {
    await seedReferralSettings(deps.db);
    const rows = await deps.db.select({ id: user.id, email: user.email }).from(user).where(inArray(user.email, [DEMO_USER_EMAIL, DEMO_OWNER_EMAIL]));
    const demo = rows.find((r) => r.email === DEMO_USER_EMAIL);
    const owner = rows.find((r) => r.email === DEMO_OWNER_EMAIL);
    if (!demo || !owner) return;
    await deps.db.transaction(async (tx) => {
      const code = await ensureCode(tx, demo.id);
      await ensureCode(tx, owner.id);
      await recordReferral(tx, { refereeId: owner.id, code: code.code });
    });
  },
};
