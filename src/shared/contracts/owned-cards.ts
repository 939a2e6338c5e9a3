/**
 * The vault's constants and labels that need no zod. The /collect page imports these (not
 * collection.ts or shop.ts, whose schemas pull zod's 25 KB into a page that has no form until a
 * dialog opens); shop.ts and collection.ts re-export them.
 */

export const OWNED_CARD_STATUSES = ['in_vault', 'in_shipment', 'shipped', 'delivered', 'sold_back', 'revoked', 'lost', 'listed'] as const;
export const ACQUIRED_VIA = ['opening', 'drop', 'grant'] as const;
export type OwnedCardStatus = (typeof OWNED_CARD_STATUSES)[number];
export type AcquiredVia = (typeof ACQUIRED_VIA)[number];

export const STATUS_LABEL: Record<OwnedCardStatus, string> = {
  in_vault: 'In vault',
  in_shipment: 'In a shipment',
  shipped: 'Shipped',
  delivered: 'Delivered',
  sold_back: 'Sold back',
  revoked: 'Revoked',
  lost: 'Lost in the post',
  listed: 'Listed on the market',
};
export const ACQUIRED_LABEL: Record<AcquiredVia, string> = {
  opening: 'Pack opening',
  drop: 'Daily drop',
  grant: 'Gift from Packvault',
};

export function formatRate(bp: number): string {
  const pct = bp / 100;
  return `${Number.isInteger(pct) ? pct : pct.toFixed(2).replace(/0+$/, '')}%`;
}

export const COLLECTION_SORTS = ['acquired_desc', 'acquired_asc', 'value_desc', 'value_asc', 'name'] as const;
export const COLLECTION_STATUS_FILTERS = ['in_vault', 'all', ...OWNED_CARD_STATUSES.filter((s) => s !== 'in_vault')] as const;
