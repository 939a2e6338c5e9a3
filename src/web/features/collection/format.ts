import type { OwnedCardStatus } from '@shared/contracts/shop';
import type { BadgeTone } from '@web/components/ui';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

export function formatDateTime(iso: string): string {
  return dateTime.format(new Date(iso));
}

/** A UTC calendar day (yyyy-mm-dd from the API) as a readable date. */
export function formatDay(day: string): string {
  return dateOnly.format(new Date(`${day}T00:00:00Z`));
}

export const STATUS_TONE: Record<OwnedCardStatus, BadgeTone> = {
  in_vault: 'success',
  in_shipment: 'info',
  shipped: 'info',
  delivered: 'neutral',
  sold_back: 'gold',
  revoked: 'danger',
  lost: 'danger',
};
