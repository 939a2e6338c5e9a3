import { createRoute } from '@hono/zod-openapi';
import { adminSettingsSchema, settingEntrySchema, settingUpdateSchema } from '../../../shared/contracts/settings.ts';
import type { Deps } from '../../deps.ts';
import { actorCtx, actorOf, requireAdmin } from '../../http/guards.ts';
import { auditedRefusals } from '../audit/duties.ts';
import { createRouter, errorResponses, jsonContent, z } from '../../http/openapi.ts';
import { listSettings, updateSetting } from './registry-service.ts';
import { attachProcessSettings } from './store.ts';

/**
 * /api/admin/settings: the registry's settings (ADR 0016). Building the router makes this app's
 * deps the process's settings source (cache loaded now, refreshed over the bus).
 * Every key needs an MFA admin; the owner-only ones (everything that creates or moves money, the
 * site's identity, and the bounds on admins themselves: `ownerOnly` in the registry, ADR 0024)
 * answer 403 owner_role_required to a plain admin, audited as `settings.update.refused`.
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
      const ctx = actorCtx(c, config.trustProxy);
      // An admin's try at an owner-only (money or identity) setting is refused and recorded.
      const entry = await auditedRefusals(c, deps.db, { actor: { userId: ctx.actorId }, action: 'settings.update', targetType: 'app_setting', targetId: key, ip: ctx.ip, after: { value } }, () =>
        updateSetting(deps, actorOf(c), ctx, key, value),
      );
      return c.json(entry, 200);
    },
  );

  return app;
}
