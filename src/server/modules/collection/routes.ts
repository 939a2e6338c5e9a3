import { createRoute } from '@hono/zod-openapi';
import { idSchema } from '../../../shared/contracts/catalog.ts';
import { collectionPageSchema, collectionQuerySchema, ownedCardDetailSchema } from '../../../shared/contracts/collection.ts';
import type { Deps } from '../../deps.ts';
import { actorOf, requireUser } from '../../http/guards.ts';
import { createRouter, errorResponses, jsonContent, z } from '../../http/openapi.ts';
import { getOwnedCard, listCollection } from './service.ts';

/** The signed-in user's vault (/collect). */
export function collectionRoutes(deps: Deps) {
  const app = createRouter();
  const { db } = deps;

  app.openapi(
    createRoute({
      method: 'get',
      path: '/collection',
      tags: ['collection'],
      summary: "The signed-in user's owned cards (filters, search, sort, pages) and the vault's total value",
      middleware: [requireUser] as const,
      request: { query: collectionQuerySchema },
      responses: { 200: jsonContent(collectionPageSchema, 'A page of owned cards'), ...errorResponses },
    }),
    async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await listCollection(db, actorOf(c).userId, c.req.valid('query')), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/collection/{ownedCardId}',
      tags: ['collection'],
      summary: 'One of your owned cards: how and when it was acquired, its opening (for the proof), its sale',
      middleware: [requireUser] as const,
      request: { params: z.object({ ownedCardId: idSchema }) },
      responses: { 200: jsonContent(ownedCardDetailSchema, 'Owned card'), ...errorResponses },
    }),
    async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await getOwnedCard(db, actorOf(c).userId, c.req.valid('param').ownedCardId), 200);
    },
  );

  return app;
}
