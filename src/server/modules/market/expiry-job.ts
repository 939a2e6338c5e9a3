import type { Job } from '../../jobs/scheduler.ts';
import { expireOffersDue, type MarketCtx } from './offer-holds.ts';
import { expireDue } from './service.ts';
import { expireSwapsDue } from './swaps.ts';

/** How often the expiry job runs (scripts/scale-test.ts checks each job runs once per interval). */
export const MARKET_EXPIRY_EVERY_MS = 60_000;

/** Listings and offers past their expiry end in bounded batches (ADR 0009 job); reads and actions also end them lazily. */
export function marketExpiryJob(everyMs = MARKET_EXPIRY_EVERY_MS): Job {
  return {
    name: 'market-expiry',
    everyMs,
    async run(deps, signal) {
      // Listings, then offers (ADR 0028 part 2): each closed offer's hold goes back to its buyer.
      for (const [what, expire] of [
        ['listings', (ctx: MarketCtx) => expireDue(deps.db, { limit: 100, ctx })],
        ['offers', (ctx: MarketCtx) => expireOffersDue(deps.db, { limit: 100, ctx })],
        ['swaps', (ctx: MarketCtx) => expireSwapsDue(deps.db, { limit: 100, ctx })],
      ] as const) {
        let total = 0;
        for (let i = 0; i < 10 && !signal.aborted; i++) {
          const n = await expire({ deps });
          total += n;
          if (n < 100) break;
        }
        if (total > 0) deps.log.info(`market ${what} expired`, { count: total });
      }
    },
  };
}
