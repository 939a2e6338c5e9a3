import { createRoute } from '@hono/zod-openapi';
import { idSchema } from '../../../shared/contracts/catalog.ts';
import { binderItemSchema, binderPageSchema, bindersQuerySchema, marketSwapPageSchema, marketSwapSchema, proposeSwapSchema, swapsQuerySchema } from '../../../shared/contracts/market.ts';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import { actorOf, requireUser, requireVerified } from '../../http/guards.ts';
import { createRouter, errorResponses, jsonContent, z } from '../../http/openapi.ts';
import { enforceOfferRate, marketActions } from './routes.ts';
import { acceptSwap, addToBinder, answerSwap, closeStaleSwap, expireSwapsDue, getSwap, listBinder, listSwaps, proposeSwap, removeFromBinder } from './swaps.ts';

const json = <T>(schema: T) => ({ required: true, content: { 'application/json': { schema } } });
const swapParam = z.object({ swapId: idSchema });
const copyParam = z.object({ ownedCardId: idSchema });

/**
 * Trade binders and swaps (issue 43 item 4, ADR 0032). Mounted before marketRoutes, whose
 * `/market/{id}` would otherwise take `/market/binder` and `/market/swaps` for listing ids.
 */
export function swapRoutes(deps: Deps) {
  const app = createRouter();
  const { db } = deps;
  const { transact, idempotent, expiring } = marketActions(deps);
  const expire = (opts: { swapId?: string; userId?: string }) => expiring((ctx) => expireSwapsDue(db, { ...opts, ctx }));

  // ───────────────────────── binders ─────────────────────────

  app.openapi(
    createRoute({
      method: 'get',
      path: '/market/binder',
      tags: ['market'],
      summary: 'Your trade binder: the vault copies you opened to swap proposals (only those still in your vault, unlisted)',
      middleware: [requireUser] as const,
      request: { query: bindersQuerySchema },
      responses: { 200: jsonContent(binderPageSchema, 'Your binder'), ...errorResponses },
    }),
    async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await listBinder(db, { ...c.req.valid('query'), ownerId: actorOf(c).userId }), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/market/binder/{ownedCardId}',
      tags: ['market'],
      summary: 'Open a vault copy of yours to swap proposals (idempotent). 404 not yours; 409 listed, invalid_card_state (not in the vault).',
      middleware: [requireVerified] as const,
      request: { params: copyParam },
      responses: { 200: jsonContent(binderItemSchema, 'In your binder'), ...errorResponses },
    }),
    async (c) => c.json(await addToBinder(db, actorOf(c).userId, c.req.valid('param').ownedCardId), 200),
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/market/binder/{ownedCardId}',
      tags: ['market'],
      summary: 'Take a copy out of your binder (idempotent). Open swaps for it stay open and settle only if it is still in your vault.',
      middleware: [requireUser] as const,
      request: { params: copyParam },
      responses: { 204: { description: 'Out of your binder' }, ...errorResponses },
    }),
    async (c) => {
      await removeFromBinder(db, actorOf(c).userId, c.req.valid('param').ownedCardId);
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/market/binders',
      tags: ['market'],
      summary: "Other collectors' trade binders: copies open to swap proposals, of one card (cardId) or matching a name (q), newest first",
      middleware: [requireUser] as const,
      request: { query: bindersQuerySchema },
      responses: { 200: jsonContent(binderPageSchema, 'Copies open to trade'), ...errorResponses },
    }),
    async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await listBinder(db, { ...c.req.valid('query'), exceptUserId: actorOf(c).userId }), 200);
    },
  );

  // ───────────────────────── swaps ─────────────────────────

  const swapPage = (side: 'made' | 'received', path: string, summary: string) =>
    app.openapi(
      createRoute({
        method: 'get',
        path,
        tags: ['market'],
        summary,
        middleware: [requireUser] as const,
        request: { query: swapsQuerySchema },
        responses: { 200: jsonContent(marketSwapPageSchema, 'A page of swaps'), ...errorResponses },
      }),
      async (c) => {
        const actor = actorOf(c);
        await expire({ userId: actor.userId });
        c.header('Cache-Control', 'no-store');
        return c.json(await listSwaps(db, actor.userId, side, c.req.valid('query')), 200);
      },
    );
  swapPage('made', '/market/swaps/mine', 'Swaps you proposed, newest first');
  swapPage('received', '/market/swaps/received', 'Swaps proposed to you (for cards in your binder), newest first');

  app.openapi(
    createRoute({
      method: 'get',
      path: '/market/swaps/{swapId}',
      tags: ['market'],
      summary: 'One swap (its two collectors only)',
      middleware: [requireUser] as const,
      request: { params: swapParam },
      responses: { 200: jsonContent(marketSwapSchema, 'Swap'), ...errorResponses },
    }),
    async (c) => {
      const { swapId } = c.req.valid('param');
      await expire({ swapId });
      c.header('Cache-Control', 'no-store');
      return c.json(await getSwap(db, actorOf(c).userId, swapId), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/market/swaps',
      tags: ['market'],
      summary:
        "Propose a swap: your vaulted, unlisted copies (give) for copies in one collector's binder (want), with cash either way (cashCents > 0 you pay it, held at once; < 0 they pay it). 404, 409 listed, invalid_card_state, insufficient_funds; 403 self_dealing, self_excluded; 429. Needs Idempotency-Key.",
      middleware: [requireVerified] as const,
      request: { body: json(proposeSwapSchema) },
      responses: { 201: jsonContent(marketSwapSchema, 'Proposed'), ...errorResponses },
    }),
    async (c) => {
      const actor = actorOf(c);
      const body = c.req.valid('json');
      await enforceOfferRate(deps, actor.userId);
      return idempotent(c, 'POST /api/market/swaps', body, (tx, ctx) => proposeSwap(tx, ctx, actor.userId, body));
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/market/swaps/{swapId}/accept',
      tags: ['market'],
      summary:
        'Accept a swap proposed to you: every card changes hands and the cash moves at once, or nothing does. 409 swap_closed, swap_stale (a card moved: the swap closes), insufficient_funds; 403 self_excluded, self_dealing. Needs Idempotency-Key.',
      middleware: [requireVerified] as const,
      request: { params: swapParam },
      responses: { 201: jsonContent(marketSwapSchema, 'Swapped'), ...errorResponses },
    }),
    async (c) => {
      const actor = actorOf(c);
      const { swapId } = c.req.valid('param');
      await expire({ swapId });
      try {
        return await idempotent(c, `POST /api/market/swaps/${swapId}/accept`, {}, (tx, ctx) => acceptSwap(tx, ctx, actor.userId, swapId));
      } catch (err) {
        // Nothing moved (rolled back); the swap can never settle now, so it closes and its hold goes back.
        if (err instanceof AppError && err.code === 'swap_stale') await expiring((ctx) => closeStaleSwap(db, ctx, swapId, actor.userId));
        throw err;
      }
    },
  );

  const answer = (action: 'decline' | 'cancel', summary: string) =>
    app.openapi(
      createRoute({
        method: 'post',
        path: `/market/swaps/{swapId}/${action}`,
        tags: ['market'],
        summary,
        middleware: [requireUser] as const,
        request: { params: swapParam },
        responses: { 200: jsonContent(marketSwapSchema, 'Swap'), ...errorResponses },
      }),
      async (c) => {
        const actor = actorOf(c);
        const { swapId } = c.req.valid('param');
        await expire({ swapId });
        return c.json(await transact((tx, ctx) => answerSwap(tx, ctx, actor.userId, swapId, action)), 200);
      },
    );
  answer('decline', 'Decline a swap proposed to you: any held cash goes back to the proposer. 409 swap_closed.');
  answer('cancel', 'Withdraw a swap you proposed: any held cash comes back to you. 409 swap_closed.');

  return app;
}
