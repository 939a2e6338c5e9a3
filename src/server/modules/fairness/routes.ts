import { createRoute } from '@hono/zod-openapi';
import { clientSeedInputSchema, openingDetailSchema, poolSnapshotSchema, rotateResultSchema, seedsSchema } from '../../../shared/contracts/shop.ts';
import type { Deps } from '../../deps.ts';
import { actorOf, isMfaAdmin, requireUser } from '../../http/guards.ts';
import { createRouter, errorResponses, jsonContent, z } from '../../http/openapi.ts';
import type { DbOrTx } from '../../db/client.ts';
import { getPool, getSeeds, rotateSeed, setClientSeed } from './service.ts';

/** An opening's proof data as the viewer may see it (404 otherwise): the shop's `getOpening`. */
export type OpeningReader = (db: DbOrTx, id: string, viewer: { userId: string; isAdmin: boolean }) => Promise<z.infer<typeof openingDetailSchema>>;

/**
 * Provably fair: the user's seed pair, rotation, and the proof data of openings. Openings are the
 * shop's, which sits above fairness, so modules/index.ts hands in their reader (issue 42).
 */
export function fairnessRoutes(deps: Deps, { getOpening }: { getOpening: OpeningReader }) {
  const app = createRouter();
  const { db } = deps;

  app.openapi(
    createRoute({
      method: 'get',
      path: '/fairness/seeds',
      tags: ['fairness'],
      summary: 'Your active seed pair (server seed hash only) and your revealed past seeds',
      middleware: [requireUser] as const,
      responses: { 200: jsonContent(seedsSchema, 'Seeds'), ...errorResponses },
    }),
    async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await getSeeds(db, actorOf(c).userId), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/fairness/seeds/client',
      tags: ['fairness'],
      summary: 'Set your client seed (the nonce keeps counting)',
      middleware: [requireUser] as const,
      request: { body: { required: true, content: { 'application/json': { schema: clientSeedInputSchema } } } },
      responses: { 200: jsonContent(seedsSchema, 'Seeds'), ...errorResponses },
    }),
    async (c) => c.json(await setClientSeed(db, actorOf(c).userId, c.req.valid('json').clientSeed), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/fairness/seeds/rotate',
      tags: ['fairness'],
      summary: 'Reveal your current server seed and start a new one',
      middleware: [requireUser] as const,
      responses: { 200: jsonContent(rotateResultSchema, 'Rotated'), ...errorResponses },
    }),
    async (c) => c.json(await rotateSeed(db, actorOf(c).userId), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/fairness/openings/{id}',
      tags: ['fairness'],
      summary: 'An opening with its proof (the server seed once rotated)',
      middleware: [requireUser] as const,
      request: { params: z.object({ id: z.string().uuid('Not a valid id.') }) },
      responses: { 200: jsonContent(openingDetailSchema, 'Opening'), ...errorResponses },
    }),
    async (c) => {
      const actor = actorOf(c);
      const isAdmin = isMfaAdmin(actor);
      return c.json(await getOpening(db, c.req.valid('param').id, { userId: actor.userId, isAdmin }), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/fairness/pools/{hash}',
      tags: ['fairness'],
      summary: 'The class pools (sorted card ids) an opening drew from',
      request: { params: z.object({ hash: z.string().regex(/^[a-f0-9]{64}$/, 'Not a pool hash.') }) },
      responses: { 200: jsonContent(poolSnapshotSchema, 'Pool'), ...errorResponses },
    }),
    async (c) => {
      c.header('Cache-Control', 'public, max-age=31536000, immutable');
      return c.json(await getPool(db, c.req.valid('param').hash), 200);
    },
  );

  return app;
}
