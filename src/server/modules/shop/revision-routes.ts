import { createRoute } from '@hono/zod-openapi';
import { oddsRevisionListSchema, oddsRevisionSchema } from '../../../shared/contracts/odds.ts';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import { createRouter, errorResponses, jsonContent, z } from '../../http/openapi.ts';
import { getRevision, listRevisions } from './revisions.ts';

/**
 * Public: every product's odds revisions (issue 44). Anyone may read them, signed in or not; a
 * revision is immutable, so its answer is cached for good.
 */
export function revisionRoutes(deps: Deps) {
  const app = createRouter();
  const { db } = deps;

  app.openapi(
    createRoute({
      method: 'get',
      path: '/fairness/products/{id}/revisions',
      tags: ['fairness'],
      summary: "A product's odds revisions, newest first (the current one is published before it is listed)",
      request: { params: z.object({ id: z.string().uuid('Not a valid id.') }) },
      responses: { 200: jsonContent(oddsRevisionListSchema, 'Revisions'), ...errorResponses },
    }),
    async (c) => {
      c.header('Cache-Control', 'public, max-age=30');
      return c.json(await listRevisions(db, c.req.valid('param').id), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/fairness/revisions/{hash}',
      tags: ['fairness'],
      summary: 'One odds revision with its class pools in full: enough to recompute its hash',
      request: { params: z.object({ hash: z.string().max(200) }) },
      responses: { 200: jsonContent(oddsRevisionSchema, 'Revision'), ...errorResponses },
    }),
    async (c) => {
      const { hash } = c.req.valid('param');
      if (!/^[a-f0-9]{64}$/.test(hash)) throw notFound('A revision hash is 64 lowercase hexadecimal characters; this is not one.');
      const rev = await getRevision(db, hash);
      c.header('Cache-Control', 'public, max-age=31536000, immutable');
      return c.json(rev, 200);
    },
  );

  return app;
}
