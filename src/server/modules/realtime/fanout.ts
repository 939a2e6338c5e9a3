import type { Logger } from '../../lib/logger.ts';
import type { Bus, BusEvent } from './bus.ts';
import { isStreamsEnd, STREAMS_END, type StreamsEnd } from './session-streams.ts';

export const HEARTBEAT_MS = 15_000;
/** How often idle streams are looked at; a stream idle for HEARTBEAT_MS gets a ping within this. */
const HEARTBEAT_CHECK_MS = 5_000;
/**
 * Bytes a client may still have waiting (in its stream or its socket's buffer) from earlier turns
 * of the event loop when a live event arrives. A client that far behind is dropped instead of
 * buffered without bound: its EventSource reconnects with Last-Event-ID and catches up from the
 * bus history, or gets `reset`. What was written in the current turn does not count: a burst of
 * NOTIFYs read in one go is written before any socket gets a chance to flush, and must not drop
 * every client at once.
 */
export const MAX_QUEUED_BYTES = 64 * 1024;
/** How soon to look again whether a new stream can be written directly (see `promote`). */
const PROMOTE_RETRY_MS = 25;

const encoder = new TextEncoder();
const PING = encoder.encode(': ping\n\n');
/** The last frame of a stream whose session ended: the page signs out instead of reconnecting as the user. */
const SESSION_ENDED = encoder.encode('event: session.ended\ndata: {}\n\n');

/**
 * The last frame of every stream when the process shuts down: `retry` tells the EventSource how
 * soon to reconnect (to another process behind the proxy, or this one restarted), spread over
 * 1–3 s so a thousand clients do not come back in the same millisecond. The event itself lets a
 * page tell a restart from a network failure; the browser reconnects with Last-Event-ID either way.
 */
export function goodbyeFrame(retryMs = 1000 + Math.floor(Math.random() * 2000)): Uint8Array {
  return encoder.encode(`event: server.closing\ndata: ${JSON.stringify({ retryMs })}\nretry: ${retryMs}\n\n`);
}

/**
 * The Node response carrying a stream, when there is one (@hono/node-server; not app.request()).
 * Structural, so tests can pass a real ServerResponse without the module depending on the adapter.
 */
export interface NodeResponse {
  readonly headersSent: boolean;
  readonly writableLength: number;
  readonly destroyed: boolean;
  readonly writableEnded: boolean;
  write(chunk: Uint8Array): boolean;
  destroy(): void;
  /** Node's own chunked framing is on for this response (see `chunkOf`). */
  readonly chunkedEncoding?: boolean;
  readonly socket?: { write(chunk: Uint8Array): boolean } | null;
}

interface Client {
  controller: ReadableStreamDefaultController<Uint8Array>;
  node: NodeResponse | undefined;
  /** Frames go straight to `node` instead of through the stream (see `promote`). */
  direct: boolean;
  /** When direct: the socket under `node`, written with frames already in chunked framing. */
  socket: { write(chunk: Uint8Array): boolean } | null;
  userTopic: string | null;
  /** The session the stream was opened with (null for a visitor). */
  sessionId: string | null;
  lastWrite: number;
  onEnd: (() => void) | undefined;
  /** Bytes written to this client in event-loop turn `turn` (see MAX_QUEUED_BYTES). */
  turn: number;
  turnBytes: number;
  done: boolean;
}

/**
 * The backstop for "streams end with the session" (issue 39): a revocation published on the bus
 * can miss a stream (opened in the instant between the session's deletion and the event, or a
 * NOTIFY lost with a dropped LISTEN connection). Every `everyMs`, the process asks once, for all
 * its open signed-in streams together, which of their sessions are still good, and ends the rest.
 */
export interface SessionSweep {
  everyMs: number;
  /** Of `sessionIds`, those that still exist, have not expired and whose user may still sign in. */
  alive(sessionIds: string[]): Promise<ReadonlySet<string>>;
}

