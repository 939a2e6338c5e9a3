import { createRoute } from '@hono/zod-openapi';
import { reconcileSchema } from '../../../shared/contracts/books.ts';
import type { Deps } from '../../deps.ts';
import { requireAdmin } from '../../http/guards.ts';
import { createRouter, errorResponses, jsonContent } from '../../http/openapi.ts';
import { reconcileStock } from '../inventory/service.ts';
import { moneyChecks, reconcile, type BooksCheckFn } from '../wallet/books.ts';

/**
 * Every check of the books, money and stock: each module that keeps books adds its checks here
 * (one function per check, answering { name, ok, details }).
 */
const stock: BooksCheckFn = async (db) => {
  const r = await reconcileStock(db);
  return { name: 'stock', ok: r.ok, details: r.details };
};

export const booksChecks: readonly BooksCheckFn[] = [...moneyChecks, stock];

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
      return c.json(await reconcile(deps.db, booksChecks), 200);
    },
  );

  return app;
}
