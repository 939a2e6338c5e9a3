import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_LAYOUT, type CardLook } from '@shared/contracts/catalog-look';
import type { RevealCard, RevealPack } from './build-up';
import { resetImageStates } from './images';
import { IMAGE_WAIT_MS, PackOpening } from './pack-opening';

/**
 * The reveal's stage states (issue 41): a card turns only once its images are decoded, or without
 * them (frame, name, rarity) when they fail or are slow; tap-to-flip waits for the tap, auto-play
 * does not; "Reveal all" turns every card; reduced motion gets still frames.
 */

/** new Image() as the browser does it, loaded or failed when the test says so. */
class FakeImage {
  static made: FakeImage[] = [];
  static autoLoad = false;
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  decoding = 'auto';
  private url = '';
  get src() {
    return this.url;
  }
  set src(v: string) {
    this.url = v;
    FakeImage.made.push(this);
    if (FakeImage.autoLoad) queueMicrotask(() => this.onload?.());
  }
  decode() {
    return Promise.resolve();
  }
}

const settleImages = async (how: 'load' | 'fail', match = '') => {
  await act(async () => {
    for (const img of FakeImage.made.filter((i) => i.src.includes(match))) (how === 'load' ? img.onload : img.onerror)?.();
    await Promise.resolve();
  });
};

let media: Record<string, boolean> = {};
function stubMedia(m: Record<string, boolean>) {
  media = m;
  vi.stubGlobal('matchMedia', (q: string) => ({ matches: Boolean(media[q]), media: q, addEventListener() {}, removeEventListener() {} }));
}
const REDUCE = '(prefers-reduced-motion: reduce)';
const COARSE = '(pointer: coarse)';

let seq = 0;
function look(name: string, className: string, art = true): CardLook {
  seq++;
  return {
    name,
    // Fresh keys per card: loaded images are remembered for the visit.
    imageKey: art ? seq.toString(16).padStart(64, 'a') : null,
    valueCents: 100 * seq,
    className,
    classColour: '#a78bfa',
    frameImageKey: seq.toString(16).padStart(64, 'f'),
    layout: DEFAULT_LAYOUT,
    texture: null,
  };
}
const card = (name: string, tier: number, className = tier >= 0.95 ? 'Legendary' : 'Common'): RevealCard => ({
  key: `owned-${name}`,
  look: look(name, className),
  tier,
  slot: 0,
});
function pack(cards: RevealCard[]): RevealPack {
  return { key: `opening-${seq}`, productId: 'p1', productName: 'Starter Pack', imageKey: null, priceCents: 500, cards };
}

/** The stage's drawn card (the shop's fallback renderer: art image, name, class). */
const stage = () => screen.getByTestId('reveal-stage');
const status = () => screen.getAllByRole('status').map((s) => s.textContent).join(' ');
/** Time passes in steps, so each moment's timer (set after a render) gets its turn. */
const tick = async (ms: number, step = 100) => {
  for (let t = 0; t <= ms; t += step) {
    await act(async () => {
      vi.advanceTimersByTime(Math.min(step, ms - t));
      await Promise.resolve();
    });
  }
};

