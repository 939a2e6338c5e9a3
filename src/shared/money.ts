/** Money is always an integer number of cents. These helpers are the only place it is formatted. */

export type Cents = number;

export function assertCents(value: number): Cents {
  if (!Number.isSafeInteger(value)) throw new RangeError(`Money must be whole cents, got ${value}`);
  return value;
}

/** One formatter per locale and currency: building one costs far more than formatting (a page of 48 cards formats ~100 prices). */
const formats = new Map<string, Intl.NumberFormat>();

/**
 * en-US symbols of the common two-decimal currencies. In a browser the first Intl formatter of a
 * page loads ICU's data: 90–170 ms of main thread on a phone (4× slowdown, measured in Chromium),
 * on every page that shows a price. These currencies are written by hand instead, to exactly what
 * Intl writes (money.test.ts compares the two over random amounts); others still go through Intl.
 */
const EN_US_SYMBOLS: Readonly<Record<string, string>> = { USD: '$', EUR: '€', GBP: '£', CAD: 'CA$', AUD: 'A$' };

/** A non-negative whole number with en-US grouping: 1234567 → "1,234,567". */
export function groupThousands(n: number): string {
  const digits = String(n);
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ',';
    out += digits[i];
  }
  return out;
}

export function formatMoney(cents: Cents, currency = 'USD', locale = 'en-US'): string {
  assertCents(cents);
  const symbol = locale === 'en-US' ? EN_US_SYMBOLS[currency] : undefined;
  if (symbol !== undefined) {
    const abs = Math.abs(cents);
    const frac = abs % 100;
    return `${cents < 0 ? '-' : ''}${symbol}${groupThousands((abs - frac) / 100)}.${frac < 10 ? '0' : ''}${frac}`;
  }
  const key = `${locale}|${currency}`;
  let format = formats.get(key);
  if (!format) formats.set(key, (format = new Intl.NumberFormat(locale, { style: 'currency', currency })));
  return format.format(cents / 100);
}

/** Parses a user-typed amount ("12", "12.5", "12.50", "$1,000") into cents, or null. */
export function parseMoney(input: string): Cents | null {
  const s = input.replace(/[\s,$]/g, '');
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) return null;
  const whole = Number(m[1]);
  const frac = m[2] ? Number(m[2].padEnd(2, '0')) : 0;
  return whole * 100 + frac;
}

/** A user-typed percent ("2.5", "20%") into basis points (250, 2000): at most 3 whole digits and 2 decimals; else null. */
export function percentToBps(text: string): number | null {
  // Digit by digit, not through a float: "87.5" is 8750 however it would round. A comma is a
  // decimal point too ("12,5"), as many keyboards type it.
  const m = /^\s*(\d{1,3})(?:[.,](\d{1,2}))?\s*%?\s*$/.exec(text);
  if (!m) return null;
  return Number(m[1]) * 100 + (m[2] ? Number(m[2].padEnd(2, '0')) : 0);
}

/** Basis points as a plain percent for an input: 250 → "2.5", 8500 → "85". */
export function bpsToPercentText(bps: number): string {
  return String(Number((bps / 100).toFixed(2)));
}

/** rate in basis points (8500 = 85%) applied to cents, rounded down so we never over-credit. */
export function applyBasisPoints(cents: Cents, basisPoints: number): Cents {
  return Math.floor((assertCents(cents) * basisPoints) / 10_000);
}

/** Cents as a plain decimal for files (CSV): "-12.05", no symbol, no grouping. */
export function centsToDecimal(cents: Cents): string {
  assertCents(cents);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
