import { bpsToPercentText, percentToBps } from '@shared/money';
/**
 * Pack statistics computed in the browser while the admin edits, with the same definitions as
 * the server's (src/server/modules/shop/odds.ts): pools are the active cards with stock of each
 * class (optionally limited to a card list); within a class every pool card is equally likely.
 */

export interface PoolCard {
  id: string;
  classId: string;
  valueCents: number;
  stock: number;
}

export interface ClassPool {
  poolSize: number;
  sumValueCents: number;
  minValueCents: number | null;
  maxValueCents: number | null;
}

export interface EditorSlot {
  odds: Array<{ classId: string; weight: number }>;
}

export function classPools(cards: readonly PoolCard[], pool: { mode: 'classes' } | { mode: 'cards'; cardIds: readonly string[] }) {
  const only = pool.mode === 'cards' ? new Set(pool.cardIds) : null;
  const out = new Map<string, ClassPool>();
  for (const c of cards) {
    if (c.stock <= 0 || (only && !only.has(c.id))) continue;
    const p = out.get(c.classId) ?? { poolSize: 0, sumValueCents: 0, minValueCents: null, maxValueCents: null };
    p.poolSize += 1;
    p.sumValueCents += c.valueCents;
    p.minValueCents = p.minValueCents === null ? c.valueCents : Math.min(p.minValueCents, c.valueCents);
    p.maxValueCents = p.maxValueCents === null ? c.valueCents : Math.max(p.maxValueCents, c.valueCents);
    out.set(c.classId, p);
  }
  return out;
}

export interface LiveStats {
  floorCents: number;
  expectedValueCents: number;
  ceilingCents: number;
  /** (price − EV) / price in basis points; null without a price. */
  houseEdgeBp: number | null;
  /** Classes used in the odds with nothing in their pool: the pack is sold out. */
  emptyClasses: string[];
}

export function liveStats(slots: readonly EditorSlot[], pools: ReadonlyMap<string, ClassPool>, priceCents: number | null): LiveStats {
  let floor = 0;
  let ev = 0;
  let ceiling = 0;
  const empty = new Set<string>();
  for (const s of slots) {
    const total = s.odds.reduce((a, e) => a + e.weight, 0);
    let slotMin = Infinity;
    let slotMax = 0;
    for (const e of s.odds) {
      const c = pools.get(e.classId);
      if (!c || c.poolSize === 0) {
        empty.add(e.classId);
        continue;
      }
      if (total > 0) ev += (e.weight / total) * (c.sumValueCents / c.poolSize);
      slotMin = Math.min(slotMin, c.minValueCents ?? 0);
      slotMax = Math.max(slotMax, c.maxValueCents ?? 0);
    }
    floor += slotMin === Infinity ? 0 : slotMin;
    ceiling += slotMax;
  }
  return {
    floorCents: floor,
    expectedValueCents: Math.round(ev),
    ceilingCents: ceiling,
    houseEdgeBp: houseEdgeBp(priceCents, ev),
    emptyClasses: [...empty],
  };
}

/** (price − EV) / price in basis points, as the server computes it; null without a price. */
export function houseEdgeBp(priceCents: number | null, expectedValueCents: number): number | null {
  return priceCents ? Math.round(((priceCents - expectedValueCents) / priceCents) * 10_000) : null;
}

/** "12.5" → 1250 basis points; null when it is not a percentage from 0 to 100 with at most two decimals. */
export function percentToBp(text: string): number | null {
  const bp = percentToBps(text);
  return bp !== null && bp <= 10_000 ? bp : null;
}

export const bpToPercent = bpsToPercentText;

export function formatBp(bp: number): string {
  return `${(bp / 100).toFixed(2)}%`;
}
