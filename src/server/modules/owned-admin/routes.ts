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
import { actorOf, requireAdmin } from '../../http/guards.ts';
import { createRouter, errorResponses, jsonContent, z } from '../../http/openapi.ts';
import { clientIp } from '../../http/security.ts';
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
      const ctx = { actorId: actor.userId, ip: clientIp(c, config.trustProxy) };
      const result = await db.transaction((tx) => grantCard(tx, ctx, c.req.valid('json')));
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
      const ctx = { actorId: actor.userId, ip: clientIp(c, config.trustProxy) };
      const { id } = c.req.valid('param');
      const result = await db.transaction((tx) => revokeCard(tx, ctx, id, c.req.valid('json').reason));
      return c.json(result, 200);
    },
  );

  return app;
}
