import { createRoute } from '@hono/zod-openapi';
import { reconcileSchema } from '../../../shared/contracts/books.ts';
import type { Deps } from '../../deps.ts';
import { requireAdmin } from '../../http/guards.ts';
import { createRouter, errorResponses, jsonContent } from '../../http/openapi.ts';
import { reconcileAndStore } from './service.ts';

export { booksChecks } from './service.ts';

export function booksRoutes(deps: Deps) {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/books/reconcile',
      tags: ['admin books'],
      summary: 'Prove the books: every entry sums to zero, every cached balance equals its postings, no wallet below zero, every card\'s stock equals its movements',
      middleware: [requireAdmin] as const,
      responses: { 200: jsonContent(reconcileSchema, 'The checks and how long they took'), ...errorResponses },
    }),
    async (c) => {
      c.header('Cache-Control', 'no-store');
      // Each manual run is also the latest stored one the dashboard shows.
      return c.json(await reconcileAndStore(deps.db), 200);
    },
  );

  return app;
}
