import { createRoute } from '@hono/zod-openapi';
import {
  adminBuybackListSchema,
  adminBuybackQuerySchema,
  buybackInputSchema,
  buybackQuoteSchema,
  buybackRatesSchema,
  buybackResultSchema,
  updateBuybackRatesSchema,
} from '../../../shared/contracts/collection.ts';
import type { Deps } from '../../deps.ts';
import { actorOf, requireAdmin, requireOwner, requireUser, requireVerified } from '../../http/guards.ts';
import { createRouter, errorResponses, jsonContent } from '../../http/openapi.ts';
import { clientIp } from '../../http/security.ts';
import { requireIdempotencyKey, sendIdempotent, withIdempotency } from '../../lib/idempotency.ts';
import { metricsFor } from '../metrics/metrics.ts';
import { getRates, updateRates } from './rates.ts';
import { listBuybacks, quote, sell } from './service.ts';

const json = <T>(schema: T) => ({ required: true, content: { 'application/json': { schema } } });

/** Selling vault cards back, and the back office's view of every sale and the rates. */
export function buybackRoutes(deps: Deps) {
  const app = createRouter();
  const { db, config } = deps;

  app.openapi(
    createRoute({
      method: 'post',
      path: '/buyback/quote',
      tags: ['buyback'],
      summary: 'What selling these vault cards back pays now (rate × current market value per card)',
      middleware: [requireUser] as const,
      request: { body: json(buybackInputSchema) },
      responses: { 200: jsonContent(buybackQuoteSchema, 'Quote'), ...errorResponses },
    }),
    async (c) => {
      const actor = actorOf(c);
      c.header('Cache-Control', 'no-store');
      return c.json(await quote(db, actor.userId, c.req.valid('json')), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/buyback',
      tags: ['buyback'],
      summary:
        'Sell vault cards back: credited at once, copies return to stock. All or nothing (409 not_in_vault). Needs Idempotency-Key.',
      middleware: [requireVerified] as const,
      request: { body: json(buybackInputSchema) },
      responses: { 201: jsonContent(buybackResultSchema, 'Sold'), ...errorResponses },
    }),
    async (c) => {
      const actor = actorOf(c);
      const key = requireIdempotencyKey(c);
      const body = c.req.valid('json');
      const r = await withIdempotency(
        db,
        { userId: actor.userId, key, scope: 'POST /api/buyback', body },
        async (tx) => ({ status: 201 as const, body: await sell(tx, actor.userId, body, { idempotencyKey: key, deps }) }),
        (fn) => deps.db.transaction(fn),
      );
      if (!r.replayed && r.status === 201) metricsFor(deps).buybackPaid();
      return sendIdempotent(c, r);
    },
  );

  // Admin -----------------------------------------------------------------------------------------

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/buybacks',
      tags: ['admin buyback'],
      summary: 'Every buyback (user, cards, rate, amount, time) with filters, totals and daily totals',
      middleware: [requireAdmin] as const,
      request: { query: adminBuybackQuerySchema },
      responses: { 200: jsonContent(adminBuybackListSchema, 'A page of buybacks'), ...errorResponses },
    }),
    async (c) => c.json(await listBuybacks(db, c.req.valid('query')), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/buyback/rates',
      tags: ['admin buyback'],
      summary: 'The default buyback rate and every class override (basis points)',
      middleware: [requireAdmin] as const,
      responses: { 200: jsonContent(buybackRatesSchema, 'Rates'), ...errorResponses },
    }),
    async (c) => c.json(await getRates(db), 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/admin/buyback/rates',
      tags: ['admin buyback'],
      summary: 'Set the default rate and class overrides (null = use the default; owner only). Audited.',
      middleware: [requireAdmin, requireOwner] as const,
      request: { body: json(updateBuybackRatesSchema) },
      responses: { 200: jsonContent(buybackRatesSchema, 'Rates'), ...errorResponses },
    }),
    async (c) => {
      const actor = actorOf(c);
      const ip = clientIp(c, config.trustProxy);
      const rates = await db.transaction((tx) => updateRates(tx, { actorId: actor.userId, ip }, c.req.valid('json')));
      return c.json(rates, 200);
    },
  );

  return app;
}
