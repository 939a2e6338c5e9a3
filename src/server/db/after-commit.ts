import { sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from './client.ts';

/**
 * The one after-commit hook (ADR 0034): what a change announces is said only once its transaction
 * has committed, and never when it rolls back.
 *
 * Every transaction of a database handle opened by db/client.ts carries a queue (`trackCommits`
 * wraps `db.transaction`, savepoints included). `afterCommit(tx, …)` adds an event or a hook to it;
 * after the commit the events go out in one batch through the handle's sink (the realtime bus,
 * attached by createBus) while the hooks run. A retried transaction starts with an empty queue, a
 * rolled-back savepoint drops what it queued. Outside a transaction (the handle itself, whose
 * statements commit one by one) the change has already committed: the event goes now.
 *
 * `{ withCommit: true }` is for an event that must reach other processes even if this one dies
 * right after the commit (a setting's change, an inbox notification): on PostgreSQL it is a NOTIFY
 * written in the transaction, which PostgreSQL sends at commit. That takes the commit lock
 * (ADR 0019), so the opening and money paths use the default, after the commit.
 */
export interface CommitEvent {
  /** A realtime topic: 'public', 'internal' or `user:<id>`. */
  topic: 'public' | 'internal' | `user:${string}`;
  type: string;
  data?: unknown;
  /** Of several events with the same key in one transaction only the last is sent (a balance). */
  key?: string;
}

export type CommitHook = () => Promise<unknown> | unknown;

/** Where committed events go: the realtime bus of the handle (modules/realtime/bus.ts). */
export interface CommitSink {
  publish(events: CommitEvent[]): Promise<void>;
  /** On PostgreSQL, the SQL that sends the event when the statement's transaction commits. */
  atCommit(event: CommitEvent): SQL | null;
  warn(message: string, err: unknown): void;
}

interface Queue {
  events: CommitEvent[];
  hooks: CommitHook[];
  /** The handle the transaction belongs to (whose sink delivers). */
  owner: object;
}

const queues = new WeakMap<object, Queue>();
const tracked = new WeakSet<object>();
const sinks = new WeakMap<object, CommitSink>();

/** Makes `sink` the destination of `db`'s committed events (the last attached wins). */
export function attachCommitSink(db: Db, sink: CommitSink): () => void {
  sinks.set(db, sink);
  return () => {
    if (sinks.get(db) === sink) sinks.delete(db);
  };
}

function push(q: Queue, event: CommitEvent) {
  if (event.key !== undefined) {
    const at = q.events.findIndex((e) => e.key === event.key);
    if (at !== -1) q.events.splice(at, 1);
  }
  q.events.push(event);
}

async function deliver(owner: object, events: CommitEvent[], hooks: CommitHook[]) {
  const sink = sinks.get(owner);
  // The hooks do not wait for the events' NOTIFY batch: neither depends on the other.
  const published = events.length && sink ? sink.publish(events).catch((err: unknown) => sink.warn('events not published after commit', err)) : null;
  for (const hook of hooks) {
    try {
      await hook();
    } catch (err) {
      // The change has committed: its caller must not see this as a failure.
      if (sink) sink.warn('after-commit hook failed', err);
      else console.error('after-commit hook failed', err);
    }
  }
  await published;
}

/**
 * Gives every transaction of `db` (and every savepoint inside one) its after-commit queue.
 * Called once per handle, by db/client.ts.
 */
export function trackCommits(db: Db): Db {
  tracked.add(db);
  const begin = db.transaction.bind(db);
  const track = (tx: object, q: Queue) => {
    queues.set(tx, q);
    const nested = (tx as Db).transaction.bind(tx);
    (tx as Db).transaction = (async (fn: (inner: never) => Promise<unknown>, config?: unknown) => {
      const child: Queue = { events: [], hooks: [], owner: q.owner };
      const result = await nested((inner: object) => {
        track(inner, child);
        return fn(inner as never);
      }, config as never);
      // The savepoint was released: what it queued now waits for the outer commit.
      for (const e of child.events) push(q, e);
      q.hooks.push(...child.hooks);
      return result;
    }) as Db['transaction'];
  };
  db.transaction = (async (fn: (tx: never) => Promise<unknown>, config?: unknown) => {
    let q!: Queue;
    const result = await begin((tx: object) => {
      // A fresh queue per attempt: drizzle may call us again for a retried transaction.
      q = { events: [], hooks: [], owner: db };
      track(tx, q);
      return fn(tx as never);
    }, config as never);
    await deliver(db, q.events, q.hooks);
    return result;
  }) as Db['transaction'];
  return db;
}

/**
 * Announces `event`(s) once `tx` commits, or runs `hook` then (a hook's failure is logged, never
 * thrown: the change has committed). Outside a transaction (the handle itself) it happens now.
 * Events queued in one transaction leave in one batch, in order; the hooks run meanwhile, in order.
 */
export async function afterCommit(tx: DbOrTx, what: CommitEvent | CommitEvent[] | CommitHook, opts: { withCommit?: boolean } = {}): Promise<void> {
  const hook = typeof what === 'function' ? what : null;
  const list = hook ? [] : Array.isArray(what) ? what : [what as CommitEvent];
  const q = queues.get(tx);
  if (!q) {
    if (!tracked.has(tx)) throw new Error('afterCommit: not a handle from db/client.ts nor one of its transactions');
    await deliver(tx, list, hook ? [hook] : []);
    return;
  }
  if (hook) {
    q.hooks.push(hook);
    return;
  }
  if (opts.withCommit) {
    const sink = sinks.get(q.owner);
    const notify = list.map((e) => sink?.atCommit(e) ?? null);
    if (notify.length && notify.every((n) => n !== null)) {
      await tx.execute(sql`select ${sql.join(notify as SQL[], sql`, `)}`);
      return;
    }
  }
  for (const e of list) push(q, e);
}
