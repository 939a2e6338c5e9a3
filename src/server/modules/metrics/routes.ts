import { createHash, timingSafeEqual } from 'node:crypto';
import { createRoute } from '@hono/zod-openapi';
import type { Deps } from '../../deps.ts';
import { errorBody, notFound, unauthorized } from '../../http/errors.ts';
import { createRouter, errorResponses, z } from '../../http/openapi.ts';
import { metricsFor } from './metrics.ts';

/** Constant-time comparison of two strings of any length (hashed first, so lengths leak nothing). */
function sameToken(given: string, expected: string): boolean {
  const h = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(h(given), h(expected));
}

/**
 * GET /metrics — Prometheus text exposition, for a scraper holding METRICS_TOKEN as a bearer
 * token. Without METRICS_TOKEN the endpoint does not exist (404): nothing is exposed by default.
 */
export function metricsRoutes(deps: Deps) {
  const app = createRouter();
  const token = deps.config.metricsToken;
  app.openAPIRegistry.registerComponent('securitySchemes', 'metricsBearer', { type: 'http', scheme: 'bearer' });
  app.openapi(
    createRoute({
      method: 'get',
      path: '/metrics',
      tags: ['platform'],
      summary: 'Prometheus metrics (bearer METRICS_TOKEN; 404 when METRICS_TOKEN is unset)',
      security: [{ metricsBearer: [] }],
      responses: {
        200: { description: 'Prometheus text format 0.0.4', content: { 'text/plain': { schema: z.string() } } },
        401: errorResponses[401],
        404: errorResponses[404],
      },
    }),
    async (c) => {
      if (!token) return c.json(errorBody(notFound()), 404);
      const given = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1]?.trim() ?? '';
      if (!given || !sameToken(given, token)) {
        c.header('WWW-Authenticate', 'Bearer realm="metrics"');
        return c.json(errorBody(unauthorized('A valid metrics bearer token is required.')), 401);
      }
      const registry = metricsFor(deps).withDefaults();
      const text = await registry.metrics();
      return c.text(text, 200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' });
    },
  );
  return app;
}
