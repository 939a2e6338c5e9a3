import { ServerResponse } from 'node:http';
import type { ApiError, ErrorCode } from '../../shared/api-error.ts';

type Fetch<E> = (req: Request, env: E) => Response | Promise<Response>;

/**
 * Counts the requests this process is serving, so shutdown can close the database only once
 * none of them can still need it (main.ts). A request counts until both its handler has answered
 * (every transaction committed or rolled back, post-commit publishes done) and its response has
 * been written or its socket closed: a client that hangs up mid-purchase does not make its
 * transaction look finished, and a streamed body is not cut when the database closes.
 */
export interface RequestDrain<E> {
  /** The app's fetch, counted; give this to `serve`. */
  fetch: Fetch<E>;
  readonly inFlight: number;
  /**
   * Keep-alive off: every response from now on (including those of requests already running)
   * closes its connection, so clients and proxies reconnect, and reach another process. Node keeps
   * serving requests on open keep-alive sockets after server.close(); this is what ends them.
   */
  startDraining(): void;
  /** Resolves once no request is in flight. */
  idle(): Promise<void>;
  /**
   * The database is about to close: a request arriving now (a straggler on a socket still open)
   * gets 503 at once instead of a database error halfway. Nothing of it has run, so a client may
   * retry it elsewhere (with the same Idempotency-Key for money).
   */
  refuse(): void;
}

const REFUSED_BODY = JSON.stringify({
  error: { code: 'shutting_down' satisfies ErrorCode, message: 'This server is restarting. Please try again in a moment.' } satisfies ApiError,
});

export function createRequestDrain<E>(fetch: Fetch<E>): RequestDrain<E> {
  const running = new Set<ServerResponse | symbol>();
  let draining = false;
  let refusing = false;
  let waiters: Array<() => void> = [];

  const finish = (key: ServerResponse | symbol) => {
    running.delete(key);
    if (running.size === 0) {
      const w = waiters;
      waiters = [];
      for (const resolve of w) resolve();
    }
  };

  const noKeepAlive = (res: ServerResponse | undefined) => {
    if (res && !res.headersSent) res.setHeader('Connection', 'close');
  };

  return {
    fetch(req, env) {
      // @hono/node-server passes the Node response as env.outgoing; app.request() in tests does not.
      const candidate = (env as { outgoing?: unknown } | undefined)?.outgoing;
      const outgoing = candidate instanceof ServerResponse ? candidate : undefined;
      if (refusing) {
        return new Response(REFUSED_BODY, {
          status: 503,
          headers: { 'Content-Type': 'application/json', 'Retry-After': '1', 'Cache-Control': 'no-store', Connection: 'close' },
        });
      }
      if (draining) noKeepAlive(outgoing);
      const key = outgoing ?? Symbol('request');
      running.add(key);
      let answered = false;
      let closed = !outgoing;
      const settle = () => {
        if (answered && closed) finish(key);
      };
      if (outgoing) {
        const onClose = () => {
          closed = true;
          settle();
        };
        if (outgoing.destroyed) closed = true;
        else outgoing.once('close', onClose);
      }
      const done = () => {
        answered = true;
        settle();
      };
      try {
        const res = fetch(req, env);
        void Promise.resolve(res).then(done, done);
        return res;
      } catch (err) {
        done();
        throw err;
      }
    },
    get inFlight() {
      return running.size;
    },
    startDraining() {
      draining = true;
      for (const key of running) if (typeof key !== 'symbol') noKeepAlive(key);
    },
    idle() {
      if (running.size === 0) return Promise.resolve();
      return new Promise<void>((resolve) => waiters.push(resolve));
    },
    refuse() {
      refusing = true;
    },
  };
}
