import { randomBytes } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { attachCommitSink } from '../../db/after-commit.ts';
import type { DbHandle } from '../../db/client.ts';
import type { Logger } from '../../lib/logger.ts';

/**
 * 'public' reaches every client; 'user:<id>' reaches that user's open pages only; 'internal' reaches
 * the app processes only (cache invalidation), never a browser.
 */
export type Topic = 'public' | 'internal' | `user:${string}`;

export interface BusEvent {
  id: string;
  topic: Topic;
  type: string;
  data: unknown;
}

export type BusListener = (event: BusEvent) => void;

const CHANNEL = 'packvault_events';
/**
 * NOTIFY payloads must stay under 8000 bytes; we keep them far smaller by sending ids only. A batch
 * is one JSON array of events per NOTIFY, as many NOTIFYs as it takes to stay under this size.
 */
const MAX_PAYLOAD = 7000;
const HISTORY = 1000;

export interface Bus {
  /**
   * Sends one event to every process (through the per-process batch, see createBus). Call it after
   * the change it announces has committed.
   */
  publish(topic: Topic, type: string, data?: unknown): Promise<BusEvent>;
  /**
   * Sends events that are already settled (their change has committed), in order, in the next
   * batch: resolves once that batch's NOTIFY is done. Subscribers receive each event unchanged.
   */
  publishMany(events: BusEvent[]): Promise<void>;
  /** True when events go through PostgreSQL (NOTIFY) and reach every app process. */
  readonly shared: boolean;
  /**
   * On PostgreSQL, a SQL expression that sends the event when the statement's transaction
   * commits (and never if it rolls back). That NOTIFY takes PostgreSQL's commit lock (ADR 0019):
   * only for rare writes (a setting change), never on a hot path; there, `publishMany` after the commit. `data` is a SQL expression of type json; `id` (text) is the event id, from
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

// Ids are unique by time and counter within a process, and by this tag across processes (and
// restarts). The tag was 3 random bytes drawn per id: a synchronous crypto call costing about
// 9 µs, twice per opening (session 37: `git show 7e84b7c:docs/performance.md`).
const processTag = randomBytes(6).toString('hex');
let counter = 0;
function nextId(): string {
  counter = (counter + 1) % 1_000_000;
  return `${Date.now().toString(36)}-${counter.toString(36)}-${processTag}`;
}

/** Splits payloads (JSON events) into JSON arrays of at most MAX_PAYLOAD bytes each, in order. */
export function chunkPayloads(payloads: string[], max = MAX_PAYLOAD): string[] {
  const out: string[] = [];
  let part: string[] = [];
  let size = 2;
  for (const p of payloads) {
    const n = Buffer.byteLength(p) + 1;
    if (part.length && size + n > max) {
      out.push(`[${part.join(',')}]`);
      part = [];
      size = 2;
    }
    part.push(p);
    size += n;
  }
  if (part.length) out.push(`[${part.join(',')}]`);
  return out;
}

/**
 * In-process fan-out, plus PostgreSQL LISTEN/NOTIFY when several processes share one database:
 * on PostgreSQL every event goes through NOTIFY and is delivered when it comes back, so every
 * process (this one included) sees the same events in the same order.
 *
 * A transaction that has NOTIFYed takes a cluster-wide lock at commit until its commit is flushed
 * (ADR 0019): a NOTIFY in every opening's transaction serialised all openings on it. So events are
 * sent only after their change has committed, by a per-process batch: what is published while the
 * previous batch is on its way goes in the next one, one autocommit statement per batch. Batches go
 * one after another, so a process's events keep their order (per topic, and overall).
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
        // A batch is an array; a single object is what an older process (mid-deploy) sends.
        const parsed = JSON.parse(payload) as BusEvent | BusEvent[];
        for (const event of Array.isArray(parsed) ? parsed : [parsed]) deliver(event);
      } catch (err) {
        log.warn('bad realtime payload', { err });
      }
    });
  }

  // The batch being filled (sealed when its turn comes) and the tail of the batches sent so far.
  let filling: string[] | null = null;
  let fillingSent: Promise<void> = Promise.resolve();
  let tail: Promise<void> = Promise.resolve();
  const send = async (payloads: string[]) => {
    const chunks = chunkPayloads(payloads);
    // One statement, its own (autocommit) transaction: one NOTIFY commit per batch, after the
    // changes the events announce have committed. json_array_elements_text keeps the order.
    await dbh.query(sql`select pg_notify(${CHANNEL}::text, x) from json_array_elements_text(${JSON.stringify(chunks)}::json) as x`);
  };
  const enqueue = (payloads: string[]): Promise<void> => {
    if (!filling) {
      const batch: string[] = [];
      filling = batch;
      // setImmediate: the requests whose statements complete in the same turn share a batch.
      fillingSent = tail.then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(() => {
        if (filling === batch) filling = null;
        return send(batch);
      });
      tail = fillingSent.catch(() => {});
    }
    filling.push(...payloads);
    return fillingSent;
  };
  const payloadOf = (event: BusEvent) => {
    const payload = JSON.stringify(event);
    if (Buffer.byteLength(payload) > MAX_PAYLOAD) throw new Error(`realtime payload too large for NOTIFY (${event.type})`);
    return payload;
  };

  const bus: Bus = {
    async publish(topic, type, data = {}) {
      const event: BusEvent = { id: nextId(), topic, type, data };
      if (dbh.kind === 'postgres') await enqueue([payloadOf(event)]);
      else deliver(event);
      return event;
    },
    async publishMany(events) {
      if (events.length === 0) return;
      if (dbh.kind === 'postgres') {
        const payloads: string[] = [];
        for (const e of events) {
          try {
            payloads.push(payloadOf(e));
          } catch (err) {
            log.warn('realtime event not sent', { err });
          }
        }
        await enqueue(payloads);
      } else for (const e of events) deliver(e);
    },
    shared: dbh.kind === 'postgres',
    newEventId: nextId,
    eventSql(topic, type, data, id) {
      if (dbh.kind !== 'postgres') return null;
      const topicSql = typeof topic === 'string' ? sql`${topic}::text` : topic;
      // A one-event array: listeners read arrays (the batches) and single objects alike.
      return sql`pg_notify(${CHANNEL}::text, json_build_array(json_build_object('id', ${id}, 'topic', ${topicSql}, 'type', ${type}::text, 'data', ${data}))::text)`;
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
      detach();
      listeners.clear();
      if (unlisten) await unlisten().catch(() => {});
    },
  };
  // What a transaction of this handle queues with afterCommit leaves through this bus.
  const detach = attachCommitSink(dbh.db, {
    publish: (events) => bus.publishMany(events.map((e) => ({ id: nextId(), topic: e.topic, type: e.type, data: e.data ?? {} }))),
    atCommit: (e) => bus.eventSql(e.topic, e.type, sql`${JSON.stringify(e.data ?? {})}::json`, sql`${nextId()}::text`),
    warn: (message, err) => log.warn(message, { err }),
  });
  return bus;
}
