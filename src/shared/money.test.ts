import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bpsToPercentText, formatMoney, groupThousands, percentToBps } from './money';

const intl = (cents: number, currency: string) => new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100);

describe('formatMoney', () => {
  it('writes the hand-formatted currencies exactly as Intl does', () => {
    for (const currency of ['USD', 'EUR', 'GBP', 'CAD', 'AUD']) {
      fc.assert(
        fc.property(// Up to ten billion either way: beyond that Intl, which formats cents / 100 as a float, drops the last cent.
          fc.oneof(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.integer({ min: -1e12, max: 1e12 })), (cents) => {
          expect(formatMoney(cents, currency)).toBe(intl(cents, currency));
        }),
        { numRuns: 500 },
      );
    }
  });

  it('covers the edges: zero, one cent, whole thousands, negatives', () => {
    for (const cents of [0, 1, -1, 9, 10, 99, 100, 101, 99_999, 100_000, 123_456_789, -100_000, -5]) {
      expect(formatMoney(cents)).toBe(intl(cents, 'USD'));
    }
    expect(formatMoney(123_456)).toBe('$1,234.56');
    expect(formatMoney(-5)).toBe('-$0.05');
  });

  it('leaves other currencies and locales to Intl', () => {
    expect(formatMoney(150_000, 'JPY')).toBe(intl(150_000, 'JPY'));
    expect(formatMoney(150_050, 'CHF')).toBe(intl(150_050, 'CHF'));
    expect(formatMoney(150_050, 'EUR', 'de-DE')).toBe(new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(1500.5));
  });

  it('refuses fractions of a cent', () => {
    expect(() => formatMoney(1.5)).toThrow(RangeError);
  });
});

describe('groupThousands', () => {
  it('groups as en-US does', () => {
    fc.assert(fc.property(fc.maxSafeNat(), (n) => {
        expect(groupThousands(n)).toBe(n.toLocaleString('en-US'));
      }), { numRuns: 500 });
    fc.assert(fc.property(fc.nat(1_000_000), (n) => {
        expect(groupThousands(n)).toBe(n.toLocaleString('en-US'));
      }), { numRuns: 500 });
  });
});

describe('percentToBps: the one parser of a typed percentage', () => {
  it('reads digits exactly, with a point or a comma and an optional %', () => {
    expect(percentToBps('87.5')).toBe(8750);
    expect(percentToBps(' 12,5 % ')).toBe(1250);
    expect(percentToBps('0.29')).toBe(29);
    expect(percentToBps('100')).toBe(10_000);
    for (const bad of ['', '1.234', '-5', 'abc', '1e2', '1000']) expect(percentToBps(bad), bad).toBeNull();
  });

  it('round-trips every basis-point value through its text', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 99_999 }), (bps) => percentToBps(bpsToPercentText(bps)) === bps));
  });
});
