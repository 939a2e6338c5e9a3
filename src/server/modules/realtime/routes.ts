import type { HttpBindings } from '@hono/node-server';
import type { Deps } from '../../deps.ts';
import { createRouter } from '../../http/openapi.ts';
import { metricsFor } from '../metrics/metrics.ts';
import { createFanout } from './fanout.ts';

/**
 * GET /api/events — Server-Sent Events. Everyone gets the public stream; a signed-in client
 * also gets its own user stream. `Last-Event-ID` replays what a short disconnection missed, or
 * sends `reset` when the gap is too long so the page refetches.
 */
export function realtimeRoutes(deps: Deps) {
  const app = createRouter();
  const fanout = createFanout(deps.bus, deps.shutdown, deps.log);
  metricsFor(deps).sseClients(() => fanout.clientCount);
  app.get('/events', (c) => {
    const actor = c.get('actor');
    // Present when served by @hono/node-server; absent under app.request() in tests.
    const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
    const body = fanout.open({
      userTopic: actor ? `user:${actor.userId}` : null,
      signedIn: Boolean(actor),
      lastEventId: c.req.header('last-event-id') ?? c.req.query('lastEventId'),
      node: outgoing,
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
