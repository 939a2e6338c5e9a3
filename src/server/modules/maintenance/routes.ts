import { createRoute } from '@hono/zod-openapi';
import { adminMaintenanceSchema, maintenanceInputSchema, maintenanceStateSchema } from '../../../shared/contracts/maintenance.ts';
import type { Deps } from '../../deps.ts';
import { actorCtx, requireAdmin, requireOwner } from '../../http/guards.ts';
import { createRouter, errorResponses, jsonContent } from '../../http/openapi.ts';
import { currentMaintenance, readAdminMaintenance, setMaintenance } from './service.ts';

/** GET /api/maintenance (public), GET/PUT /api/admin/maintenance (admins read, owners switch). */
export function maintenanceRoutes(deps: Deps) {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/maintenance',
      tags: ['maintenance'],
      summary: 'Whether the shop is down for maintenance, its message and expected end (answers during maintenance)',
      responses: { 200: jsonContent(maintenanceStateSchema, 'State') },
    }),
    async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await currentMaintenance(deps), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/maintenance',
      tags: ['maintenance'],
      summary: 'The maintenance switch as stored, with who switched it last',
      middleware: [requireAdmin] as const,
      responses: { 200: jsonContent(adminMaintenanceSchema, 'State'), ...errorResponses },
    }),
    async (c) => c.json(await readAdminMaintenance(deps.db), 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/admin/maintenance',
      tags: ['maintenance'],
      summary: 'Owner: switch maintenance on (message, expected end) or off; audited, every process within a second',
      middleware: [requireAdmin, requireOwner] as const,
      request: { body: { required: true, content: { 'application/json': { schema: maintenanceInputSchema } } } },
      responses: { 200: jsonContent(adminMaintenanceSchema, 'State'), ...errorResponses },
    }),
    async (c) => c.json(await setMaintenance(deps, actorCtx(c, deps.config.trustProxy), c.req.valid('json')), 200),
  );

  return app;
}
