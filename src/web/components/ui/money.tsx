import { createContext, useContext } from 'react';
import { formatMoney, type Cents } from '@shared/money';
import { cn } from './cn';

/** Kept as the kit's name for formatMoney (which caches one formatter per currency). */
export function formatCents(cents: Cents, currency = 'USD'): string {
  return formatMoney(cents, currency);
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
