import type { SeedStep } from '../../seed/index.ts';
import { DEMO_OWNER_EMAIL, DEMO_USER_EMAIL } from './demo-accounts.ts';
import { ensureUser } from './users.ts';

export const DEMO_ADMIN_TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

/** Demo accounts (README): a verified user and an owner with two-factor enrolled. */
export const authSeedSteps: SeedStep[] = [
  {
    name: 'auth: demo user',
    run: async (deps) => {
      await ensureUser(deps, { email: DEMO_USER_EMAIL, username: 'demo', password: 'demo-password-1', role: 'user' });
    },
  },
  {
    name: 'auth: demo owner',
    run: async (deps) => {
      const r = await ensureUser(deps, {
        email: DEMO_OWNER_EMAIL,
        username: 'admin',
        password: 'admin-password-1',
        role: 'owner',
        totpSecret: DEMO_ADMIN_TOTP_SECRET,
      });
      // Backup codes sign in like passwords: they are not logged (the TOTP secret is in the README).
      if (r.created) deps.log.info('seeded demo owner', { email: DEMO_OWNER_EMAIL });
    },
  },
];
