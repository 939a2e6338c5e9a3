import type { PackSlot, PackSlotOdds, PackStats, SoldOutReason } from '../../../shared/contracts/shop.ts';

/**
 * Pack statistics from the same odds and pools the draw uses: floor / expected value / ceiling,
 * house edge, per-slot odds rows and the sold-out state. Pure, so the admin preview, the product
 * pages and the tests share it.
 */

export interface ClassPoolStats {
  classId: string;
  name: string;
  colour: string;
  /** Eligible cards with stock. */
  poolSize: number;
  sumValueCents: number;
  minValueCents: number | null;
  maxValueCents: number | null;
}

export function slotOddsTable(slots: readonly PackSlot[], classes: ReadonlyMap<string, ClassPoolStats>): PackSlotOdds[] {
  return slots.map((s, slot) => {
    const totalWeight = s.odds.reduce((a, e) => a + e.weight, 0);
    return {
      slot,
      totalWeight,
      odds: s.odds.map((e) => {
        const c = classes.get(e.classId);
        const poolSize = c?.poolSize ?? 0;
        return {
          classId: e.classId,
          className: c?.name ?? 'Unknown class',
          classColour: c?.colour ?? '#71717a',
          weight: e.weight,
          probability: totalWeight ? e.weight / totalWeight : 0,
          poolSize,
          meanValueCents: poolSize ? Math.round((c?.sumValueCents ?? 0) / poolSize) : 0,
          minValueCents: c?.minValueCents ?? null,
          maxValueCents: c?.maxValueCents ?? null,
        };
      }),
    };
  });
}

export function soldOutReasons(slots: readonly PackSlot[], classes: ReadonlyMap<string, ClassPoolStats>): SoldOutReason[] {
  if (slots.length === 0) return [{ code: 'no_slots', message: 'This pack has no card slots yet.' }];
  const reasons: SoldOutReason[] = [];
  const seen = new Set<string>();
  slots.forEach((s, slot) => {
    for (const e of s.odds) {
      const c = classes.get(e.classId);
      if ((c?.poolSize ?? 0) > 0 || seen.has(e.classId)) continue;
      seen.add(e.classId);
      reasons.push({
        code: 'class_out_of_stock',
        classId: e.classId,
        slot,
        message: `No ${c?.name ?? 'cards of a removed class'} cards are in stock (slot ${slot + 1}).`,
      });
    }
  });
  return reasons;
}

export function packStats(
  slots: readonly PackSlot[],
  classes: ReadonlyMap<string, ClassPoolStats>,
  priceCents: number | null,
): PackStats {
  let floor = 0;
  let ev = 0;
  let ceiling = 0;
  for (const s of slots) {
    const total = s.odds.reduce((a, e) => a + e.weight, 0);
    let slotMin = Infinity;
    let slotMax = 0;
    for (const e of s.odds) {
      const c = classes.get(e.classId);
      if (!c || c.poolSize === 0) continue;
      ev += (e.weight / total) * (c.sumValueCents / c.poolSize);
      slotMin = Math.min(slotMin, c.minValueCents ?? 0);
      slotMax = Math.max(slotMax, c.maxValueCents ?? 0);
    }
    floor += slotMin === Infinity ? 0 : slotMin;
    ceiling += slotMax;
  }
  const reasons = soldOutReasons(slots, classes);
  const expectedValueCents = Math.round(ev);
  return {
    cardsPerPack: slots.length,
    floorCents: floor,
    expectedValueCents,
    ceilingCents: ceiling,
    houseEdgeBp: priceCents ? Math.round(((priceCents - ev) / priceCents) * 10_000) : null,
    soldOut: reasons.length > 0,
    soldOutReasons: reasons,
  };
}

/** Classes mentioned anywhere in the odds, sorted (the pool snapshot covers exactly these). */
export function classesOf(slots: readonly PackSlot[]): string[] {
  return [...new Set(slots.flatMap((s) => s.odds.map((e) => e.classId)))].sort();
}
