import { describe, expect, it } from 'vitest';
import type { RevealCard, RevealPack } from './build-up';
import { buildUpFor } from './build-up';
import { buzzPattern, loadRevealPrefs, revealOrder, saveRevealPrefs, tearClips, tearLine, timingFor } from './play';

const card = (key: string, tier: number, valueCents: number, slot = 0): RevealCard => ({
  key,
  tier,
  slot,
  look: { name: key, valueCents, className: 'C', classColour: '#fff' } as RevealCard['look'],
});
const pack = (key: string, cards: RevealCard[]): RevealPack => ({ key, productId: 'p', productName: 'P', imageKey: null, priceCents: 100, cards });

describe('timingFor', () => {
  it('scales every duration with the pace and keeps the build-up rising with rarity', () => {
    const slow = timingFor(0.5, 'slow');
    const normal = timingFor(0.5, 'normal');
    const fast = timingFor(0.5, 'fast');
    for (const k of ['introMs', 'buildUpMs', 'holdMs'] as const) {
      expect(slow[k]).toBeGreaterThan(normal[k]);
      expect(normal[k]).toBeGreaterThan(fast[k]);
    }
    expect(normal.buildUpMs).toBe(buildUpFor(0.5).ms);
    expect(timingFor(1, 'fast').buildUpMs).toBeGreaterThan(timingFor(0, 'fast').buildUpMs);
    expect(timingFor(1, 'normal').holdMs).toBeGreaterThan(timingFor(0, 'normal').holdMs);
  });

  it('never makes the tear slower than normal, and clamps odd tiers', () => {
    expect(timingFor(0, 'slow').tearMs).toBe(timingFor(0, 'normal').tearMs);
    expect(timingFor(7, 'normal')).toEqual(timingFor(1, 'normal'));
  });
});

describe('revealOrder', () => {
  it('plays each pack up to its best card, which comes last; ties keep slot order', () => {
    const [p] = revealOrder([pack('a', [card('legend', 1, 900, 0), card('c1', 0, 10, 1), card('rare', 0.5, 300, 2), card('c2', 0, 10, 3)])]);
    expect(p!.cards.map((c) => c.key)).toEqual(['c1', 'c2', 'rare', 'legend']);
  });

  it('ranks by class first, then value', () => {
    const [p] = revealOrder([pack('a', [card('epic-cheap', 0.75, 100), card('rare-dear', 0.5, 5000)])]);
    expect(p!.cards.at(-1)!.key).toBe('epic-cheap');
  });

  it('opens the pack holding the best card of all last, others in their order', () => {
    const packs = [pack('one', [card('x', 0.25, 50)]), pack('two', [card('best', 1, 10)]), pack('three', [card('y', 0.5, 80)])];
    expect(revealOrder(packs).map((p) => p.key)).toEqual(['one', 'three', 'two']);
    expect(packs.map((p) => p.key)).toEqual(['one', 'two', 'three']);
  });

  it('copes with empty input and empty packs', () => {
    expect(revealOrder([])).toEqual([]);
    expect(revealOrder([pack('e', []), pack('f', [card('z', 0, 1)])]).map((p) => p.key)).toEqual(['e', 'f']);
  });
});

describe('tearLine', () => {
  it('is the same for a seed, spans the pack left to right, and stays on the art', () => {
    const a = tearLine('opening-1');
    expect(tearLine('opening-1')).toEqual(a);
    expect(tearLine('opening-2')).not.toEqual(a);
    expect(a[0]![0]).toBe(0);
    expect(a.at(-1)![0]).toBe(100);
    for (const [, y] of a) expect(y).toBeGreaterThanOrEqual(0);
    const clips = tearClips(a);
    expect(clips.top).toMatch(/^polygon\(0% 0%, 100% 0%, 100% /);
    expect(clips.bottom).toMatch(/100% 100%, 0% 100%\)$/);
  });
});

describe('reveal preferences', () => {
  const memory = () => {
    const m = new Map<string, string>();
    return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
  };

  it('starts with sound off at normal pace, and remembers a choice', () => {
    const s = memory();
    expect(loadRevealPrefs(s, 'auto')).toEqual({ pace: 'normal', sound: false, mode: 'auto' });
    saveRevealPrefs({ pace: 'fast', sound: true, mode: 'tap' }, s);
    expect(loadRevealPrefs(s, 'auto')).toEqual({ pace: 'fast', sound: true, mode: 'tap' });
  });

  it("starts in the device's mode (tap to flip on touch) until the user picks one", () => {
    const s = memory();
    expect(loadRevealPrefs(s, 'tap').mode).toBe('tap');
    saveRevealPrefs({ pace: 'normal', sound: false, mode: 'auto' }, s);
    expect(loadRevealPrefs(s, 'tap').mode).toBe('auto');
  });

  it('ignores junk in storage', () => {
    const s = memory();
    s.setItem('packvault:reveal', '{"pace":"warp","sound":"yes","mode":"spin"}');
    expect(loadRevealPrefs(s, 'tap')).toEqual({ pace: 'normal', sound: false, mode: 'tap' });
    s.setItem('packvault:reveal', 'not json');
    expect(loadRevealPrefs(s, 'auto')).toEqual({ pace: 'normal', sound: false, mode: 'auto' });
    expect(loadRevealPrefs(undefined, 'auto')).toEqual({ pace: 'normal', sound: false, mode: 'auto' });
  });
});

describe('buzzPattern', () => {
  it('buzzes longer for rarer cards', () => {
    const total = (t: number) => buzzPattern(t).reduce((a, b) => a + b, 0);
    expect(total(1)).toBeGreaterThan(total(0.75));
    expect(total(0.75)).toBeGreaterThan(total(0.5));
    expect(total(0.5)).toBeGreaterThan(total(0));
  });
});
