import { createRoute } from '@hono/zod-openapi';
import { idSchema } from '../../../shared/contracts/catalog.ts';
import { stockMovementListSchema, stockMovementQuerySchema, stockReconcileSchema } from '../../../shared/contracts/inventory.ts';
import { eq } from 'drizzle-orm';
import { cards } from '../catalog/tables.ts';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import { requireAdmin } from '../../http/guards.ts';
import { createRouter, errorResponses, jsonContent, z } from '../../http/openapi.ts';
import { listMovements, reconcileStock } from './service.ts';

/** Stock history of a card and the stock half of the books, for admins. */
export function inventoryRoutes(deps: Deps) {
  const app = createRouter();
  const { db } = deps;

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/cards/{id}/stock-movements',
      tags: ['inventory'],
      summary: "A card's stock movements, newest first (every take, return, adjustment and move of a copy)",
      middleware: [requireAdmin] as const,
      request: { params: z.object({ id: idSchema }), query: stockMovementQuerySchema },
      responses: { 200: jsonContent(stockMovementListSchema, 'A page of movements'), ...errorResponses },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { page, pageSize } = c.req.valid('query');
      const [card] = await db.select({ id: cards.id }).from(cards).where(eq(cards.id, id));
      if (!card) throw notFound('No card with this id.');
      return c.json(await listMovements(db, id, page, pageSize), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/inventory/reconcile',
      tags: ['inventory'],
      summary: "Every card's movements explain its stock, and stock + copies out of stock = what was supplied",
      middleware: [requireAdmin] as const,
      responses: { 200: jsonContent(stockReconcileSchema, 'The stock check'), ...errorResponses },
    }),
    async (c) => c.json(await reconcileStock(db), 200),
  );

  return app;
}
