import { createRoute } from '@hono/zod-openapi';
import { idSchema } from '../../../shared/contracts/catalog.ts';
import {
  adminMarketListingPageSchema,
  adminMarketListingSchema,
  adminMarketListingsQuerySchema,
  adminMarketSummaryQuerySchema,
  adminMarketSummarySchema,
  adminMarketTradePageSchema,
  adminMarketTradesQuerySchema,
  adminRemoveListingSchema,
} from '../../../shared/contracts/market-admin.ts';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import { actorOf, requireAdmin } from '../../http/guards.ts';
import { createRouter, errorResponses, jsonContent, z } from '../../http/openapi.ts';
import { clientIp } from '../../http/security.ts';
import { auditRefusal } from '../audit/service.ts';
import { adminListings, adminTrades, marketSummary, removeListing } from './admin.ts';
import { marketRunner } from './routes.ts';

const json = <T>(schema: T) => ({ required: true, content: { 'application/json': { schema } } });

/** /admin/market (issue 43 item 7): listings and trades with filters, the market's figures, removing a listing with a reason. */
export function marketAdminRoutes(deps: Deps) {
  const app = createRouter();
  const { db, config } = deps;
  const run = marketRunner(deps);

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/market/listings',
      tags: ['admin market'],
      summary: 'Every listing, newest first (filter by state, card name, seller, listing date), with its seller, buyer and open offers',
      middleware: [requireAdmin] as const,
      request: { query: adminMarketListingsQuerySchema },
      responses: { 200: jsonContent(adminMarketListingPageSchema, 'A page of listings'), ...errorResponses },
    }),
    async (c) => c.json(await adminListings(db, c.req.valid('query')), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/market/trades',
      tags: ['admin market'],
      summary: 'Every trade between collectors, newest first (sold listings, accepted card offers and swaps; filter by card, buyer or seller, date)',
      middleware: [requireAdmin] as const,
      request: { query: adminMarketTradesQuerySchema },
      responses: { 200: jsonContent(adminMarketTradePageSchema, 'A page of trades'), ...errorResponses },
    }),
    async (c) => c.json(await adminTrades(db, c.req.valid('query')), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/market/summary',
      tags: ['admin market'],
      summary: 'The market now (active listings, open offers and their holds) and over a period (days `from`–`to`, the last 30 by default): sales, volume, fee revenue',
      middleware: [requireAdmin] as const,
      request: { query: adminMarketSummaryQuerySchema },
      responses: { 200: jsonContent(adminMarketSummarySchema, 'The figures'), ...errorResponses },
    }),
    async (c) => c.json(await marketSummary(db, c.req.valid('query')), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/admin/market/listings/{id}/remove',
      tags: ['admin market'],
      summary:
        "Take a listing off the market with a reason the seller is told: the card goes back to their vault, open offers close and their money is released; audited. 409 listing_closed; 403 self_dealing (your own or a referred account's listing, or a card you are selling too).",
      middleware: [requireAdmin] as const,
      request: { params: z.object({ id: idSchema }), body: json(adminRemoveListingSchema) },
      responses: { 200: jsonContent(adminMarketListingSchema, 'Removed'), ...errorResponses },
    }),
    async (c) => {
      const actor = actorOf(c);
      const { id } = c.req.valid('param');
      const { reason } = c.req.valid('json');
      const ip = clientIp(c, config.trustProxy);
      const out = await run((tx) => removeListing(tx, { actorId: actor.userId, ip, deps }, id, reason)).catch(async (err: unknown) => {
        if (err instanceof AppError && err.code === 'self_dealing') {
          await auditRefusal(db, c.get('log'), {
            actorId: actor.userId,
            ip,
            action: 'market.listing.remove',
            targetType: 'market_listing',
            targetId: id,
            code: err.code,
            message: err.message,
            after: { reason },
          });
        }
        throw err;
      });
      return c.json(out, 200);
    },
  );

  return app;
}