/**
 * One bus listener for all SSE streams of this process. Each event is serialised once into its
 * SSE frame and the same bytes are written to every subscribed client synchronously, so an event
 * costs one JSON.stringify and N writes, not N async loops and N serialisations.
 */
export interface Fanout {
  /** Opens a stream for one client; `userTopic` is `user:<id>` for a signed-in client. */
  open(opts: {
    userTopic: string | null;
    signedIn: boolean;
    lastEventId: string | undefined;
    node?: NodeResponse | undefined;
    sessionId?: string | null | undefined;
    /** Called once when the stream ends, however it ends (the route's per-address count). */
    onEnd?: () => void;
  }): ReadableStream<Uint8Array>;
  /** Closes this process's streams of a user (or of some of their sessions); answers how many. */
  endStreams(end: StreamsEnd): number;
  readonly clientCount: number;
}

// Frames are cached per event object so a Last-Event-ID replay reuses the bytes of live delivery;
// the cache lets go of an event when the bus history does.
const frames = new WeakMap<BusEvent, Uint8Array | null>();

/** The `event/data/id` frame of a bus event (the order hono's writeSSE used), or null if unsendable. */
function frameOf(event: BusEvent): Uint8Array | null {
  let frame = frames.get(event);
  if (frame !== undefined) return frame;
  // A CR or LF would split the field and let the rest be read as other fields.
  const unsafe = /[\r\n]/.test(event.type) || /[\r\n]/.test(event.id);
  // JSON.stringify escapes line breaks, so the payload is always one data line.
  frame = unsafe ? null : encoder.encode(`event: ${event.type}\ndata: ${JSON.stringify(event.data)}\nid: ${event.id}\n\n`);
  frames.set(event, frame);
  return frame;
}

// The HTTP/1.1 chunk of each frame, cached like the frames themselves (PING and the event frames
// live as long as the bytes they frame).
const chunks = new WeakMap<Uint8Array, Uint8Array>();
const CRLF = encoder.encode('\r\n');

/**
 * `bytes` as one HTTP/1.1 chunk (size line, data, CRLF). res.write() frames every call itself, in
 * three pieces (a size string it encodes, the data, a CRLF string) that go out in one writev: at
 * ten thousand clients that per-client string encoding and gathering was a third of an event's
 * fan-out. Built once per frame, the chunk is one buffer, written to each socket as it is.
 */
function chunkOf(bytes: Uint8Array): Uint8Array {
  let chunk = chunks.get(bytes);
  if (chunk) return chunk;
  const head = encoder.encode(`${bytes.byteLength.toString(16)}\r\n`);
  chunk = new Uint8Array(head.byteLength + bytes.byteLength + 2);
  chunk.set(head, 0);
  chunk.set(bytes, head.byteLength);
  chunk.set(CRLF, head.byteLength + bytes.byteLength);
  chunks.set(bytes, chunk);
  return chunk;
}

