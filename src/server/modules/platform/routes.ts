import { createRoute } from '@hono/zod-openapi';
import type { Deps } from '../../deps.ts';
import { createRouter, jsonContent, z } from '../../http/openapi.ts';
import { expectedDsn } from '../monitoring/routes.ts';

export const publicConfigSchema = z
  .object({
    siteName: z.string(),
    currency: z.string(),
    monitoringDsn: z.string(),
    environment: z.string(),
  })
  .openapi('PublicConfig');

/** GET /api/config — the few settings the browser needs before anything else. */
export function platformRoutes(deps: Deps) {
  const app = createRouter();
  app.openapi(
    createRoute({
      method: 'get',
      path: '/config',
      tags: ['platform'],
      summary: 'Public site configuration',
      responses: { 200: jsonContent(publicConfigSchema, 'Site configuration') },
    }),
    (c) =>
      c.json(
        {
          siteName: deps.config.siteName,
          currency: deps.config.currency,
          monitoringDsn: expectedDsn(deps),
          environment: deps.config.env,
        },
        200,
      ),
  );
  return app;
}
