import { buildUpFor, type RevealCard, type RevealPack } from './build-up';

/** How fast the reveal plays through on its own; the user picks it and it is remembered. */
export type Pace = 'slow' | 'normal' | 'fast';
export const PACES: ReadonlyArray<{ value: Pace; label: string }> = [
  { value: 'slow', label: 'Slow' },
  { value: 'normal', label: 'Normal' },
  { value: 'fast', label: 'Fast' },
];

const SCALE: Record<Pace, number> = { slow: 1.6, normal: 1, fast: 0.45 };

export interface RevealTiming {
  /** The sealed pack waits this long before it tears by itself. */
  introMs: number;
  /** The tear (or peel) animation. */
  tearMs: number;
  /** The suspense before the card turns (longer the rarer, from `buildUpFor`). */
  buildUpMs: number;
  /** How long a turned card stays before the next one comes (rarer cards linger). */
  holdMs: number;
}

/** Every duration of one card's reveal at a pace: the build-up keeps its rarity scaling. */
export function timingFor(tier: number, pace: Pace): RevealTiming {
  const k = SCALE[pace];
  const t = Math.min(1, Math.max(0, tier));
  return {
    introMs: Math.round(700 * k),
    tearMs: Math.round(900 * Math.min(1, k)),
    buildUpMs: Math.round(buildUpFor(t).ms * k),
    holdMs: Math.round((1300 + t * 1700) * k),
  };
}

/** Greater when `a` is the better pull: the rarer class first, then the higher value. */
export function compareCards(a: RevealCard, b: RevealCard): number {
  return a.tier - b.tier || a.look.valueCents - b.look.valueCents;
}

/**
 * The order the reveal plays in: within each pack the cards climb to the best one, which comes
 * last; with several packs, the pack holding the best card of all is opened last. Ties keep the
 * server's order (slot order, then the order the packs were opened in).
 */
export function revealOrder(packs: RevealPack[]): RevealPack[] {
  const sorted = packs.map((p) => ({ ...p, cards: stableSort(p.cards, compareCards) }));
  if (sorted.length < 2) return sorted;
  let best = 0;
  sorted.forEach((p, i) => {
    const top = p.cards.at(-1);
    const cur = sorted[best]!.cards.at(-1);
    if (top && (!cur || compareCards(top, cur) > 0)) best = i;
  });
  return [...sorted.slice(0, best), ...sorted.slice(best + 1), sorted[best]!];
}

function stableSort<T>(list: T[], cmp: (a: T, b: T) => number): T[] {
  return list
    .map((x, i) => [x, i] as const)
    .sort((a, b) => cmp(a[0], b[0]) || a[1] - b[1])
    .map(([x]) => x);
}

/**
 * A jagged tear across the pack, as polygon points in percent (left to right). Deterministic per
 * seed so a pack always tears the same way, and never off the art.
 */
export function tearLine(seed: string, y = 24, amp = 4, teeth = 14): Array<[number, number]> {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 16777619);
  const points: Array<[number, number]> = [];
  for (let i = 0; i <= teeth; i++) {
    h = Math.imul(h ^ (h >>> 15), 2246822507) >>> 0;
    const jitter = ((h % 1000) / 1000) * amp;
    const dy = (i % 2 ? 1 : -1) * (amp / 2 + jitter / 2);
    points.push([Math.round((i / teeth) * 1000) / 10, Math.round(Math.min(100, Math.max(0, y + dy)) * 10) / 10]);
  }
  return points;
}

/** The two clip-path polygons either side of a tear line: the strip above, the pack below. */
export function tearClips(line: Array<[number, number]>): { top: string; bottom: string } {
  const pts = line.map(([x, y]) => `${x}% ${y}%`).join(', ');
  return {
    top: `polygon(0% 0%, 100% 0%, ${[...line].reverse().map(([x, y]) => `${x}% ${y}%`).join(', ')})`,
    bottom: `polygon(${pts}, 100% 100%, 0% 100%)`,
  };
}

/** How cards turn: one tap each (the default on touch screens), or on their own. */
export type RevealMode = 'tap' | 'auto';
export const MODES: ReadonlyArray<{ value: RevealMode; label: string }> = [
  { value: 'tap', label: 'Tap to flip' },
  { value: 'auto', label: 'Auto-play' },
];

export interface RevealPrefs {
  pace: Pace;
  sound: boolean;
  mode: RevealMode;
}

const PREFS_KEY = 'packvault:reveal';
export const DEFAULT_PREFS: RevealPrefs = { pace: 'normal', sound: false, mode: 'auto' };

/**
 * The mode a visitor starts with: tap-to-flip on a touch screen (or with reduced motion, where
 * nothing should move on its own), auto-play with a mouse.
 */
export function defaultMode(): RevealMode {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return DEFAULT_PREFS.mode;
  const touch = window.matchMedia('(pointer: coarse)').matches;
  const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  return touch || still ? 'tap' : 'auto';
}

/** The remembered pace, mode and sound choice; sound stays off until the user turns it on. */
export function loadRevealPrefs(
  storage: Pick<Storage, 'getItem'> | undefined = safeStorage(),
  mode: RevealMode = defaultMode(),
): RevealPrefs {
  try {
    const raw = JSON.parse(storage?.getItem(PREFS_KEY) ?? 'null') as Partial<RevealPrefs> | null;
    return {
      pace: PACES.some((p) => p.value === raw?.pace) ? raw!.pace! : DEFAULT_PREFS.pace,
      sound: raw?.sound === true,
      mode: MODES.some((m) => m.value === raw?.mode) ? raw!.mode! : mode,
    };
  } catch {
    return { ...DEFAULT_PREFS, mode };
  }
}

export function saveRevealPrefs(prefs: RevealPrefs, storage: Pick<Storage, 'setItem'> | undefined = safeStorage()): void {
  try {
    storage?.setItem(PREFS_KEY, JSON.stringify(prefs));
  } catch {
    // Private mode or a full quota: the choice lasts for this visit only.
  }
}

/** A rare pull (Epic and up): the reveal stops to celebrate it and offers to share it. */
export function isRarePull(tier: number): boolean {
  return tier >= 0.7;
}

function safeStorage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

/** A short buzz where the device can (phones); silently nothing elsewhere. */
export function buzz(pattern: number | number[]): void {
  if (typeof navigator !== 'undefined' && typeof navigator.vibrate === 'function') {
    try {
      navigator.vibrate(pattern);
    } catch {
      // Some browsers throw without a user gesture; a missing buzz is harmless.
    }
  }
}

/** The buzz for a turned card: longer and stronger the rarer it is. */
export function buzzPattern(tier: number): number[] {
  if (tier >= 0.95) return [40, 60, 40, 60, 120];
  if (tier >= 0.7) return [30, 50, 80];
  if (tier >= 0.45) return [35];
  return [12];
}
