/** Event types carried on /api/events. Payloads are small: ids and numbers, never documents. */
export type RealtimeEventType =
  | 'hello'
  | 'reset'
  | 'balance.changed'
  | 'notification.created'
  | 'pull.created'
  | 'drop.entries'
  | 'maintenance.changed'
  /** The last event of a stream whose server is shutting down; reconnecting is the answer. */
  | 'server.closing'
  | (string & {});

export interface RealtimeMessage<T = unknown> {
  id: string;
  type: RealtimeEventType;
  data: T;
}
