import { MAX_PURCHASE_QUANTITY } from './shop-limits.ts';

/**
 * "Top up the difference": the deposit that covers a shortfall. The smallest amount the deposit
 * limits allow that is at least the shortfall (so the purchase goes through) — the shortfall
 * itself, raised to the minimum deposit. Null when nothing is short, or when one deposit cannot
 * cover it (the shortfall is above the maximum deposit).
 */
export function topUpCents(shortfallCents: number, limits: { minCents: number; maxCents: number }): number | null {
  if (!Number.isFinite(shortfallCents) || shortfallCents <= 0) return null;
  const amount = Math.max(Math.ceil(shortfallCents), limits.minCents);
  return amount > limits.maxCents ? null : amount;
}

/**
 * The purchase waiting on a top-up, as the return path carries it back to the product page:
 * `/shop/<id>?buy=<quantity>`. Parsed leniently (a hand-edited URL just offers nothing).
 */
export function pendingPurchaseQuantity(search: { buy?: unknown }): number | null {
  const raw = typeof search.buy === 'number' ? String(search.buy) : search.buy;
  if (typeof raw !== 'string' || !/^\d{1,2}$/.test(raw)) return null;
  const q = Number(raw);
  return q >= 1 && q <= MAX_PURCHASE_QUANTITY ? q : null;
}

export function productReturnPath(productId: string, quantity: number): string {
  return `/shop/${encodeURIComponent(productId)}?buy=${quantity}`;
}
