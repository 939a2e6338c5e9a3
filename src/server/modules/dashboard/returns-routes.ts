import { createRoute } from '@hono/zod-openapi';
import { returnsSchema } from '../../../shared/contracts/odds.ts';
import type { Deps } from '../../deps.ts';
import { createRouter, errorResponses, jsonContent } from '../../http/openapi.ts';
import { publicReturns } from './returns.ts';

/** Public: promised against realised returns per product and odds revision (issue 44). */
export function returnsRoutes(deps: Deps) {
  const app = createRouter();
  app.openapi(
    createRoute({
      method: 'get',
      path: '/fairness/returns',
      tags: ['fairness'],
      summary: 'Promised and realised returns per product and odds revision, from the rollups (updated every few minutes)',
      responses: { 200: jsonContent(returnsSchema, 'Returns'), ...errorResponses },
    }),
    async (c) => {
      c.header('Cache-Control', 'public, max-age=60');
      return c.json(await publicReturns(deps.db), 200);
    },
  );
  return app;
}