export function createFanout(bus: Bus, shutdown: AbortSignal, log: Logger, opts: { sessionSweep?: SessionSweep } = {}): Fanout {
  const everyone = new Set<Client>();
  const byUser = new Map<string, Set<Client>>();
  let unsubscribe: (() => void) | null = null;
  let heartbeat: ReturnType<typeof setInterval> | null = null;
  let sweeper: ReturnType<typeof setInterval> | null = null;
  let sweeping = false;
  // Advanced by a setImmediate after writes: by then the corked chunked writes have been handed
  // to the sockets, so whatever is still buffered is real backlog.
  let turn = 0;
  let turnEnding = false;
  const endTurn = () => {
    turn++;
    turnEnding = false;
  };

  const write = (client: Client, bytes: Uint8Array, now: number, live: boolean) => {
    if (client.done) return;
    const node = client.node;
    if (client.direct && (node!.destroyed || node!.writableEnded)) return remove(client);
    if (client.turn !== turn) {
      client.turn = turn;
      client.turnBytes = 0;
    }
    if (live) {
      // A promoted client's stream queue is empty by construction, so only its socket counts.
      const inStream = client.direct ? 0 : MAX_QUEUED_BYTES - (client.controller.desiredSize ?? 0);
      const waiting = inStream + (node?.writableLength ?? 0) - client.turnBytes;
      if (waiting >= MAX_QUEUED_BYTES) return drop(client, waiting);
    }
    if (client.socket) client.socket.write(chunkOf(bytes));
    else if (client.direct) node!.write(bytes);
    else {
      try {
        client.controller.enqueue(bytes);
      } catch {
        // The consumer went away between our check and the write; its cancel() also removes it.
        return remove(client);
      }
    }
    client.lastWrite = now;
    client.turnBytes += bytes.byteLength;
    if (!turnEnding) {
      turnEnding = true;
      setImmediate(endTurn);
    }
  };

  /**
   * Through the stream, every frame costs the adapter a read promise and a microtask per client.
   * Once the adapter has sent the headers and taken everything queued, frames can go straight to
   * the response instead. Checked from a timer, i.e. with no microtask pending: a frame the
   * adapter has dequeued is then also written, so nothing written directly can overtake it. The
   * stream stays open (its pending read just never resolves) so that close() still ends the
   * response through the adapter. This relies on nothing transforming the body on the way
   * (no compression on /api/events).
   */
  const promote = (client: Client) => {
    if (client.done || !client.node) return;
    if (client.node.headersSent && client.controller.desiredSize === MAX_QUEUED_BYTES) {
      client.direct = true;
      // Raw chunks on the socket only when Node frames this response as chunked itself: then
      // what we write is exactly what res.write() would have, and the adapter's res.end() still
      // writes the last chunk after ours on the same socket.
      if (client.node.chunkedEncoding === true && client.node.socket) client.socket = client.node.socket;
    } else setTimeout(promote, PROMOTE_RETRY_MS, client).unref();
  };

  const onEvent = (event: BusEvent) => {
    if (event.topic === 'internal') {
      if (event.type === STREAMS_END && isStreamsEnd(event.data)) endStreams(event.data);
      return;
    }
    const targets = event.topic === 'public' ? everyone : byUser.get(event.topic);
    if (!targets?.size) return;
    const frame = frameOf(event);
    if (!frame) {
      log.warn('realtime event with a line break in its type or id was not sent', { type: event.type });
      return;
    }
    const now = Date.now();
    for (const client of targets) write(client, frame, now, true);
  };

  const beat = () => {
    const now = Date.now();
    for (const client of everyone) if (now - client.lastWrite >= HEARTBEAT_MS) write(client, PING, now, true);
  };

  /** Ends the streams whose session is gone (see SessionSweep); one query per run, never two at once. */
  const sweep = async () => {
    const check = opts.sessionSweep;
    if (!check || sweeping || shutdown.aborted) return;
    const ids = new Set<string>();
    for (const client of everyone) if (client.sessionId) ids.add(client.sessionId);
    if (ids.size === 0) return;
    sweeping = true;
    try {
      const alive = await check.alive([...ids]);
      const now = Date.now();
      // Only streams whose session was asked about: one opened during the query is left for the next run.
      for (const client of [...everyone]) {
        if (!client.sessionId || !ids.has(client.sessionId) || alive.has(client.sessionId)) continue;
        write(client, SESSION_ENDED, now, false);
        end(client);
      }
    } catch (err) {
      log.warn('could not check the sessions of realtime streams', { err });
    } finally {
      sweeping = false;
    }
  };

  const add = (client: Client) => {
    everyone.add(client);
    if (client.userTopic) {
      let set = byUser.get(client.userTopic);
      if (!set) byUser.set(client.userTopic, (set = new Set()));
      set.add(client);
    }
    // Nothing listens or ticks while nobody is connected, so idle processes and tests stay quiet.
    unsubscribe ??= bus.subscribe(onEvent);
    if (!heartbeat) {
      heartbeat = setInterval(beat, HEARTBEAT_CHECK_MS);
      heartbeat.unref();
    }
    if (!sweeper && opts.sessionSweep && client.sessionId) {
      sweeper = setInterval(() => void sweep(), opts.sessionSweep.everyMs);
      sweeper.unref();
    }
  };

  function remove(client: Client) {
    if (client.done) return;
    client.done = true;
    client.onEnd?.();
    everyone.delete(client);
    if (client.userTopic) {
      const set = byUser.get(client.userTopic);
      set?.delete(client);
      if (set?.size === 0) byUser.delete(client.userTopic);
    }
    if (everyone.size === 0) {
      unsubscribe?.();
      unsubscribe = null;
      if (heartbeat) clearInterval(heartbeat);
      heartbeat = null;
      if (sweeper) clearInterval(sweeper);
      sweeper = null;
    }
  }

  function drop(client: Client, queuedBytes: number) {
    remove(client);
    log.warn('realtime client too slow; dropped', { queuedBytes });
    // Cutting the socket makes the adapter cancel the stream quietly; erroring the stream would
    // also end it, but the adapter prints that error to stderr for every dropped client.
    if (client.node) return client.node.destroy();
    try {
      client.controller.error(new Error('realtime client too slow; dropped'));
    } catch {
      // Already closed.
    }
  }

  function end(client: Client) {
    remove(client);
    try {
      client.controller.close();
    } catch {
      // Already closed or errored.
    }
  }

  function endStreams(e: StreamsEnd): number {
    const set = byUser.get(`user:${e.userId}`);
    if (!set) return 0;
    const only = e.sessionIds ? new Set(e.sessionIds) : null;
    const now = Date.now();
    let ended = 0;
    for (const client of [...set]) {
      if (only && !only.has(client.sessionId ?? '')) continue;
      if (e.exceptSessionId !== undefined && client.sessionId === e.exceptSessionId) continue;
      write(client, SESSION_ENDED, now, false);
      end(client);
      ended++;
    }
    return ended;
  }

  shutdown.addEventListener(
    'abort',
    () => {
      // close(), not error(): what is queued (and the goodbye) still goes out, then each response
      // ends cleanly.
      const now = Date.now();
      for (const client of [...everyone]) {
        write(client, goodbyeFrame(), now, false);
        end(client);
      }
    },
    { once: true },
  );

  return {
    open({ userTopic, signedIn, lastEventId, node, sessionId = null, onEnd }) {
      let client: Client | null = null;
      return new ReadableStream<Uint8Array>(
        {
          start(controller) {
            const now = Date.now();
            const c: Client = {
              controller,
              node,
              direct: false,
              socket: null,
              userTopic,
              sessionId,
              onEnd,
              lastWrite: now,
              turn,
              turnBytes: 0,
              done: false,
            };
            const hello = encoder.encode(`event: hello\ndata: ${JSON.stringify({ user: signedIn })}\nretry: 3000\n\n`);
            controller.enqueue(hello);
            if (shutdown.aborted) {
              controller.enqueue(goodbyeFrame());
              c.done = true;
              onEnd?.();
              controller.close();
              return;
            }
            client = c;
            // Subscribing and reading the history in the same tick: no event can fall between
            // the replay and live delivery, or arrive twice.
            add(c);
            if (lastEventId) {
              const missed = bus.since(lastEventId);
              if (missed === null) write(c, encoder.encode('event: reset\ndata: {}\n\n'), now, false);
              else {
                for (const e of missed) {
                  if (e.topic !== 'public' && e.topic !== userTopic) continue;
                  const frame = frameOf(e);
                  if (frame) write(c, frame, now, false);
                }
              }
            }
            if (node) setTimeout(promote, 0, c).unref();
          },
          cancel() {
            if (client) remove(client);
          },
        },
        new ByteLengthQueuingStrategy({ highWaterMark: MAX_QUEUED_BYTES }),
      );
    },
    endStreams,
    get clientCount() {
      return everyone.size;
    },
  };
}
