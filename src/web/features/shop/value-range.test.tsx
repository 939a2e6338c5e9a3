import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LABEL_EDGE_PCT, MARKERS, ValueRange, valueRangeLayout } from './value-range';

afterEach(cleanup);

/** Issue 19: the price label sits under the price tick, and the tick is never hidden by the EV dot. */
describe('ValueRange', () => {
  const range = { floorCents: 100, expectedValueCents: 400, ceilingCents: 10_000 };

  it('puts the price label under the price tick, hanging inwards near the ends', () => {
    const mid = valueRangeLayout({ ...range, priceCents: 2_600 });
    expect(mid.pricePct).toBeCloseTo(50, 0);
    expect(mid.priceAnchor).toBe('center');
    expect(valueRangeLayout({ ...range, priceCents: 101 }).priceAnchor).toBe('start');
    expect(valueRangeLayout({ ...range, priceCents: 9_900 }).priceAnchor).toBe('end');
    for (const priceCents of [50, 100, 150, 400, 1_000, 5_000, 9_999, 20_000]) {
      const l = valueRangeLayout({ ...range, priceCents });
      expect(l.pricePct).toBeGreaterThanOrEqual(0);
      expect(l.pricePct).toBeLessThanOrEqual(100);
      // A label centred on a tick this close to an end would hang off the bar.
      if (l.pricePct! < LABEL_EDGE_PCT) expect(l.priceAnchor).toBe('start');
      if (l.pricePct! > 100 - LABEL_EDGE_PCT) expect(l.priceAnchor).toBe('end');
    }
  });

  it('draws the tick over the EV dot and taller than it, and the label at the tick', () => {
    expect(MARKERS.tick.z).toBeGreaterThan(MARKERS.dot.z);
    expect(MARKERS.tick.heightPx).toBeGreaterThan(MARKERS.dot.sizePx);
    // Price right on the expected value: the worst case for hiding the tick.
    const { container } = render(<ValueRange {...range} priceCents={400} />);
    const dot = container.querySelector<HTMLElement>('[data-marker="ev"]')!;
    const tick = container.querySelector<HTMLElement>('[data-marker="price"]')!;
    const label = container.querySelector<HTMLElement>('[data-label="price"]')!;
    expect(tick.style.left).toBe(dot.style.left);
    expect(Number(tick.style.zIndex)).toBeGreaterThan(Number(dot.style.zIndex));
    expect(label.style.left).toBe(tick.style.left);
    expect(label.style.transform).toBe('translateX(-50%)');
    expect(label.textContent).toMatch(/price \$4\.00/);
    // The end labels are on their own row, so the price label never overlaps them.
    expect(label.closest('p')!.textContent).not.toMatch(/possible pack/);
  });

  it('has no price marker or label without a price', () => {
    const { container } = render(<ValueRange {...range} />);
    expect(container.querySelector('[data-marker="price"]')).toBeNull();
    expect(container.querySelector('[data-label="price"]')).toBeNull();
  });
});
