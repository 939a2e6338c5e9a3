import { createRoute } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import {
  adjustBalanceSchema,
  adjustLimitsSchema,
  adjustLimitsViewSchema,
  adminBalanceSchema,
  balanceSchema,
  historyPageSchema,
  historyQuerySchema,
  limitsSchema,
  selfExcludeSchema,
  updateLimitsSchema,
} from '../../../shared/contracts/wallet.ts';
import type { DbOrTx } from '../../db/client.ts';
import { user } from '../auth/tables.ts';
import type { Deps } from '../../deps.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { actorOf, requireAdmin, requireOwner, requireUser } from '../../http/guards.ts';
import { createRouter, errorResponses, jsonContent, z } from '../../http/openapi.ts';
import { clientIp } from '../../http/security.ts';
import { requireIdempotencyKey, sendIdempotent, withIdempotency } from '../../lib/idempotency.ts';
import { audit, auditRefusal } from '../audit/service.ts';
import { activeSelfExclusion, getLimits, selfExclude, updateLimits } from '../responsible-play/service.ts';
import { adjustLimitsView, assertAdjustAllowed, selfDealingError, setAdjustLimits } from './adjust-policy.ts';
import { credit, debit, getBalance, historyCsv, listHistory, lockBalance } from './service.ts';

const userIdParams = z.object({ id: z.string().min(1).max(100) });

async function userLabel(db: DbOrTx, id: string): Promise<string> {
  const [u] = await db.select({ username: user.username, email: user.email }).from(user).where(eq(user.id, id));
  if (!u) throw notFound('No user with this id.');
  return `${u.username} (${u.email})`;
}

function csvResponse(csv: string, filename: string) {
  return new Response(csv, {
    status: 200,
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${filename}"`,
      'Cache-Control': 'no-store',
    },
  });
}

const csvResponseDoc = {
  description: 'CSV file',
  content: { 'text/csv': { schema: z.string() } },
};

/**
 * Balance, history, responsible-play settings, and the admin balance tools.
 * Deposits live in modules/payments, promo codes in modules/promo.
 */
