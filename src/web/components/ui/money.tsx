import { createContext, useContext } from 'react';
import { assertCents, type Cents } from '@shared/money';
import { cn } from './cn';

const formats = new Map<string, Intl.NumberFormat>();

/**
 * formatMoney (src/shared/money.ts), with one Intl.NumberFormat per currency instead of one per
 * call: building a formatter is slow, and a grid of cards formats dozens of prices in one render.
 */
export function formatCents(cents: Cents, currency = 'USD'): string {
  assertCents(cents);
  let format = formats.get(currency);
  if (!format) formats.set(currency, (format = new Intl.NumberFormat('en-US', { style: 'currency', currency })));
  return format.format(cents / 100);
}

/** The shop currency (from /api/config), provided once by the root layout. */
export const CurrencyContext = createContext('USD');

export function useCurrency() {
  return useContext(CurrencyContext);
}

export interface MoneyProps {
  cents: Cents;
  currency?: string;
  className?: string;
  /** Show a + for positive amounts (ledger lines). */
  signed?: boolean;
}

/** An amount of integer cents, formatted in the shop currency. */
export function Money({ cents, currency, className, signed }: MoneyProps) {
  const ctx = useCurrency();
  const text = formatCents(cents, currency ?? ctx);
  return <span className={cn('tabular-nums', className)}>{signed && cents > 0 ? `+${text}` : text}</span>;
}
