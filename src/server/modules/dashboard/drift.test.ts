import { describe, expect, it } from 'vitest';
import type { PackSlot } from '../../../shared/contracts/shop.ts';
import { packStats, type ClassPoolStats } from '../shop/odds.ts';
import { driftOf, packMoments, type ClassMoments } from './drift.ts';

/** A pack of 3 slots: Common (values 50, 100, 150) at 95, Rare (2,000 and 4,000) at 5. */
const SLOTS: PackSlot[] = Array.from({ length: 3 }, () => ({ odds: [{ classId: 'c', weight: 95 }, { classId: 'r', weight: 5 }] }));
const POOL: Record<string, number[]> = { c: [50, 100, 150], r: [2000, 4000] };
const moments = new Map<string, ClassMoments>(
  Object.entries(POOL).map(([k, v]) => [k, { n: v.length, sum: v.reduce((a, x) => a + x, 0), sumSq: v.reduce((a, x) => a + x * x, 0) }]),
);
const PRICE = 500;

/** A seeded generator (mulberry32), so each seed is a reproducible run. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Opens `n` packs by the odds (rigged: every slot draws from the rare class). */
function openings(n: number, seed: number, rigged = false): number {
  const r = rng(seed);
  let total = 0;
  for (let i = 0; i < n; i++) {
    for (const s of SLOTS) {
      const w = s.odds.reduce((a, e) => a + e.weight, 0);
      let x = r() * w;
      const e = rigged ? s.odds[1]! : s.odds.find((o) => (x -= o.weight) < 0) ?? s.odds.at(-1)!;
      const pool = POOL[e.classId]!;
      total += pool[Math.floor(r() * pool.length)]!;
    }
  }
  return total;
}

describe('expected return and drift', () => {
  it('has the same mean as the odds page (packStats)', () => {
    const stats = new Map<string, ClassPoolStats>(
      Object.entries(POOL).map(([k, v]) => [k, { classId: k, name: k, colour: '#000', poolSize: v.length, sumValueCents: v.reduce((a, x) => a + x, 0), minValueCents: Math.min(...v), maxValueCents: Math.max(...v) }]),
    );
    const m = packMoments(SLOTS, moments);
    expect(Math.round(m.mean)).toBe(packStats(SLOTS, stats, PRICE).expectedValueCents);
    // Per slot: E = 0.95·100 + 0.05·3000 = 245; E[X²] = 0.95·(35000/3) + 0.05·10,000,000 = 511,083.3.
    expect(m.mean).toBeCloseTo(735, 6);
    expect(m.variance).toBeCloseTo(3 * (0.95 * (35_000 / 3) + 0.05 * 10_000_000 - 245 * 245), 4);
  });

  it('stays quiet on a fair product across seeds', () => {
    const m = packMoments(SLOTS, moments);
    for (let seed = 1; seed <= 200; seed++) {
      const n = 30 + (seed % 7) * 50;
      const d = driftOf({ opens: n, pulledValueCents: openings(n, seed), salesCents: n * PRICE, priceCents: PRICE, moments: m });
      expect(d.drift, `seed ${seed}, z ${d.zScore}`).toBeNull();
    }
  });

  it('fires on a rigged product (every pull top-class), and not below the minimum of openings', () => {
    const m = packMoments(SLOTS, moments);
    for (let seed = 1; seed <= 20; seed++) {
      const d = driftOf({ opens: 40, pulledValueCents: openings(40, seed, true), salesCents: 40 * PRICE, priceCents: PRICE, moments: m });
      expect(d.drift).toBe('high');
      expect(d.zScore!).toBeGreaterThan(3.5);
      expect(d.realisedRtpBps!).toBeGreaterThan(d.expectedRtpBps!);
    }
    const few = driftOf({ opens: 5, pulledValueCents: openings(5, 1, true), salesCents: 5 * PRICE, priceCents: PRICE, moments: m });
    expect(few.drift).toBeNull();
    expect(few.zScore!).toBeGreaterThan(3.5);
    // Starved: nothing but the cheapest card.
    const low = driftOf({ opens: 100, pulledValueCents: 100 * 3 * 50, salesCents: 100 * PRICE, priceCents: PRICE, moments: m });
    expect(low.drift).toBe('low');
  });

  it('has no figures without openings', () => {
    expect(driftOf({ opens: 0, pulledValueCents: 0, salesCents: 0, priceCents: PRICE, moments: packMoments(SLOTS, moments) })).toMatchObject({ realisedRtpBps: null, zScore: null, drift: null });
  });
});
