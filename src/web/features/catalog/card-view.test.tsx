import { cleanup, fireEvent, render } from '@testing-library/react';
import { Profiler } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { classCode, classTier, DEFAULT_LAYOUT, lookFromRefs, type CardLook } from '@shared/contracts/catalog-look';
import { CardView } from './card-view';

const look: CardLook = {
  name: 'Comet Warden',
  imageKey: 'a'.repeat(64),
  valueCents: 12345,
  className: 'Legendary',
  classColour: '#f59e0b',
  frameImageKey: 'b'.repeat(64),
  layout: { ...DEFAULT_LAYOUT, value: { ...DEFAULT_LAYOUT.value, x: 10, y: 90, w: 80, size: 7, align: 'center' } },
  texture: { imageKey: 'c'.repeat(64), blendMode: 'color-dodge', opacity: 60 },
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('CardView', () => {
  it('keeps its drawn frame under a frame image, and shows it when the image fails (issue 41)', () => {
    const { container } = render(<CardView look={look} size="sm" />);
    const frame = container.querySelector<HTMLImageElement>('.pv-card__frame')!;
    // The drawn frame follows the image (CSS hides it while the image stands).
    expect(frame.nextElementSibling?.className).toBe('pv-card__fallback-frame');
    expect(frame.dataset.failed).toBeUndefined();
    fireEvent.error(frame);
    expect(frame.dataset.failed).toBe('true');
    const art = container.querySelector<HTMLImageElement>('.pv-card__art img')!;
    fireEvent.error(art);
    expect(art.dataset.failed).toBe('true');
    // Name and class still say which card it is.
    expect(container.querySelector('.pv-card__name')!.textContent).toBe('Comet Warden');
  });

  it('draws artwork, frame, foil and texts where the architect says, with an accessible name', () => {
    const { getByRole, container } = render(<CardView look={look} size="lg" />);
    const card = getByRole('img', { name: 'Comet Warden, Legendary, worth $123.45' });
    expect(card.style.getPropertyValue('--glow')).toBe('#f59e0b');
    const art = container.querySelector<HTMLImageElement>('.pv-card__art img')!;
    expect(art.getAttribute('src')).toBe(`/api/uploads/${'a'.repeat(64)}-full.webp`);
    expect(art.getAttribute('loading')).toBe('lazy');
    expect(container.querySelector('.pv-card__frame')!.getAttribute('src')).toContain('b'.repeat(64));
    const holo = container.querySelector<HTMLElement>('.pv-card__holo')!;
    expect(holo.style.mixBlendMode).toBe('color-dodge');
    const value = container.querySelector<HTMLElement>('.pv-card__value')!;
    expect(value.textContent).toBe('$123.45');
    expect(value.style.left).toBe('10%');
    expect(value.style.top).toBe('90%');
    expect(value.style.fontSize).toBe('7cqw');
    expect(value.style.textAlign).toBe('center');
  });

  it('uses the thumbnail variant for small sizes and hides text on the tiniest', () => {
    const { container } = render(<CardView look={look} size="xs" />);
    expect(container.querySelector('.pv-card__art img')!.getAttribute('src')).toContain('-thumb.webp');
    expect(container.querySelector('.pv-card__name')).toBeNull();
  });

  it('follows the pointer through CSS properties without re-rendering React', () => {
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    vi.stubGlobal('cancelAnimationFrame', () => {});
    const flush = () => frames.splice(0).forEach((cb) => cb(0));
    // Every commit of the card's tree counts, so any re-render shows.
    let renders = 0;
    const { getByRole } = render(
      <Profiler id="card" onRender={() => renders++}>
        <CardView look={look} size="md" />
      </Profiler>,
    );
    const card = getByRole('img');
    card.getBoundingClientRect = () => ({ left: 0, top: 0, width: 200, height: 280, right: 200, bottom: 280, x: 0, y: 0, toJSON: () => ({}) });
    const before = renders;
    fireEvent.pointerEnter(card, { clientX: 150, clientY: 70 });
    fireEvent.pointerMove(card, { clientX: 200, clientY: 0 });
    // Many moves within one frame are applied once, on the frame.
    expect(frames).toHaveLength(1);
    flush();
    expect(card.dataset.active).toBe('true');
    expect(card.style.getPropertyValue('--mx')).toBe('100.0%');
    expect(card.style.getPropertyValue('--my')).toBe('0.0%');
    expect(card.style.getPropertyValue('--rx')).toBe('12.00deg');
    expect(card.style.getPropertyValue('--hover')).toBe('1');
    fireEvent.pointerLeave(card);
    expect(card.style.getPropertyValue('--rx')).toBe('0deg');
    expect(before).toBeGreaterThan(0);
    expect(renders).toBe(before);
  });

  it('stays still for reduced-motion users', () => {
    vi.stubGlobal('matchMedia', (q: string) => ({ matches: q.includes('reduce'), media: q, addEventListener() {}, removeEventListener() {} }));
    const { getByRole } = render(<CardView look={look} size="md" />);
    const card = getByRole('img');
    fireEvent.pointerEnter(card, { clientX: 10, clientY: 10 });
    expect(card.style.getPropertyValue('--hover')).toBe('');
  });
});

describe('class markers (issue 19: not colour alone)', () => {
  const markers = (l: CardLook) => {
    const { container } = render(<CardView look={l} size="md" />);
    const tier = container.querySelector<HTMLElement>('.pv-card__tier')!;
    const out = {
      tier: tier.dataset.tier,
      code: tier.querySelector<HTMLElement>('.pv-card__badge')!.dataset.code,
      pips: tier.querySelectorAll('.pv-card__pips > i').length,
      frame: container.querySelector<HTMLElement>('.pv-card')!.dataset.tier,
    };
    cleanup();
    return out;
  };

  it('gives two classes in the same colour different codes, tiers, pips and frames', () => {
    const gold = '#f59e0b';
    const common = markers({ ...look, className: 'Common', classColour: gold, classTier: classTier(10) });
    const legendary = markers({ ...look, className: 'Legendary', classColour: gold, classTier: classTier(50) });
    expect(common).toEqual({ tier: '1', code: 'CO', pips: 1, frame: '1' });
    expect(legendary).toEqual({ tier: '5', code: 'LE', pips: 5, frame: '5' });
  });

  it('derives the tier from the class order and a short code from its name', () => {
    expect([0, 1, 2, 5, 10, 20, 30, 40, 50, 90, 10_000].map(classTier)).toEqual([1, 1, 2, 5, 1, 2, 3, 4, 5, 5, 5]);
    expect(classCode('Ultra Rare')).toBe('UR');
    expect(classCode('rare')).toBe('RA');
    const refs = { classes: [{ id: 'c', name: 'Epic', colour: '#a855f7', sortOrder: 40 }], architects: [], textures: [] };
    expect(lookFromRefs({ id: 'x', name: 'X', classId: 'c', architectId: 'a', textureId: null, imageKey: null, valueCents: 1 } as never, refs as never).classTier).toBe(4);
  });
});
