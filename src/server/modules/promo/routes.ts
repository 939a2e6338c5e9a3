import { createRoute } from '@hono/zod-openapi';
import {
  createPromoSchema,
  pendingBonusSchema,
  promoDetailSchema,
  promoListSchema,
  promoSchema,
  redeemPromoResponseSchema,
  redeemPromoSchema,
  updatePromoSchema,
} from '../../../shared/contracts/wallet.ts';
import type { Deps } from '../../deps.ts';
import { actorCtx, actorOf, requireAdmin, requireUser, requireVerified } from '../../http/guards.ts';
import { auditedRefusals, staffRole } from '../audit/duties.ts';
import { createRouter, errorResponses, jsonContent, z } from '../../http/openapi.ts';
import { requireIdempotencyKey, sendIdempotent, withIdempotency } from '../../lib/idempotency.ts';
import { enforceRateLimit } from '../../lib/rate-limit.ts';
import { createPromo, getPromoDetail, listPromos, pendingBonus, redeemPromo, updatePromo } from './service.ts';

const promoParams = z.object({ id: z.uuid('Not a promo code id.') });
export const REDEEM_ATTEMPTS = 30;
export const REDEEM_WINDOW_SECONDS = 600;

/** Redemption for users; /api/admin/promo for admins. */
export function promoRoutes(deps: Deps) {
  const app = createRouter();
  const { db, config } = deps;

  app.openapi(
    createRoute({
      method: 'post',
      path: '/wallet/promo/redeem',
      tags: ['promo'],
      summary: 'Redeem a promo code. Needs Idempotency-Key and a verified email.',
      middleware: [requireVerified] as const,
      request: { body: { required: true, content: { 'application/json': { schema: redeemPromoSchema } } } },
      responses: { 200: jsonContent(redeemPromoResponseSchema, 'Redeemed'), ...errorResponses },
    }),
    async (c) => {
      const actor = actorOf(c);
      const key = requireIdempotencyKey(c);
      const body = c.req.valid('json');
      // Codes are guessable words: cap attempts per account so they cannot be enumerated.
      await enforceRateLimit(deps.dbh, `promo-redeem:${actor.userId}`, REDEEM_ATTEMPTS, REDEEM_WINDOW_SECONDS);
      const r = await withIdempotency(
        db,
        { userId: actor.userId, key, scope: 'POST /api/wallet/promo/redeem', body: { code: body.code.toUpperCase() } },
        async (tx) => ({
          status: 200 as const,
          body: await redeemPromo(tx, { userId: actor.userId, code: body.code, currency: config.currency }),
        }),
        (fn) => deps.db.transaction(fn),
      );
      return sendIdempotent(c, r);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/wallet/promo/pending',
      tags: ['promo'],
      summary: 'A deposit bonus waiting for your next deposit, if any',
      middleware: [requireUser] as const,
      responses: { 200: jsonContent(z.object({ pendingBonus: pendingBonusSchema }), 'Waiting bonus'), ...errorResponses },
    }),
    async (c) => c.json({ pendingBonus: await pendingBonus(db, actorOf(c).userId) }, 200),
  );

  // Admin ----------------------------------------------------------------------------------------

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/promo',
      tags: ['admin promo'],
      summary: 'Every promo code with its usage count',
      middleware: [requireAdmin] as const,
      responses: { 200: jsonContent(promoListSchema, 'Promo codes'), ...errorResponses },
    }),
    async (c) => c.json({ promos: await listPromos(db) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/admin/promo',
      tags: ['admin promo'],
      summary: 'Create a promo code (unique ignoring case; audited)',
      middleware: [requireAdmin] as const,
      request: { body: { required: true, content: { 'application/json': { schema: createPromoSchema } } } },
      responses: { 201: jsonContent(z.object({ promo: promoSchema }), 'Created'), ...errorResponses },
    }),
    async (c) => {
      const ctx = { ...actorCtx(c, config.trustProxy), role: staffRole(c), currency: config.currency };
      const body = c.req.valid('json');
      const promo = await auditedRefusals(c, db, { actor: { userId: ctx.actorId }, action: 'promo.create', targetType: 'promo_code', ip: ctx.ip, after: body }, () =>
        db.transaction((tx) => createPromo(tx, ctx, body)),
      );
      return c.json({ promo }, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/promo/{id}',
      tags: ['admin promo'],
      summary: 'A promo code and its redemptions',
      middleware: [requireAdmin] as const,
      request: { params: promoParams },
      responses: { 200: jsonContent(promoDetailSchema, 'Promo code'), ...errorResponses },
    }),
    async (c) => c.json(await getPromoDetail(db, c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/promo/{id}/redemptions',
      tags: ['admin promo'],
      summary: 'Who redeemed a promo code',
      middleware: [requireAdmin] as const,
      request: { params: promoParams },
      responses: {
        200: jsonContent(promoDetailSchema.pick({ redemptions: true }), 'Redemptions'),
        ...errorResponses,
      },
    }),
    async (c) => c.json({ redemptions: (await getPromoDetail(db, c.req.valid('param').id)).redemptions }, 200),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/admin/promo/{id}',
      tags: ['admin promo'],
      summary: 'Edit or deactivate a promo code (audited); code and kind are fixed',
      middleware: [requireAdmin] as const,
      request: {
        params: promoParams,
        body: { required: true, content: { 'application/json': { schema: updatePromoSchema } } },
      },
      responses: { 200: jsonContent(z.object({ promo: promoSchema }), 'Updated'), ...errorResponses },
    }),
    async (c) => {
      const ctx = { ...actorCtx(c, config.trustProxy), role: staffRole(c), currency: config.currency };
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      const promo = await auditedRefusals(c, db, { actor: { userId: ctx.actorId }, action: 'promo.update', targetType: 'promo_code', targetId: id, ip: ctx.ip, after: body }, () =>
        db.transaction((tx) => updatePromo(tx, ctx, id, body)),
      );
      return c.json({ promo }, 200);
    },
  );

  return app;
}
