import { createRoute } from '@hono/zod-openapi';
import { idSchema } from '../../../shared/contracts/catalog.ts';
import {
  adminOwnedListSchema,
  adminOwnedQuerySchema,
  adminOwnedResultSchema,
  grantCardSchema,
  revokeCardSchema,
} from '../../../shared/contracts/collection.ts';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import { actorOf, requireAdmin } from '../../http/guards.ts';
import { createRouter, errorResponses, jsonContent, z } from '../../http/openapi.ts';
import { clientIp } from '../../http/security.ts';
import { auditRefusal } from '../audit/service.ts';
import { grantCard, listOwned, revokeCard } from './service.ts';

const json = <T>(schema: T) => ({ required: true, content: { 'application/json': { schema } } });

/** /admin/owned: every owned card across users; grant from stock and revoke back to stock. */
export function ownedAdminRoutes(deps: Deps) {
  const app = createRouter();
  const { db, config } = deps;

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/owned',
      tags: ['admin owned cards'],
      summary: 'Every owned card across users (filter by status, class, card, owner)',
      middleware: [requireAdmin] as const,
      request: { query: adminOwnedQuerySchema },
      responses: { 200: jsonContent(adminOwnedListSchema, 'A page of owned cards'), ...errorResponses },
    }),
    async (c) => c.json(await listOwned(db, c.req.valid('query')), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/admin/owned/grant',
      tags: ['admin owned cards'],
      summary: "Grant a card from stock to a user's vault (stock − 1; reason required; audited)",
      middleware: [requireAdmin] as const,
      request: { body: json(grantCardSchema) },
      responses: { 201: jsonContent(adminOwnedResultSchema, 'Granted'), ...errorResponses },
    }),
    async (c) => {
      const actor = actorOf(c);
      const ctx = { actorId: actor.userId, ip: clientIp(c, config.trustProxy), role: actor.role, currency: config.currency };
      const input = c.req.valid('json');
      const result = await db.transaction((tx) => grantCard(tx, ctx, input)).catch(async (err: unknown) => {
        if (err instanceof AppError && (err.code === 'self_dealing' || err.code === 'owner_required')) {
          await auditRefusal(db, c.get('log'), {
            actorId: ctx.actorId,
            ip: ctx.ip,
            action: 'owned.grant',
            targetType: 'card',
            targetId: input.cardId,
            code: err.code,
            message: err.message,
            after: { user: input.user, reason: input.reason },
          });
        }
        throw err;
      });
      return c.json(result, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/admin/owned/{id}/revoke',
      tags: ['admin owned cards'],
      summary: 'Take a vault card back into stock (stock + 1; reason required; audited)',
      middleware: [requireAdmin] as const,
      request: { params: z.object({ id: idSchema }), body: json(revokeCardSchema) },
      responses: { 200: jsonContent(adminOwnedResultSchema, 'Revoked'), ...errorResponses },
    }),
    async (c) => {
      const actor = actorOf(c);
      const ctx = { actorId: actor.userId, ip: clientIp(c, config.trustProxy), role: actor.role, currency: config.currency };
      const { id } = c.req.valid('param');
      const { reason } = c.req.valid('json');
      const result = await db.transaction((tx) => revokeCard(tx, ctx, id, reason)).catch(async (err: unknown) => {
        if (err instanceof AppError && err.code === 'self_dealing') {
          await auditRefusal(db, c.get('log'), {
            actorId: ctx.actorId,
            ip: ctx.ip,
            action: 'owned.revoke',
            targetType: 'owned_card',
            targetId: id,
            code: err.code,
            message: err.message,
            after: { reason },
          });
        }
        throw err;
      });
      return c.json(result, 200);
    },
  );

  return app;
}
