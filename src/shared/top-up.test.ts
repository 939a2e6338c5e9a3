import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSafeReturnPath, returnPathSchema } from './contracts/wallet.ts';
import { pendingPurchaseQuantity, productReturnPath, topUpCents } from './top-up.ts';

describe('topUpCents', () => {
  const limits = fc
    .tuple(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 0, max: 1_000_000 }))
    .map(([minCents, extra]) => ({ minCents, maxCents: minCents + extra }));

  it('covers the shortfall, respects the minimum, and is the smallest such deposit', () => {
    fc.assert(
      fc.property(limits, fc.integer({ min: 1, max: 2_000_000 }), (l, shortfall) => {
        const d = topUpCents(shortfall, l);
        if (Math.max(shortfall, l.minCents) > l.maxCents) return d === null;
        expect(d).not.toBeNull();
        expect(d!).toBeGreaterThanOrEqual(shortfall);
        expect(d!).toBeGreaterThanOrEqual(l.minCents);
        expect(d!).toBeLessThanOrEqual(l.maxCents);
        expect(Number.isInteger(d)).toBe(true);
        // Minimal: one cent less would miss the shortfall or fall below the minimum.
        expect(d! - 1 < shortfall || d! - 1 < l.minCents).toBe(true);
        return true;
      }),
    );
  });

  it('offers nothing when nothing is short', () => {
    expect(topUpCents(0, { minCents: 500, maxCents: 1000 })).toBeNull();
    expect(topUpCents(-5, { minCents: 500, maxCents: 1000 })).toBeNull();
    expect(topUpCents(320, { minCents: 500, maxCents: 1000 })).toBe(500);
    expect(topUpCents(720, { minCents: 500, maxCents: 1000 })).toBe(720);
    expect(topUpCents(1001, { minCents: 500, maxCents: 1000 })).toBeNull();
  });
});

describe('return paths', () => {
  it('accepts paths of this site', () => {
    for (const p of ['/shop/0b7f7f2e-1a2b-4c3d-8e9f-001122334455?buy=2', '/profile/billing', '/', '/open-pack#x', '/%2F/still-here' /* an encoded slash stays a path segment */]) {
      expect(isSafeReturnPath(p), p).toBe(true);
      expect(returnPathSchema.safeParse(p).success).toBe(true);
    }
    expect(isSafeReturnPath(productReturnPath('abc', 3))).toBe(true);
  });

  it('refuses other origins and malformed paths', () => {
    for (const p of [
      'https://evil.example/x',
      '//evil.example/x',
      '/\\evil.example',
      '\\\\evil.example',
      'javascript:alert(1)',
      'shop/x',
      '',
      '/shop/x\n',
      '/ shop',
      '/a/../b',
      '/api/wallet/balance',
      `/${'a'.repeat(600)}`,
    ]) {
      expect(isSafeReturnPath(p), JSON.stringify(p)).toBe(false);
      expect(returnPathSchema.safeParse(p).success).toBe(false);
    }
  });

  it('never lets any string resolve to another origin', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (s) => {
        if (!isSafeReturnPath(s)) return true;
        return new URL(s, 'https://packvault.example').origin === 'https://packvault.example';
      }),
    );
  });

  it('reads the pending quantity back from the product page search', () => {
    expect(pendingPurchaseQuantity({ buy: '3' })).toBe(3);
    expect(pendingPurchaseQuantity({ buy: 2 })).toBe(2);
    for (const buy of ['0', '11', '1.5', 'x', undefined, null, '-1']) expect(pendingPurchaseQuantity({ buy })).toBeNull();
  });
});
