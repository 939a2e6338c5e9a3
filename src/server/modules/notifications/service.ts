import type { NotificationKind } from '../../../shared/contracts/notifications.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';

/**
 * What each kind needs to say itself: the notifications module renders the in-app title, body
 * and link and the mail (HTML and text) from these.
 */
export interface NotifyData {
  deposit_credited: { depositId: string; amountCents: number; currency: string };
  big_pull: { openingId: string; cardId: string; cardName: string; valueCents: number; productName?: string | null };
  buyback_paid: { saleId: string; amountCents: number; cardCount: number };
  shipment_status: { shipmentId: string; reference: string; status: string; statusLabel: string; tracking?: string | null; reason?: string | null };
  drop_won: { dropId: string; dropTitle: string; cardName: string };
  drop_starting: { dropId: string; dropTitle: string; closesAt: string };
  referral_qualified: { referralId: string; role: 'referrer' | 'referee'; friendUsername: string; amountCents: number; currency: string };
  security: {
    event: 'new_sign_in' | 'two_factor_enabled' | 'two_factor_disabled' | 'password_changed' | 'password_reset';
    ip?: string | null;
    userAgent?: string | null;
  };
}

export interface NotifyOptions {
  /** Makes a repeat (a retried job, a redelivered webhook) a no-op for this user. */
  dedupeKey?: string;
}

/**
 * Tells `userId` about something, on the channels they chose for `kind`: an inbox row (and a
 * realtime `notification.created` at commit) and/or a mail through the outbox, both written in
 * `tx`, so a rolled-back change tells no one. The one way any feature notifies a user.
 */
export async function notify<K extends NotificationKind>(
  deps: Deps,
  tx: DbOrTx,
  userId: string,
  kind: K,
  data: NotifyData[K],
  opts: NotifyOptions = {},
): Promise<void> {
  // Interface landed first so features can call it; the notifications work fills in the body.
  void deps;
  void tx;
  void userId;
  void kind;
  void data;
  void opts;
}
