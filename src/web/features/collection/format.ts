import type { OwnedCardStatus } from '@shared/contracts/shop';
import type { BadgeTone } from '@web/components/ui';

export const STATUS_TONE: Record<OwnedCardStatus, BadgeTone> = {
  in_vault: 'success',
  in_shipment: 'info',
  shipped: 'info',
  delivered: 'neutral',
  sold_back: 'gold',
  revoked: 'danger',
  lost: 'danger',
  listed: 'info',
};
