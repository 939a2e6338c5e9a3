import { promoCodes } from '../db/schema/promo.ts';
import type { SeedStep } from './index.ts';

/** The welcome code from the product brief: a $5 credit, once per user. Idempotent. */
export const seedPromoCodes: SeedStep = {
  name: 'wallet: promo codes',
  async run(deps) {
    await deps.db
      .insert(promoCodes)
      .values({ code: 'WELCOME5', kind: 'credit', amountCents: 500, description: 'Welcome gift: $5 of credit', active: true })
      // The only unique index is lower(code): an existing WELCOME5 (any case) is left as it is.
      .onConflictDoNothing();
  },
};
