import { createRoute } from '@hono/zod-openapi';
import type { Deps } from '../../deps.ts';
import { pingDb } from '../../db/client.ts';
import { createRouter, jsonContent, z } from '../../http/openapi.ts';

const healthSchema = z.object({ status: z.enum(['ok', 'degraded']), db: z.enum(['ok', 'unreachable']) });

export function healthRoutes(deps: Deps) {
  const app = createRouter();
  app.openapi(
    createRoute({
      method: 'get',
      path: '/health',
      tags: ['platform'],
      summary: 'Liveness and database reachability',
      responses: {
        200: jsonContent(healthSchema, 'Healthy'),
        503: jsonContent(healthSchema, 'The database is unreachable'),
      },
    }),
    async (c) => {
      c.header('Cache-Control', 'no-store');
      const ok = await Promise.race([
        pingDb(deps.dbh),
        new Promise<boolean>((r) => setTimeout(() => r(false), 2000).unref()),
      ]);
      return ok
        ? c.json({ status: 'ok' as const, db: 'ok' as const }, 200)
        : c.json({ status: 'degraded' as const, db: 'unreachable' as const }, 503);
    },
  );
  return app;
}
