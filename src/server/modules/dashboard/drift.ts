import { DRIFT_MIN_OPENS, DRIFT_Z } from '../../../shared/contracts/dashboard.ts';
import type { PackSlot } from '../../../shared/contracts/shop.ts';
import { revisionMoments } from '../../../shared/odds-revision.ts';

/**
 * Expected return and the drift test (issue 18). A pack's card value is the sum of its slots;
 * each slot picks a class by weight and then a card uniformly from that class's pool (the same
 * model as the odds page and packStats in modules/shop/odds.ts, which skips a class with an empty
 * pool the same way). Slots are independent, so the pack's mean and variance are the sums of the
 * slots'. Over n openings the total pulled value has mean n·μ and variance n·σ² (central limit:
 * n ≥ DRIFT_MIN_OPENS keeps the normal approximation honest), so
 *   z = (pulled − n·μ) / √(n·σ²)
 * and |z| > DRIFT_Z (3.5: about 1 in 2,000 for a fair product per look) is more than chance
 * explains. Pure, so tests drive it directly.
 */

/** Per class, over the cards a pack may give: count, Σ value, Σ value². */
export interface ClassMoments {
  n: number;
  sum: number;
  sumSq: number;
}

export interface PackMoments {
  /** Expected card value per pack, cents (unrounded). */
  mean: number;
  /** Variance of a pack's card value, cents². */
  variance: number;
}

/** One model with the public odds pages (shared/odds-revision.ts), so the drift test and the published promise agree. */
export function packMoments(slots: readonly PackSlot[], classes: ReadonlyMap<string, ClassMoments>): PackMoments {
  return revisionMoments(slots, classes);
}

export interface DriftInput {
  opens: number;
  pulledValueCents: number;
  salesCents: number;
  priceCents: number;
  moments: PackMoments | null;
}

export interface DriftResult {
  realisedRtpBps: number | null;
  expectedRtpBps: number | null;
  zScore: number | null;
  drift: 'high' | 'low' | null;
}

export function driftOf(d: DriftInput): DriftResult {
  const realisedRtpBps = d.opens > 0 && d.salesCents > 0 ? Math.round((d.pulledValueCents / d.salesCents) * 10_000) : null;
  const expectedRtpBps = d.moments && d.priceCents > 0 ? Math.round((d.moments.mean / d.priceCents) * 10_000) : null;
  let zScore: number | null = null;
  if (d.moments && d.opens > 0) {
    const sd = Math.sqrt(d.opens * d.moments.variance);
    const diff = d.pulledValueCents - d.opens * d.moments.mean;
    // A pack with no spread (every card the same value) either matches exactly or cannot happen by chance.
    zScore = sd > 0 ? diff / sd : Math.abs(diff) < 0.5 ? 0 : Math.sign(diff) * Number.MAX_SAFE_INTEGER;
    zScore = Math.round(zScore * 100) / 100;
  }
  const drift = zScore !== null && d.opens >= DRIFT_MIN_OPENS && Math.abs(zScore) > DRIFT_Z ? (zScore > 0 ? 'high' : 'low') : null;
  return { realisedRtpBps, expectedRtpBps, zScore, drift };
}
