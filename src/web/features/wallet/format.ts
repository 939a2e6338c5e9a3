import type { DepositStatus, LedgerEntry } from '@shared/contracts/wallet';
import type { BadgeTone } from '@web/components/ui';

export const DEPOSIT_STATUS_LABEL: Record<DepositStatus, string> = {
  pending: 'Pending',
  succeeded: 'Paid',
  failed: 'Failed',
  refunded: 'Refunded',
};

export const DEPOSIT_STATUS_TONE: Record<DepositStatus, BadgeTone> = {
  pending: 'warning',
  succeeded: 'success',
  failed: 'danger',
  refunded: 'info',
};

/** A short receipt number derived from the deposit id (what support asks for). */
export function receiptNumber(depositId: string): string {
  return `PV-${depositId.replace(/-/g, '').slice(0, 10).toUpperCase()}`;
}

export interface ReferenceTarget {
  label: string;
  /** A route path of the app, with an optional search, or null when there is no page for it. */
  to: string | null;
  search?: Record<string, string>;
}

/**
 * Where a ledger entry's reference leads. Deposits open their receipt; other domains (openings,
 * shipments) link to the page that lists them.
 */
export function referenceLink(entry: Pick<LedgerEntry, 'referenceType' | 'referenceId'>): ReferenceTarget | null {
  const { referenceType: type, referenceId: id } = entry;
  if (!type) return null;
  switch (type) {
    case 'deposit':
      return id
        ? { label: `Deposit ${receiptNumber(id)}`, to: '/profile/billing', search: { deposit: id } }
        : { label: 'Deposit', to: '/profile/billing' };
    case 'promo_redemption':
      return { label: 'Promo code', to: '/profile/billing' };
    case 'opening':
      return { label: 'Pack opening', to: '/collect' };
    case 'buyback':
    case 'owned_card':
      return { label: 'Card sold back', to: '/collect' };
    case 'shipment':
      return { label: 'Shipment', to: '/profile/shipping' };
    case 'referral':
      return { label: 'Referral', to: '/profile/referral' };
    case 'admin_action':
      return { label: 'Support adjustment', to: null };
    default:
      return { label: type.replace(/_/g, ' '), to: null };
  }
}
