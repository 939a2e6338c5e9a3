import { createRoute } from '@hono/zod-openapi';
import type { Deps } from '../../deps.ts';
import { requireAdmin } from '../../http/guards.ts';
import { createRouter, errorResponses, jsonContent } from '../../http/openapi.ts';
import { auditListQuerySchema, auditListSchema } from '../../../shared/contracts/audit.ts';
import { listAudit } from './service.ts';

/** GET /api/admin/audit — the audit log behind /admin/history. */
export function auditRoutes(deps: Deps) {
  const app = createRouter();
  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/audit',
      tags: ['admin'],
      summary: 'Audit log',
      middleware: [requireAdmin] as const,
      request: { query: auditListQuerySchema },
      responses: { 200: jsonContent(auditListSchema, 'Entries, newest first'), ...errorResponses },
    }),
    async (c) => c.json(await listAudit(deps.db, c.req.valid('query')), 200),
  );
  return app;
}
