import { createRoute } from '@hono/zod-openapi';
import type { Deps } from '../../deps.ts';
import { createRouter, jsonContent, z } from '../../http/openapi.ts';
import { expectedDsn } from '../monitoring/routes.ts';
import { publicSettings } from '../settings/registry-service.ts';

export const publicConfigSchema = z
  .object({
    siteName: z.string(),
    /** Where players write to (settings registry 'site.identity'). */
    supportEmail: z.string(),
    currency: z.string(),
    monitoringDsn: z.string(),
    environment: z.string(),
  })
  .openapi('PublicConfig');

/**
 * GET /api/config — the few settings the browser needs before anything else; the site name and
 * support email are the settings registry's public ones (cached, so this stays cheap).
 */
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
          ...publicSettings(),
          currency: deps.config.currency,
          monitoringDsn: expectedDsn(deps),
          environment: deps.config.env,
        },
        200,
      ),
  );
  return app;
}
