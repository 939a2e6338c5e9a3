import { createRoute } from '@hono/zod-openapi';
import { asc, eq } from 'drizzle-orm';
import {
  adminPackDetailSchema,
  adminProductListQuerySchema,
  adminProductListSchema,
  inventorySchema,
  openInputSchema,
  openingListQuerySchema,
  openingListSchema,
  openingReplayQuerySchema,
  openingReplaySchema,
  openResultSchema,
  packInputSchema,
  packPreviewInputSchema,
  productDetailSchema,
  cardPackOddsSchema,
  cardOddsListSchema,
  cardOddsQuerySchema,
  MAX_CARD_ODDS_IDS,
  productInputSchema,
  productListSchema,
  productPatchSchema,
  productSummarySchema,
  purchaseDetailSchema,
  purchaseInputSchema,
  purchaseResultSchema,
  topPullsQuerySchema,
  topPullsSchema,
} from '../../../shared/contracts/shop.ts';
import type { Tx } from '../../db/client.ts';
import { openings, purchases, userPacks } from '../../db/schema/shop.ts';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import { actorCtx, actorOf, isMfaAdmin, requireAdmin, requireUser, requireVerified } from '../../http/guards.ts';
import { createRouter, errorResponses, jsonContent, z } from '../../http/openapi.ts';
import { requireIdempotencyKey, sendIdempotent, withIdempotency } from '../../lib/idempotency.ts';
import { PULL_THRESHOLDS_KEY, setting } from '../settings/store.ts';
import { adminProduct, createProduct, deleteProduct, getAdminPack, listAdminProducts, previewPack, updatePack, updateProduct } from './admin.ts';
import { listLiveProducts, packsForCard, packsForCards, listOpenings, openingsDto, openingsForReplay, productDetail, productWithPack, refsFor, topPulls } from './read.ts';
import { forgetProductGuesses } from './one-statement-open.ts';
import { onInvalidate } from '../realtime/invalidation.ts';
import { auditedRefusals, staffRole } from '../audit/duties.ts';
import { inventory, purchasePacks } from './service.ts';
import { openForActor, retryingRunner } from './open.ts';

const idParams = z.object({ id: z.string().uuid('Not a valid id.') });
const body = <T extends z.ZodType>(schema: T) => ({ required: true, content: { 'application/json': { schema } } });

