import { createRoute } from '@hono/zod-openapi';
import { reconcileSchema } from '../../../shared/contracts/books.ts';
import type { Deps } from '../../deps.ts';
import { requireAdmin } from '../../http/guards.ts';
import { createRouter, errorResponses, jsonContent } from '../../http/openapi.ts';
import { moneyChecks, reconcile, type BooksCheckFn } from '../wallet/books.ts';

/**
 * Every check of the books, money and stock: each module that keeps books adds its checks here
 * (one function per check, answering { name, ok, details }).
 */
export const booksChecks: readonly BooksCheckFn[] = [...moneyChecks];

export function booksRoutes(deps: Deps) {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/books/reconcile',
      tags: ['admin books'],
      summary: 'Prove the books: every entry sums to zero, every cached balance equals its postings, no wallet below zero',
      middleware: [requireAdmin] as const,
      responses: { 200: jsonContent(reconcileSchema, 'The checks and how long they took'), ...errorResponses },
    }),
    async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await reconcile(deps.db, booksChecks), 200);
    },
  );

  return app;
}