beforeEach(() => {
  vi.useFakeTimers();
  FakeImage.made = [];
  FakeImage.autoLoad = false;
  vi.stubGlobal('Image', FakeImage);
  localStorage.clear();
  resetImageStates();
  // jsdom has no layout: the reveal scrolls itself into view on mount.
  Element.prototype.scrollIntoView = () => {};
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('PackOpening: images', () => {
  beforeEach(() => {
    stubMedia({ [REDUCE]: true });
    localStorage.setItem('packvault:reveal', JSON.stringify({ pace: 'fast', sound: false, mode: 'auto' }));
  });

  it('waits for a slow card to decode before it turns, then shows its art', async () => {
    render(<PackOpening packs={[pack([card('Ember Drake', 0), card('Tide Sprite', 0)])]} />);
    // Still frames: the first card is shown on the first step.
    fireEvent.click(screen.getByRole('button', { name: 'Tear it open' }));
    // Reduced motion turns at once, but an image not decoded is never drawn: no art, a frame, the name.
    expect(status()).toContain('Card 1 of 2: Ember Drake, Common.');
    expect(stage().querySelector('img')).toBeNull();
    expect(stage().textContent).toContain('Ember Drake');
    expect(stage().textContent).toContain('Common');
    await settleImages('load');
    expect(stage().querySelector('img')?.getAttribute('src')).toContain('/api/uploads/');
  });

  it('turns a card whose images fail with its frame, name and rarity, never blank', async () => {
    render(<PackOpening packs={[pack([card('Ash Golem', 0)])]} />);
    await settleImages('fail');
    fireEvent.click(screen.getByRole('button', { name: 'Tear it open' }));
    expect(status()).toContain('Card 1 of 1: Ash Golem, Common.');
    expect(stage().querySelector('img')).toBeNull();
    const drawn = stage().querySelector('.aspect-\\[5\\/7\\]') as HTMLElement;
    expect(drawn.style.borderColor).not.toBe('');
    expect(drawn.textContent).toContain('Ash Golem');
    expect(drawn.textContent).toContain('Common');
  });
});

describe('PackOpening: build-up waits for the art (with motion)', () => {
  beforeEach(() => {
    stubMedia({});
    localStorage.setItem('packvault:reveal', JSON.stringify({ pace: 'fast', sound: false, mode: 'auto' }));
  });

  it('holds the build-up while the art loads, and turns as soon as it is decoded', async () => {
    render(<PackOpening packs={[pack([card('Moss Knight', 0)])]} autoStart />);
    await tick(2_000);
    expect(screen.getByRole('button', { name: 'Reveal now' })).toBeTruthy();
    expect(status()).not.toContain('Card 1 of 1:');
    await settleImages('load');
    await tick(0);
    expect(status()).toContain('Card 1 of 1: Moss Knight, Common.');
  });

  it('turns a card whose art never arrives after a bounded wait, drawn without it', async () => {
    render(<PackOpening packs={[pack([card('Slow Owl', 0)])]} autoStart />);
    await tick(500 + IMAGE_WAIT_MS);
    expect(status()).toContain('Card 1 of 1: Slow Owl, Common.');
    expect(stage().querySelector('img')).toBeNull();
    expect(stage().textContent).toContain('Slow Owl');
  });
});

describe('PackOpening: tap-to-flip and auto-play', () => {
  beforeEach(() => {
    FakeImage.autoLoad = true;
  });

  it('on a touch screen, waits for a tap to flip each card and to move on', async () => {
    stubMedia({ [COARSE]: true });
    render(<PackOpening packs={[pack([card('Reed Fox', 0), card('Star Whale', 1)])]} autoStart />);
    expect(screen.getByRole('radio', { name: 'Tap to flip' })).toHaveProperty('checked', true);
    await tick(5_000);
    expect(status()).toContain('Card 1 of 2 is ready to flip.');
    expect(screen.getByRole('button', { name: 'Flip the card' })).toBeTruthy();
    await tick(10_000);
    expect(status()).toContain('is ready to flip');
    fireEvent.click(stage());
    expect(status()).toContain('Card 1 of 2: Reed Fox, Common.');
    await tick(10_000);
    expect(status()).toContain('Card 1 of 2: Reed Fox');
    fireEvent.click(screen.getByRole('button', { name: 'Next card (2 of 2)' }));
    await tick(10_000);
    fireEvent.click(screen.getByRole('button', { name: 'Flip the card' }));
    // The best card last, and a rare pull stops to be celebrated and shared.
    expect(status()).toContain('Card 2 of 2: Star Whale, Legendary. A rare pull!');
    expect(screen.getByTestId('rare-pull').textContent).toContain('Legendary');
    expect(screen.getByRole('button', { name: 'Share Star Whale' })).toBeTruthy();
  });

  it('with a mouse, plays through on its own; the choice of mode is remembered', async () => {
    stubMedia({});
    render(<PackOpening packs={[pack([card('Reed Fox', 0), card('Moon Hare', 0)])]} autoStart />);
    expect(screen.getByRole('radio', { name: 'Auto-play' })).toHaveProperty('checked', true);
    // Normal pace: a Common builds up for 0.45 s and stays 1.3 s.
    await tick(1_000);
    expect(status()).toContain('Card 1 of 2:');
    await tick(1_500);
    expect(status()).toContain('Card 2 of 2:');
    fireEvent.click(screen.getByRole('radio', { name: 'Tap to flip' }));
    expect(JSON.parse(localStorage.getItem('packvault:reveal')!)).toMatchObject({ mode: 'tap' });
  });

  it('"Reveal all" turns every card of every pack at once', async () => {
    stubMedia({});
    const packs = [pack([card('Reed Fox', 0), card('Moon Hare', 0.5)]), pack([card('Sun Lion', 1)])];
    render(<PackOpening packs={packs} />);
    fireEvent.click(screen.getByRole('button', { name: 'Reveal all' }));
    const all = screen.getByRole('list', { name: 'Every card' });
    expect(within(all).getAllByRole('listitem')).toHaveLength(3);
    for (const name of ['Reed Fox', 'Moon Hare', 'Sun Lion']) expect(all.textContent).toContain(name);
    expect(status()).toContain('Every card revealed: 3 cards.');
    expect(screen.getByRole('button', { name: 'See all your cards' })).toBeTruthy();
  });
});

describe('PackOpening: reduced motion', () => {
  it('shows still frames and moves only when asked, even on a touch screen', async () => {
    stubMedia({ [REDUCE]: true, [COARSE]: true });
    FakeImage.autoLoad = true;
    render(<PackOpening packs={[pack([card('Reed Fox', 0), card('Moon Hare', 0)])]} />);
    await tick(5_000);
    expect(screen.getByRole('button', { name: 'Tear it open' })).toBeTruthy();
    expect(document.querySelector('[data-stage="tear"]')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Tear it open' }));
    expect(status()).toContain('Card 1 of 2:');
    expect(document.querySelector('[data-stage="still"]')).not.toBeNull();
    expect(document.querySelector('[data-stage="animated"]')).toBeNull();
    await tick(10_000);
    expect(status()).toContain('Card 1 of 2:');
  });
});
