import { streamSSE } from 'hono/streaming';
import type { Deps } from '../../deps.ts';
import { createRouter } from '../../http/openapi.ts';
import type { BusEvent } from './bus.ts';

const HEARTBEAT_MS = 15_000;

/**
 * GET /api/events — Server-Sent Events. Everyone gets the public stream; a signed-in client
 * also gets its own user stream. `Last-Event-ID` replays what a short disconnection missed, or
 * sends `reset` when the gap is too long so the page refetches.
 */
export function realtimeRoutes(deps: Deps) {
  const app = createRouter();
  app.get('/events', (c) => {
    const actor = c.get('actor');
    const userTopic = actor ? `user:${actor.userId}` : null;
    const wants = (e: BusEvent) => e.topic === 'public' || e.topic === userTopic;
    const lastId = c.req.header('last-event-id') ?? c.req.query('lastEventId');
    c.header('X-Accel-Buffering', 'no');
    c.header('Cache-Control', 'no-cache, no-transform');
    return streamSSE(c, async (stream) => {
      const queue: BusEvent[] = [];
      let wake: (() => void) | null = null;
      const unsubscribe = deps.bus.subscribe((e) => {
        if (!wants(e)) return;
        queue.push(e);
        wake?.();
      });
      let closed = deps.shutdown.aborted;
      const stop = () => {
        closed = true;
        wake?.();
      };
      stream.onAbort(stop);
      deps.shutdown.addEventListener('abort', stop, { once: true });
      try {
        await stream.writeSSE({ event: 'hello', data: JSON.stringify({ user: Boolean(actor) }), retry: 3000 });
        if (lastId) {
          const missed = deps.bus.since(lastId);
          if (missed === null) await stream.writeSSE({ event: 'reset', data: '{}' });
          else for (const e of missed.filter(wants)) queue.push(e);
        }
        while (!closed) {
          while (queue.length && !closed) {
            const e = queue.shift()!;
            await stream.writeSSE({ id: e.id, event: e.type, data: JSON.stringify(e.data) });
          }
          if (closed) break;
          await new Promise<void>((resolve) => {
            const t = setTimeout(resolve, HEARTBEAT_MS);
            wake = () => {
              clearTimeout(t);
              resolve();
            };
          });
          wake = null;
          if (!queue.length && !closed) await stream.write(': ping\n\n');
        }
      } finally {
        unsubscribe();
        deps.shutdown.removeEventListener('abort', stop);
      }
    });
  });
  return app;
}