export function walletRoutes(deps: Deps) {
  const app = createRouter();
  const { db, config } = deps;

  app.openapi(
    createRoute({
      method: 'get',
      path: '/wallet/balance',
      tags: ['wallet'],
      summary: "The signed-in user's balance",
      middleware: [requireUser] as const,
      responses: { 200: jsonContent(balanceSchema, 'Balance'), ...errorResponses },
    }),
    async (c) => {
      const actor = actorOf(c);
      const [b, excluded] = await Promise.all([getBalance(db, actor.userId), activeSelfExclusion(db, actor.userId)]);
      c.header('Cache-Control', 'no-store');
      return c.json(
        {
          balanceCents: b.balanceCents,
          heldCents: b.heldCents,
          currency: config.currency,
          updatedAt: b.updatedAt?.toISOString() ?? null,
          selfExcludedUntil: excluded?.endsAt.toISOString() ?? null,
        },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/wallet/history',
      tags: ['wallet'],
      summary: 'Ledger entries of the signed-in user (filter by kind and dates, paginated)',
      middleware: [requireUser] as const,
      request: { query: historyQuerySchema },
      responses: { 200: jsonContent(historyPageSchema, 'A page of entries'), ...errorResponses },
    }),
    async (c) => {
      const actor = actorOf(c);
      return c.json(await listHistory(db, actor.userId, c.req.valid('query')), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/wallet/history.csv',
      tags: ['wallet'],
      summary: 'The filtered ledger of the signed-in user as CSV',
      middleware: [requireUser] as const,
      request: { query: historyQuerySchema },
      responses: { 200: csvResponseDoc, ...errorResponses },
    }),
    async (c) => {
      const actor = actorOf(c);
      const csv = await historyCsv(db, actor.userId, c.req.valid('query'), config.currency);
      return csvResponse(csv, `packvault-history-${new Date().toISOString().slice(0, 10)}.csv`) as never;
    },
  );

  // Responsible play ----------------------------------------------------------------------------

  app.openapi(
    createRoute({
      method: 'get',
      path: '/wallet/limits',
      tags: ['responsible play'],
      summary: 'Deposit limits, usage and self-exclusion',
      middleware: [requireUser] as const,
      responses: { 200: jsonContent(limitsSchema, 'Limits'), ...errorResponses },
    }),
    async (c) => c.json(await getLimits(db, actorOf(c).userId), 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/wallet/limits',
      tags: ['responsible play'],
      summary: 'Set deposit limits (lower: at once; higher or removed: after 24 hours)',
      middleware: [requireUser] as const,
      request: { body: { required: true, content: { 'application/json': { schema: updateLimitsSchema } } } },
      responses: { 200: jsonContent(limitsSchema, 'Limits'), ...errorResponses },
    }),
    async (c) => {
      const userId = actorOf(c).userId;
      const limits = await db.transaction(async (tx) => {
        // Same lock as deposits, so a limit change and a deposit cannot interleave.
        await lockBalance(tx, userId);
        return updateLimits(tx, userId, c.req.valid('json'));
      });
      return c.json(limits, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/wallet/self-exclusion',
      tags: ['responsible play'],
      summary: 'Exclude yourself from deposits and purchases (24h, 7d, 30d, 6m); cannot be shortened',
      middleware: [requireUser] as const,
      request: { body: { required: true, content: { 'application/json': { schema: selfExcludeSchema } } } },
      responses: { 200: jsonContent(limitsSchema, 'Limits with the exclusion'), ...errorResponses },
    }),
    async (c) => {
      const actor = actorOf(c);
      const limits = await selfExclude(db, actor.userId, c.req.valid('json').duration);
      return c.json(limits, 200);
    },
  );

  // Admin -----------------------------------------------------------------------------------------

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/users/{id}/balance',
      tags: ['admin wallet'],
      summary: "A user's balance and recent entries",
      middleware: [requireAdmin] as const,
      request: { params: userIdParams },
      responses: { 200: jsonContent(adminBalanceSchema, 'Balance'), ...errorResponses },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const label = await userLabel(db, id);
      const [b, recent] = await Promise.all([getBalance(db, id), listHistory(db, id, { page: 1, pageSize: 10 })]);
      return c.json({ userId: id, userLabel: label, balanceCents: b.balanceCents, currency: config.currency, recent: recent.entries }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/admin/users/{id}/balance/adjust',
      tags: ['admin wallet'],
      summary: 'Adjust a balance (signed cents, required reason; audited; never below zero). Needs Idempotency-Key.',
      middleware: [requireAdmin] as const,
      request: {
        params: userIdParams,
        body: { required: true, content: { 'application/json': { schema: adjustBalanceSchema } } },
      },
      responses: {
        200: jsonContent(z.object({ balanceCents: z.number().int(), entryId: z.string() }), 'Adjusted'),
        ...errorResponses,
      },
    }),
    async (c) => {
      const actor = actorOf(c);
      const key = requireIdempotencyKey(c);
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      await userLabel(db, id);
      const ip = clientIp(c, config.trustProxy);
      const refused = (err: unknown) => {
        if (!(err instanceof AppError) || (err.code !== 'self_dealing' && err.code !== 'owner_required')) return;
        return auditRefusal(db, c.get('log'), {
          actorId: actor.userId,
          action: 'wallet.adjust',
          targetType: 'user',
          targetId: id,
          code: err.code,
          message: err.message,
          after: { amountCents: body.amountCents, reason: body.reason },
          ip,
        });
      };
      if (id === actor.userId) {
        const err = selfDealingError('adjust the balance of');
        await refused(err);
        throw err;
      }
      const r = await withIdempotency(
        db,
        { userId: actor.userId, key, scope: `POST /api/admin/users/${id}/balance/adjust`, body },
        async (tx) => {
          await assertAdjustAllowed(tx, actor, id, body.amountCents, config.currency);
          const before = await getBalance(tx, id);
          const move = {
            userId: id,
            amountCents: Math.abs(body.amountCents),
            kind: 'admin_adjustment' as const,
            referenceType: 'admin_action',
            referenceId: actor.userId,
            actorId: actor.userId,
            memo: body.reason,
          };
          const moved = body.amountCents > 0 ? await credit(tx, move) : await debit(tx, move);
          await audit(tx, {
            actorId: actor.userId,
            action: 'wallet.adjust',
            targetType: 'user',
            targetId: id,
            before: { balanceCents: before.balanceCents },
            after: { balanceCents: moved.balanceCents, amountCents: body.amountCents, reason: body.reason, entryId: moved.entryId },
            ip,
          });
          return { status: 200 as const, body: { balanceCents: moved.balanceCents, entryId: moved.entryId } };
        },
        (fn) => deps.db.transaction(fn),
      ).catch(async (err: unknown) => {
        await refused(err);
        throw err;
      });
      return sendIdempotent(c, r);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/wallet/adjust-limits',
      tags: ['admin wallet'],
      summary: "The adjustment limits (single, daily), the hard maximum, and the caller's total in the last 24 hours",
      middleware: [requireAdmin] as const,
      responses: { 200: jsonContent(adjustLimitsViewSchema, 'Limits'), ...errorResponses },
    }),
    async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await adjustLimitsView(db, actorOf(c)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/admin/wallet/adjust-limits',
      tags: ['admin wallet'],
      summary: 'Set the adjustment limits above which an admin needs the owner (owner only; audited)',
      middleware: [requireAdmin, requireOwner] as const,
      request: { body: { required: true, content: { 'application/json': { schema: adjustLimitsSchema } } } },
      responses: { 200: jsonContent(adjustLimitsViewSchema, 'Limits'), ...errorResponses },
    }),
    async (c) => {
      const actor = actorOf(c);
      const ip = clientIp(c, config.trustProxy);
      await db.transaction((tx) => setAdjustLimits(tx, { actorId: actor.userId, ip }, c.req.valid('json')));
      return c.json(await adjustLimitsView(db, actor), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/users/{id}/history',
      tags: ['admin wallet'],
      summary: "A user's full ledger (filter by kind and dates, paginated)",
      middleware: [requireAdmin] as const,
      request: { params: userIdParams, query: historyQuerySchema },
      responses: { 200: jsonContent(historyPageSchema.extend({ userLabel: z.string() }), 'A page of entries'), ...errorResponses },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const label = await userLabel(db, id);
      return c.json({ ...(await listHistory(db, id, c.req.valid('query'))), userLabel: label }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/users/{id}/history.csv',
      tags: ['admin wallet'],
      summary: "A user's filtered ledger as CSV",
      middleware: [requireAdmin] as const,
      request: { params: userIdParams, query: historyQuerySchema },
      responses: { 200: csvResponseDoc, ...errorResponses },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      await userLabel(db, id);
      const csv = await historyCsv(db, id, c.req.valid('query'), config.currency);
      return csvResponse(csv, `packvault-history-${id}-${new Date().toISOString().slice(0, 10)}.csv`) as never;
    },
  );

  return app;
}