export function shopRoutes(deps: Deps) {
  const app = createRouter();
  const { db } = deps;
  const run = retryingRunner(deps);
  onInvalidate(deps, 'products', forgetProductGuesses);

  // Public ---------------------------------------------------------------------------------------

  app.openapi(
    createRoute({
      method: 'get',
      path: '/shop/products',
      tags: ['shop'],
      summary: 'Live products, featured first, with price, value range and sold-out state',
      responses: { 200: jsonContent(productListSchema, 'Products'), ...errorResponses },
    }),
    async (c) => c.json({ items: await listLiveProducts(db) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/cards/{id}/packs',
      tags: ['shop'],
      summary: 'The live packs that can give this card, with the odds per slot',
      request: { params: idParams },
      responses: { 200: jsonContent(cardPackOddsSchema, 'Packs and odds'), ...errorResponses },
    }),
    async (c) => c.json(await packsForCard(db, c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/shop/card-odds',
      tags: ['shop'],
      summary: `The live packs that can give each of these cards (?ids=a,b, up to ${MAX_CARD_ODDS_IDS}), with the odds`,
      request: { query: cardOddsQuerySchema },
      responses: { 200: jsonContent(cardOddsListSchema, 'Packs and odds per card'), ...errorResponses },
    }),
    async (c) => {
      const ids = c.req.valid('query').ids;
      const byCard = await packsForCards(db, ids);
      return c.json({ cards: ids.map((cardId) => ({ cardId, packs: byCard.get(cardId) ?? [] })) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/shop/products/{id}',
      tags: ['shop'],
      summary: 'A live product: odds per slot and per card, value range, best recent pulls',
      request: { params: idParams },
      responses: { 200: jsonContent(productDetailSchema, 'Product'), ...errorResponses },
    }),
    async (c) => {
      // Drafts and archived products: only for an admin whose session passed two-factor.
      return c.json(await productDetail(db, c.req.valid('param').id, { includeUnlisted: isMfaAdmin(c.get('actor')) }), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/top-pulls',
      tags: ['shop'],
      summary: 'Highest-value pulls in the last 24 hours, 7 days or all time, at or above the top-pull threshold',
      request: { query: topPullsQuerySchema },
      responses: { 200: jsonContent(topPullsSchema, 'Top pulls'), ...errorResponses },
    }),
    async (c) => {
      const q = c.req.valid('query');
      // The same back-office threshold as the live ticker, so the list never fills with commons.
      return c.json(await topPulls(db, q.window, q.limit, setting(PULL_THRESHOLDS_KEY).topPullMinCents), 200);
    },
  );

  // Buying and opening --------------------------------------------------------------------------

  app.openapi(
    createRoute({
      method: 'post',
      path: '/shop/purchases',
      tags: ['shop'],
      summary: 'Buy 1–10 packs into your inventory (verified email, Idempotency-Key)',
      middleware: [requireVerified] as const,
      request: { body: body(purchaseInputSchema) },
      responses: { 201: jsonContent(purchaseResultSchema, 'Bought'), ...errorResponses },
    }),
    async (c) => {
      const actor = actorOf(c);
      const key = requireIdempotencyKey(c);
      const input = c.req.valid('json');
      const r = await withIdempotency(
        db,
        { userId: actor.userId, key, scope: 'POST /api/shop/purchases', body: input },
        async (tx: Tx) => ({ status: 201 as const, body: await purchasePacks(tx, actor, input, key) }),
        run,
      );
      return sendIdempotent(c, r);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/shop/open',
      tags: ['shop'],
      summary: 'Open your packs ({packIds}) or buy and open ({productId, quantity}); the result is settled before it is returned',
      middleware: [requireVerified] as const,
      request: { body: body(openInputSchema) },
      responses: { 201: jsonContent(openResultSchema, 'Opened'), ...errorResponses },
    }),
    async (c) => {
      const actor = actorOf(c);
      const key = requireIdempotencyKey(c);
      const r = await openForActor(deps, run, actor, c.req.valid('json'), key);
      return sendIdempotent(c, r);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/shop/inventory',
      tags: ['shop'],
      summary: 'Your unopened packs, oldest first',
      middleware: [requireUser] as const,
      responses: { 200: jsonContent(inventorySchema, 'Unopened packs'), ...errorResponses },
    }),
    async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await inventory(db, actorOf(c).userId), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/shop/purchases/{id}',
      tags: ['shop'],
      summary: 'One of your purchases with its packs and openings (admins: anyone’s)',
      middleware: [requireUser] as const,
      request: { params: idParams },
      responses: { 200: jsonContent(purchaseDetailSchema, 'Purchase'), ...errorResponses },
    }),
    async (c) => {
      const actor = actorOf(c);
      const isAdmin = isMfaAdmin(actor);
      const [p] = await db.select().from(purchases).where(eq(purchases.id, c.req.valid('param').id));
      if (!p || (p.userId !== actor.userId && !isAdmin)) throw notFound('No purchase with this id.');
      const row = await productWithPack(db, p.productId);
      const [packRows, openingRows] = await Promise.all([
        db.select().from(userPacks).where(eq(userPacks.purchaseId, p.id)).orderBy(asc(userPacks.createdAt), asc(userPacks.id)),
        db.select().from(openings).where(eq(openings.purchaseId, p.id)).orderBy(asc(openings.nonce)),
      ]);
      const list = await openingsDto(db, openingRows);
      const productName = row?.p.name ?? '';
      return c.json(
        {
          purchase: {
            id: p.id,
            productId: p.productId,
            productName,
            quantity: p.quantity,
            unitPriceCents: p.unitPriceCents,
            totalCents: p.totalCents,
            ledgerEntryId: p.ledgerEntryId,
            createdAt: p.createdAt.toISOString(),
          },
          packs: packRows.map((u) => ({
            id: u.id,
            purchaseId: u.purchaseId,
            productId: u.productId,
            productName,
            productImageUrl: row?.p.imageKey ? `/api/uploads/${row.p.imageKey}-full.webp` : null,
            cardsPerPack: u.slots.length,
            priceCents: p.unitPriceCents,
            soldOut: false,
            createdAt: u.createdAt.toISOString(),
            openingId: u.openedAt ? u.openingId : null,
            openedAt: u.openedAt?.toISOString() ?? null,
          })),
          openings: list,
          refs: await refsFor(db, list.flatMap((o) => o.cards)),
        },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/shop/openings',
      tags: ['shop'],
      summary: 'Your openings, newest first, with their fairness records',
      middleware: [requireUser] as const,
      request: { query: openingListQuerySchema },
      responses: { 200: jsonContent(openingListSchema, 'Openings'), ...errorResponses },
    }),
    async (c) => {
      const q = c.req.valid('query');
      return c.json(await listOpenings(db, actorOf(c).userId, q.page, q.pageSize), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/shop/openings/replay',
      tags: ['shop'],
      summary: 'Your openings by id (?ids=a,b, up to 10), in that order, to replay their reveal',
      middleware: [requireUser] as const,
      request: { query: openingReplayQuerySchema },
      responses: { 200: jsonContent(openingReplaySchema, 'Openings'), ...errorResponses },
    }),
    async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await openingsForReplay(db, actorOf(c).userId, c.req.valid('query').ids), 200);
    },
  );

  // Admin ----------------------------------------------------------------------------------------

  const ctx = (c: Parameters<typeof actorOf>[0]) => actorCtx(c, deps.config.trustProxy);
  // Price and odds writes need the role and currency: the owner's bounds bind the others (ADR 0024).
  const shopActor = (c: Parameters<typeof actorOf>[0]) => ({ ...ctx(c), role: staffRole(c), currency: deps.config.currency });
  /** Runs a price or odds write; a refusal under the owner's bounds is audited `<action>.refused`. */
  const refusals = <T,>(c: Parameters<typeof actorOf>[0], action: string, targetType: string, targetId: string | null, after: unknown, fn: () => Promise<T>) =>
    auditedRefusals(c, db, { actor: { userId: ctx(c).actorId }, action, targetType, targetId, ip: ctx(c).ip, after }, fn);

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/products',
      tags: ['admin shop'],
      summary: 'Products with search, status filter, sorting and pages',
      middleware: [requireAdmin] as const,
      request: { query: adminProductListQuerySchema },
      responses: { 200: jsonContent(adminProductListSchema, 'Products'), ...errorResponses },
    }),
    async (c) => c.json(await listAdminProducts(db, c.req.valid('query')), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/admin/products',
      tags: ['admin shop'],
      summary: 'Create a product (without packId: with a new empty pack)',
      middleware: [requireAdmin] as const,
      request: { body: body(productInputSchema) },
      responses: { 201: jsonContent(z.object({ product: productSummarySchema }), 'Created'), ...errorResponses },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const product = await refusals(c, 'product.create', 'product', null, input, () => createProduct(deps, shopActor(c), input));
      return c.json({ product }, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/products/{id}',
      tags: ['admin shop'],
      summary: 'One product with its pack statistics',
      middleware: [requireAdmin] as const,
      request: { params: idParams },
      responses: { 200: jsonContent(z.object({ product: productSummarySchema }), 'Product'), ...errorResponses },
    }),
    async (c) => c.json({ product: await adminProduct(db, c.req.valid('param').id) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/admin/products/{id}',
      tags: ['admin shop'],
      summary: 'Update a product (audited)',
      middleware: [requireAdmin] as const,
      request: { params: idParams, body: body(productPatchSchema) },
      responses: { 200: jsonContent(z.object({ product: productSummarySchema }), 'Updated'), ...errorResponses },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const patch = c.req.valid('json');
      const product = await refusals(c, 'product.update', 'product', id, patch, () => updateProduct(deps, shopActor(c), id, patch));
      return c.json({ product }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/admin/products/{id}',
      tags: ['admin shop'],
      summary: 'Delete a product that was never sold (otherwise archive it)',
      middleware: [requireAdmin] as const,
      request: { params: idParams },
      responses: { 204: { description: 'Deleted' }, ...errorResponses },
    }),
    async (c) => {
      await deleteProduct(db, ctx(c), c.req.valid('param').id);
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/admin/packs/preview',
      tags: ['admin shop'],
      summary: 'Statistics of an unsaved pack (floor, EV, ceiling, house edge, warnings)',
      middleware: [requireAdmin] as const,
      request: { body: body(packPreviewInputSchema) },
      responses: { 200: jsonContent(adminPackDetailSchema, 'Preview'), ...errorResponses },
    }),
    async (c) => c.json(await previewPack(db, c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/packs/{id}',
      tags: ['admin shop'],
      summary: 'A pack: odds, pool, statistics and warnings',
      middleware: [requireAdmin] as const,
      request: { params: idParams },
      responses: { 200: jsonContent(adminPackDetailSchema, 'Pack'), ...errorResponses },
    }),
    async (c) => c.json(await getAdminPack(db, c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/admin/packs/{id}',
      tags: ['admin shop'],
      summary: 'Replace a pack’s odds and pool (audited; packs already bought keep the odds they were sold with)',
      middleware: [requireAdmin] as const,
      request: { params: idParams, body: body(packInputSchema) },
      responses: { 200: jsonContent(adminPackDetailSchema, 'Updated'), ...errorResponses },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const input = c.req.valid('json');
      return c.json(await refusals(c, 'pack.update', 'pack', id, input, () => updatePack(deps, shopActor(c), id, input)), 200);
    },
  );

  return app;
}
