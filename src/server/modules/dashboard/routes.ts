import { createRoute } from '@hono/zod-openapi';
import { dashboardQuerySchema, dashboardSchema } from '../../../shared/contracts/dashboard.ts';
import type { Deps } from '../../deps.ts';
import { requireAdmin } from '../../http/guards.ts';
import { createRouter, errorResponses, jsonContent } from '../../http/openapi.ts';
import { getDashboard } from './service.ts';

/** GET /api/admin/dashboard (issue 18): the admin home's one API. */
export function dashboardRoutes(deps: Deps) {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/dashboard',
      tags: ['admin dashboard'],
      summary: 'Key figures against the period before, return to players per product, charts and what needs attention',
      middleware: [requireAdmin] as const,
      request: { query: dashboardQuerySchema },
      responses: { 200: jsonContent(dashboardSchema, 'The dashboard for the chosen period'), ...errorResponses },
    }),
    async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await getDashboard(deps.db, c.req.valid('query')), 200);
    },
  );

  return app;
}
