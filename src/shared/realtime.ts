/** Event types carried on /api/events. Payloads are small: ids and numbers, never documents. */
export type RealtimeEventType =
  | 'hello'
  | 'reset'
  | 'balance.changed'
  | 'notification.created'
  | 'pull.created'
  | 'drop.entries'
  | 'maintenance.changed'
  /** A marketplace listing sold ({ listingId }, public topic): open /market pages drop its tile. */
  | 'market.listing.sold'
  /** A listing ended without a sale for a reason its viewers did not cause ({ listingId, state }: the back office removed it). */
  | 'market.listing.ended'
  /** An offer the user made or received changed ({ offerId, listingId, state }, the user's topic). */
  | 'market.offer.changed'
  /** A swap the user proposed or received changed ({ swapId, state }, the user's topic). */
  | 'market.swap.changed'
  /** The last event of a stream whose server is shutting down; reconnecting is the answer. */
  | 'server.closing'
  /** The last event of a stream whose session ended (sign-out, revoke, ban, role change…). */
  | 'session.ended'
  | (string & {});

export interface RealtimeMessage<T = unknown> {
  id: string;
  type: RealtimeEventType;
  data: T;
}
