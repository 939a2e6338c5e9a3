import { randomBytes } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { DbHandle } from '../../db/client.ts';
import type { Logger } from '../../lib/logger.ts';

/** 'public' reaches every client; 'user:<id>' reaches that user's open pages only. */
export type Topic = 'public' | `user:${string}`;

export interface BusEvent {
  id: string;
  topic: Topic;
  type: string;
  data: unknown;
}

export type BusListener = (event: BusEvent) => void;

const CHANNEL = 'packvault_events';
/** NOTIFY payloads must stay under 8000 bytes; we keep them far smaller by sending ids only. */
const MAX_PAYLOAD = 7000;
const HISTORY = 1000;

export interface Bus {
  publish(topic: Topic, type: string, data?: unknown): Promise<BusEvent>;
  /**
   * On PostgreSQL, a SQL expression that sends the event when the statement's transaction
   * commits (and never if it rolls back): for a statement that settles a change and announces it
   * in one round trip. `data` is a SQL expression of type json; `id` (text) is the event id, from
   * `newEventId()` (a placeholder when the statement is built once), made unique per row where one
   * expression sends several events. Null when the bus is in-process (PGlite): publish after the
   * commit instead.
   */
  eventSql(topic: Topic | SQL, type: string, data: SQL, id: SQL): SQL | null;
  newEventId(): string;
  subscribe(listener: BusListener): () => void;
  /** Events after `lastId`, or null when that id is no longer remembered (client must resync). */
  since(lastId: string): BusEvent[] | null;
  close(): Promise<void>;
  readonly subscriberCount: number;
}

let counter = 0;
function nextId(): string {
  counter = (counter + 1) % 1_000_000;
  return `${Date.now().toString(36)}-${counter.toString(36)}-${randomBytes(3).toString('hex')}`;
}

/**
 * In-process fan-out, plus PostgreSQL LISTEN/NOTIFY when several processes share one database:
 * on PostgreSQL every event goes through NOTIFY and is delivered when it comes back, so every
 * process (this one included) sees the same events in the same order.
 */
export async function createBus(dbh: DbHandle, log: Logger): Promise<Bus> {
  const listeners = new Set<BusListener>();
  const history: BusEvent[] = [];

  const deliver = (event: BusEvent) => {
    history.push(event);
    if (history.length > HISTORY) history.splice(0, history.length - HISTORY);
    for (const l of listeners) {
      try {
        l(event);
      } catch (err) {
        log.error('realtime listener failed', { err });
      }
    }
  };

  let unlisten: (() => Promise<void>) | null = null;
  if (dbh.kind === 'postgres') {
    unlisten = await dbh.listen(CHANNEL, (payload) => {
      try {
        deliver(JSON.parse(payload) as BusEvent);
      } catch (err) {
        log.warn('bad realtime payload', { err });
      }
    });
  }

  return {
    async publish(topic, type, data = {}) {
      const event: BusEvent = { id: nextId(), topic, type, data };
      if (dbh.kind === 'postgres') {
        const payload = JSON.stringify(event);
        if (Buffer.byteLength(payload) > MAX_PAYLOAD) {
          throw new Error(`realtime payload too large for NOTIFY (${type})`);
        }
        await dbh.query(sql`select pg_notify(${CHANNEL}, ${payload})`);
      } else {
        deliver(event);
      }
      return event;
    },
    newEventId: nextId,
    eventSql(topic, type, data, id) {
      if (dbh.kind !== 'postgres') return null;
      const topicSql = typeof topic === 'string' ? sql`${topic}::text` : topic;
      return sql`pg_notify(${CHANNEL}::text, json_build_object('id', ${id}, 'topic', ${topicSql}, 'type', ${type}::text, 'data', ${data})::text)`;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    since(lastId) {
      const i = history.findIndex((e) => e.id === lastId);
      return i === -1 ? null : history.slice(i + 1);
    },
    get subscriberCount() {
      return listeners.size;
    },
    async close() {
      listeners.clear();
      if (unlisten) await unlisten().catch(() => {});
    },
  };
}
