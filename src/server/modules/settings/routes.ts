import { createRoute } from '@hono/zod-openapi';
import { adminSettingsSchema, settingEntrySchema, settingUpdateSchema } from '../../../shared/contracts/settings.ts';
import type { Deps } from '../../deps.ts';
import { actorCtx, actorOf, requireAdmin } from '../../http/guards.ts';
import { createRouter, errorResponses, jsonContent, z } from '../../http/openapi.ts';
import { listSettings, updateSetting } from './registry-service.ts';
import { attachProcessSettings } from './store.ts';

/**
 * /api/admin/settings: the registry's settings (ADR 0016). Building the router makes this app's
 * deps the process's settings source (cache loaded now, refreshed over the bus).
 * Every key needs an MFA admin; the owner-only ones (the admin adjustment limits, which bound
 * what admins themselves may move) answer 403 owner_role_required to a plain admin.
 */
export function settingsRoutes(deps: Deps) {
  attachProcessSettings(deps);
  const app = createRouter();
  const { config } = deps;

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/settings',
      tags: ['settings'],
      summary: 'Every setting with its label, help, group and default, and the latest changes',
      middleware: [requireAdmin] as const,
      responses: { 200: jsonContent(adminSettingsSchema, 'Settings'), ...errorResponses },
    }),
    async (c) => c.json(await listSettings(deps, actorOf(c)), 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/admin/settings/{key}',
      tags: ['settings'],
      summary: 'Change one setting (validated by its schema; audited with before and after; every process picks it up)',
      middleware: [requireAdmin] as const,
      request: {
        params: z.object({ key: z.string().max(100) }),
        body: { required: true, content: { 'application/json': { schema: settingUpdateSchema } } },
      },
      responses: { 200: jsonContent(settingEntrySchema, 'The setting as it now is'), ...errorResponses },
    }),
    async (c) => {
      const { key } = c.req.valid('param');
      const { value } = c.req.valid('json');
      return c.json(await updateSetting(deps, actorOf(c), actorCtx(c, config.trustProxy), key, value), 200);
    },
  );

  return app;
}
