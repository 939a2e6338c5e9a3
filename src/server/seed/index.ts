import type { Deps } from '../deps.ts';
import { catalogSeedStep } from './catalog.ts';
import { shopSeedStep } from './shop.ts';
import { authSeedSteps } from '../modules/auth/seed.ts';
import { seedPromoCodes } from './wallet.ts';
import { dropsSeedStep } from './drops.ts';
import { shippingSeedStep } from './shipping.ts';
import { referralsSeedStep } from './referrals.ts';

/**
 * Demo data for local use. Every step is idempotent (safe to run at every start) and never
 * runs in production. Domains add their steps to SEED_STEPS in dependency order.
 */
export type SeedStep = { name: string; run: (deps: Deps) => Promise<void> };

export const SEED_STEPS: SeedStep[] = [...authSeedSteps, catalogSeedStep, shopSeedStep, seedPromoCodes, shippingSeedStep, dropsSeedStep, referralsSeedStep];

export async function runSeed(deps: Deps): Promise<void> {
  if (deps.config.isProduction) return;
  for (const step of SEED_STEPS) {
    await step.run(deps);
    deps.log.debug('seeded', { step: step.name });
  }
}
