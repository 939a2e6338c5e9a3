import type { HttpBindings } from '@hono/node-server';
import type { Deps } from '../../deps.ts';
import { clientAddressKey } from '../../http/client-ip.ts';
import { AppError, respondError } from '../../http/errors.ts';
import { createRouter } from '../../http/openapi.ts';
import { metricsFor } from '../metrics/metrics.ts';
import { createFanout } from './fanout.ts';
import { liveSessions } from './session-streams.ts';

/**
 * GET /api/events — Server-Sent Events. Everyone gets the public stream; a signed-in client
 * also gets its own user stream. `Last-Event-ID` replays what a short disconnection missed, or
 * sends `reset` when the gap is too long so the page refetches.
 */
export function realtimeRoutes(deps: Deps) {
  const app = createRouter();
  const fanout = createFanout(deps.bus, deps.shutdown, deps.log, {
    sessionSweep: { everyMs: deps.config.sseSessionSweepMs ?? 2_000, alive: (ids) => liveSessions(deps.db, ids) },
  });
  metricsFor(deps).sseClients(() => fanout.clientCount);
  // Streams held per client address and per user on this process (issue 39): one address or one
  // account cannot hold hundreds of sockets and the fan-out work they cost.
  const perAddress = new Map<string, number>();
  const perUser = new Map<string, number>();
  const maxPerAddress = deps.config.sseMaxStreamsPerAddress ?? 20;
  const maxPerUser = deps.config.sseMaxStreamsPerUser ?? 10;
  const bump = (m: Map<string, number>, k: string, d: number) => {
    const n = (m.get(k) ?? 0) + d;
    if (n <= 0) m.delete(k);
    else m.set(k, n);
  };
  app.get('/events', (c) => {
    const actor = c.get('actor');
    const address = clientAddressKey(c, deps.config.trustProxy);
    if ((perAddress.get(address) ?? 0) >= maxPerAddress || (actor && (perUser.get(actor.userId) ?? 0) >= maxPerUser)) {
      c.header('Retry-After', '30');
      return respondError(c, new AppError(429, 'rate_limited', 'Too many live connections from here. Close some tabs of the shop, then reload.'));
    }
    bump(perAddress, address, 1);
    if (actor) bump(perUser, actor.userId, 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      bump(perAddress, address, -1);
      if (actor) bump(perUser, actor.userId, -1);
    };
    // Present when served by @hono/node-server; absent under app.request() in tests.
    const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
    const body = fanout.open({
      userTopic: actor ? `user:${actor.userId}` : null,
      sessionId: actor?.sessionId ?? null,
      signedIn: Boolean(actor),
      lastEventId: c.req.header('last-event-id') ?? c.req.query('lastEventId'),
      node: outgoing,
      onEnd: release,
    });
    return c.body(body, 200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache, no-transform',
      // Chunked up front, so @hono/node-server sends the headers at once instead of first
      // waiting to see whether the body ends (to compute a Content-Length).
      'Transfer-Encoding': 'chunked',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
  });
  return app;
}
