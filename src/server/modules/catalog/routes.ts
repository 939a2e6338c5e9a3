import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import {
  adminCardListQuerySchema,
  architectInputSchema,
  architectListQuerySchema,
  architectPatchSchema,
  architectSchema,
  cardClassSchema,
  cardInputSchema,
  cardPatchSchema,
  cardSchema,
  cardValueHistorySchema,
  classInputSchema,
  classListQuerySchema,
  classPatchSchema,
  csvImportInputSchema,
  csvImportResultSchema,
  idSchema,
  lookClassSchema,
  lookRefsSchema,
  publicCardDetailSchema,
  publicCardListQuerySchema,
  publicCardPageSchema,
  publicSetSchema,
  stockAdjustmentInputSchema,
  stockAdjustmentSchema,
  addSlabsInputSchema,
  slabListSchema,
  slabPatchSchema,
  slabSchema,
  textureInputSchema,
  textureListQuerySchema,
  texturePatchSchema,
  textureSchema,
} from '../../../shared/contracts/catalog.ts';
import type { Deps } from '../../deps.ts';
import { actorCtx, requireAdmin, requireOwner } from '../../http/guards.ts';
import { auditedRefusals, staffRole } from '../audit/duties.ts';
import { heldValueChangeSchema, rejectValueProposalSchema, valueProposalListQuerySchema, valueProposalListSchema, valueProposalSchema } from '../../../shared/contracts/value-proposals.ts';
import { approveValueProposal, listValueProposals, rejectValueProposal } from './value-proposals.ts';
import { createRouter, errorResponses, jsonContent, z } from '../../http/openapi.ts';
import type { AppEnv } from '../../http/types.ts';
import { exportCardsCsv, importCardsCsv } from './csv-import.ts';
import { sendPrepared } from './response-cache.ts';
import { createArchitect, deleteArchitect, getArchitect, listArchitects, setArchitectArchived, updateArchitect } from './architects.ts';
import { PUBLIC_LIST_MAX_AGE_S, connectCatalogCaches } from './cache.ts';
import { addCardSlabs, adjustStock, cardSlabs, createCard, removeCardSlab, updateCardSlab, deleteCard, getAdminCard, getCard, listAdminCards, listAllSets, listStockAdjustments, sampleImageKey, setCardArchived, updateCard, type OnDrawable } from './cards.ts';
import { createClass, deleteClass, getClass, listClasses, setClassArchived, updateClass } from './classes.ts';
import { getPublicCard, listPublicClasses, listPublicSets, publicCardPageResponse } from './public.ts';
import { getValueHistory } from './value-history.ts';
import { createTexture, deleteTexture, getTexture, listTextures, setTextureArchived, updateTexture } from './textures.ts';

const paged = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() });

const idParam = z.object({ id: idSchema });
const admin = [requireAdmin];
const ok = z.object({ ok: z.literal(true) });

const adminCardItemSchema = cardSchema.extend({ effectiveTextureId: z.string().nullable() });

/**
 * The catalog API. Admin routes (/api/admin/catalog/…) need requireAdmin; the public ones
 * (/api/cards, /api/catalog/…) show only what is on sale. `onDrawable` is the shop's: cards back
 * on sale reach wishers through the live products that can draw them, and the catalog sits below
 * the shop, so modules/index.ts hands it in (issue 42).
 */
export function catalogRoutes(deps: Deps, { onDrawable: wishers }: { onDrawable: OnDrawable }) {
  const app = createRouter();
  const db = deps.db;
  const ctxOf = (c: Context<AppEnv>) => actorCtx(c, deps.config.trustProxy);
  // Value and buyback-rate writes need the role and currency: the owner's bounds bind the others (ADR 0024).
  const valueActor = (c: Context<AppEnv>) => ({ ...ctxOf(c), role: staffRole(c), currency: deps.config.currency });
  const refusals = <T,>(c: Context<AppEnv>, action: string, targetId: string | null, after: unknown, fn: () => Promise<T>) => {
    const ctx = ctxOf(c);
    return auditedRefusals(c, db, { actor: { userId: ctx.actorId }, action, targetType: action.startsWith('catalog.class') ? 'card_class' : 'card', targetId, ip: ctx.ip, after }, fn);
  };
  connectCatalogCaches(deps);

  // ───────────── classes ─────────────
  app.openapi(
    createRoute({
      method: 'get', path: '/admin/catalog/classes', tags: ['catalog-admin'], summary: 'List classes', middleware: admin,
      request: { query: classListQuerySchema },
      responses: { 200: jsonContent(paged(cardClassSchema), 'Classes'), ...errorResponses },
    }),
    async (c) => c.json(await listClasses(db, c.req.valid('query')), 200),
  );
  app.openapi(
    createRoute({
      method: 'post', path: '/admin/catalog/classes', tags: ['catalog-admin'], summary: 'Create a class', middleware: admin,
      request: { body: { required: true, content: { 'application/json': { schema: classInputSchema } } } },
      responses: { 201: jsonContent(z.object({ class: cardClassSchema }), 'Created'), ...errorResponses },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const cls = await refusals(c, 'catalog.class.create', null, { buybackRateBp: body.buybackRateBp }, () => createClass(db, valueActor(c), body));
      return c.json({ class: cls }, 201);
    },
  );
  app.openapi(
    createRoute({
      method: 'get', path: '/admin/catalog/classes/{id}', tags: ['catalog-admin'], summary: 'One class', middleware: admin,
      request: { params: idParam },
      responses: { 200: jsonContent(z.object({ class: cardClassSchema }), 'The class'), ...errorResponses },
    }),
    async (c) => c.json({ class: await getClass(db, c.req.valid('param').id) }, 200),
  );
  app.openapi(
    createRoute({
      method: 'patch', path: '/admin/catalog/classes/{id}', tags: ['catalog-admin'], summary: 'Edit a class', middleware: admin,
      request: { params: idParam, body: { required: true, content: { 'application/json': { schema: classPatchSchema } } } },
      responses: { 200: jsonContent(z.object({ class: cardClassSchema }), 'Updated'), ...errorResponses },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      const cls = await refusals(c, 'catalog.class.update', id, { buybackRateBp: body.buybackRateBp }, () => updateClass(db, valueActor(c), id, body));
      return c.json({ class: cls }, 200);
    },
  );
  for (const archived of [true, false]) {
    app.openapi(
      createRoute({
        method: 'post', path: `/admin/catalog/classes/{id}/${archived ? 'archive' : 'restore'}`, tags: ['catalog-admin'],
        summary: archived ? 'Archive a class' : 'Restore an archived class', middleware: admin,
        request: { params: idParam },
        responses: { 200: jsonContent(z.object({ class: cardClassSchema }), 'Updated'), ...errorResponses },
      }),
      async (c) => c.json({ class: await setClassArchived(db, ctxOf(c), c.req.valid('param').id, archived) }, 200),
    );
  }
  app.openapi(
    createRoute({
      method: 'delete', path: '/admin/catalog/classes/{id}', tags: ['catalog-admin'],
      summary: 'Delete a class no card uses (409 otherwise: archive it)', middleware: admin,
      request: { params: idParam },
      responses: { 200: jsonContent(ok, 'Deleted'), ...errorResponses },
    }),
    async (c) => {
      await deleteClass(db, ctxOf(c), c.req.valid('param').id);
      return c.json({ ok: true as const }, 200);
    },
  );

  // ───────────── textures ─────────────
  app.openapi(
    createRoute({
      method: 'get', path: '/admin/catalog/textures', tags: ['catalog-admin'], summary: 'List textures', middleware: admin,
      request: { query: textureListQuerySchema },
      responses: { 200: jsonContent(paged(textureSchema), 'Textures'), ...errorResponses },
    }),
    async (c) => c.json(await listTextures(db, c.req.valid('query')), 200),
  );
  app.openapi(
    createRoute({
      method: 'post', path: '/admin/catalog/textures', tags: ['catalog-admin'], summary: 'Create a texture', middleware: admin,
      request: { body: { required: true, content: { 'application/json': { schema: textureInputSchema } } } },
      responses: { 201: jsonContent(z.object({ texture: textureSchema }), 'Created'), ...errorResponses },
    }),
    async (c) => c.json({ texture: await createTexture(db, ctxOf(c), c.req.valid('json')) }, 201),
  );
  app.openapi(
    createRoute({
      method: 'get', path: '/admin/catalog/textures/{id}', tags: ['catalog-admin'], summary: 'One texture', middleware: admin,
      request: { params: idParam },
      responses: { 200: jsonContent(z.object({ texture: textureSchema }), 'The texture'), ...errorResponses },
    }),
    async (c) => c.json({ texture: await getTexture(db, c.req.valid('param').id) }, 200),
  );
  app.openapi(
    createRoute({
      method: 'patch', path: '/admin/catalog/textures/{id}', tags: ['catalog-admin'], summary: 'Edit a texture', middleware: admin,
      request: { params: idParam, body: { required: true, content: { 'application/json': { schema: texturePatchSchema } } } },
      responses: { 200: jsonContent(z.object({ texture: textureSchema }), 'Updated'), ...errorResponses },
    }),
    async (c) => c.json({ texture: await updateTexture(db, ctxOf(c), c.req.valid('param').id, c.req.valid('json')) }, 200),
  );
  for (const archived of [true, false]) {
    app.openapi(
      createRoute({
        method: 'post', path: `/admin/catalog/textures/{id}/${archived ? 'archive' : 'restore'}`, tags: ['catalog-admin'],
        summary: archived ? 'Archive a texture' : 'Restore an archived texture', middleware: admin,
        request: { params: idParam },
        responses: { 200: jsonContent(z.object({ texture: textureSchema }), 'Updated'), ...errorResponses },
      }),
      async (c) => c.json({ texture: await setTextureArchived(db, ctxOf(c), c.req.valid('param').id, archived) }, 200),
    );
  }
  app.openapi(
    createRoute({
      method: 'delete', path: '/admin/catalog/textures/{id}', tags: ['catalog-admin'],
      summary: 'Delete an unused texture (409 otherwise: archive it)', middleware: admin,
      request: { params: idParam },
      responses: { 200: jsonContent(ok, 'Deleted'), ...errorResponses },
    }),
    async (c) => {
      await deleteTexture(db, ctxOf(c), c.req.valid('param').id);
      return c.json({ ok: true as const }, 200);
    },
  );

  // ───────────── architects ─────────────
  app.openapi(
    createRoute({
      method: 'get', path: '/admin/catalog/architects', tags: ['catalog-admin'], summary: 'List architects', middleware: admin,
      request: { query: architectListQuerySchema },
      responses: { 200: jsonContent(paged(architectSchema), 'Architects'), ...errorResponses },
    }),
    async (c) => c.json(await listArchitects(db, c.req.valid('query')), 200),
  );
  app.openapi(
    createRoute({
      method: 'post', path: '/admin/catalog/architects', tags: ['catalog-admin'], summary: 'Create an architect', middleware: admin,
      request: { body: { required: true, content: { 'application/json': { schema: architectInputSchema } } } },
      responses: { 201: jsonContent(z.object({ architect: architectSchema }), 'Created'), ...errorResponses },
    }),
    async (c) => c.json({ architect: await createArchitect(db, ctxOf(c), c.req.valid('json')) }, 201),
  );
  app.openapi(
    createRoute({
      method: 'get', path: '/admin/catalog/architects/{id}', tags: ['catalog-admin'], summary: 'One architect', middleware: admin,
      request: { params: idParam },
      responses: { 200: jsonContent(z.object({ architect: architectSchema }), 'The architect'), ...errorResponses },
    }),
    async (c) => c.json({ architect: await getArchitect(db, c.req.valid('param').id) }, 200),
  );
  app.openapi(
    createRoute({
      method: 'patch', path: '/admin/catalog/architects/{id}', tags: ['catalog-admin'], summary: 'Edit an architect', middleware: admin,
      request: { params: idParam, body: { required: true, content: { 'application/json': { schema: architectPatchSchema } } } },
      responses: { 200: jsonContent(z.object({ architect: architectSchema }), 'Updated'), ...errorResponses },
    }),
    async (c) => c.json({ architect: await updateArchitect(db, ctxOf(c), c.req.valid('param').id, c.req.valid('json')) }, 200),
  );
  for (const archived of [true, false]) {
    app.openapi(
      createRoute({
        method: 'post', path: `/admin/catalog/architects/{id}/${archived ? 'archive' : 'restore'}`, tags: ['catalog-admin'],
        summary: archived ? 'Archive an architect' : 'Restore an archived architect', middleware: admin,
        request: { params: idParam },
        responses: { 200: jsonContent(z.object({ architect: architectSchema }), 'Updated'), ...errorResponses },
      }),
      async (c) => c.json({ architect: await setArchitectArchived(db, ctxOf(c), c.req.valid('param').id, archived) }, 200),
    );
  }
  app.openapi(
    createRoute({
      method: 'delete', path: '/admin/catalog/architects/{id}', tags: ['catalog-admin'],
      summary: 'Delete an unused architect (409 otherwise: archive it)', middleware: admin,
      request: { params: idParam },
      responses: { 200: jsonContent(ok, 'Deleted'), ...errorResponses },
    }),
    async (c) => {
      await deleteArchitect(db, ctxOf(c), c.req.valid('param').id);
      return c.json({ ok: true as const }, 200);
    },
  );

  // ───────────── cards ─────────────
  app.openapi(
    createRoute({
      method: 'get', path: '/admin/catalog/options', tags: ['catalog-admin'], middleware: admin,
      summary: 'Every non-archived class, architect and texture (for pickers and previews)',
      responses: {
        200: jsonContent(
          z.object({
            classes: z.array(cardClassSchema),
            architects: z.array(architectSchema),
            textures: z.array(textureSchema),
            sets: z.array(publicSetSchema),
            sampleImageKey: z.string().nullable(),
          }),
          'Options',
        ),
        ...errorResponses,
      },
    }),
    async (c) => {
      const [classes, architectList, textureList, sets, sample] = await Promise.all([
        listClasses(db, classListQuerySchema.parse({ pageSize: 100 })),
        listArchitects(db, architectListQuerySchema.parse({ pageSize: 100 })),
        listTextures(db, textureListQuerySchema.parse({ pageSize: 100 })),
        listAllSets(db),
        sampleImageKey(db),
      ]);
      return c.json({ classes: classes.items, architects: architectList.items, textures: textureList.items, sets, sampleImageKey: sample }, 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'get', path: '/admin/catalog/cards', tags: ['catalog-admin'], summary: 'List cards', middleware: admin,
      request: { query: adminCardListQuerySchema },
      responses: { 200: jsonContent(paged(adminCardItemSchema).extend({ refs: lookRefsSchema }), 'Cards'), ...errorResponses },
    }),
    async (c) => c.json(await listAdminCards(db, c.req.valid('query')), 200),
  );
  app.openapi(
    createRoute({
      method: 'get', path: '/admin/catalog/cards/export', tags: ['catalog-admin'],
      summary: 'Cards matching the list filters as CSV (the import format)', middleware: admin,
      request: { query: adminCardListQuerySchema },
      responses: { 200: { description: 'CSV', content: { 'text/csv': { schema: z.string() } } }, ...errorResponses },
    }),
    async (c) => {
      const csv = await exportCardsCsv(db, c.req.valid('query'));
      const date = new Date().toISOString().slice(0, 10);
      return c.body(csv, 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="cards-${date}.csv"`,
        'Cache-Control': 'no-store',
      }) as never;
    },
  );
  app.openapi(
    createRoute({
      method: 'post', path: '/admin/catalog/cards/import', tags: ['catalog-admin'],
      summary: 'Create/update cards from CSV; nothing is written if any row fails', middleware: admin,
      request: { body: { required: true, content: { 'application/json': { schema: csvImportInputSchema } } } },
      responses: {
        200: jsonContent(csvImportResultSchema, 'Imported (or checked, with dryRun)'),
        422: jsonContent(csvImportResultSchema, 'Rows with problems; nothing imported'),
        ...errorResponses,
      },
    }),
    async (c) => {
      const { csv, dryRun } = c.req.valid('json');
      const result = await importCardsCsv(db, valueActor(c), csv, dryRun);
      return result.ok ? c.json(result, 200) : c.json(result, 422);
    },
  );
  app.openapi(
    createRoute({
      method: 'post', path: '/admin/catalog/cards', tags: ['catalog-admin'], summary: 'Create a card', middleware: admin,
      request: { body: { required: true, content: { 'application/json': { schema: cardInputSchema } } } },
      responses: { 201: jsonContent(z.object({ card: cardSchema }), 'Created'), ...errorResponses },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const card = await refusals(c, 'catalog.card.create', null, { name: body.name, valueCents: body.valueCents }, () => createCard(db, valueActor(c), body, wishers));
      return c.json({ card }, 201);
    },
  );
  app.openapi(
    createRoute({
      method: 'get', path: '/admin/catalog/cards/{id}', tags: ['catalog-admin'], summary: 'One card, with its look and recent stock changes',
      middleware: admin,
      request: { params: idParam },
      responses: {
        200: jsonContent(
          z.object({ card: adminCardItemSchema, refs: lookRefsSchema, adjustments: paged(stockAdjustmentSchema) }),
          'The card',
        ),
        ...errorResponses,
      },
    }),
    async (c) => c.json(await getAdminCard(db, c.req.valid('param').id), 200),
  );
  app.openapi(
    createRoute({
      method: 'patch', path: '/admin/catalog/cards/{id}', tags: ['catalog-admin'], summary: 'Edit a card (stock changes go through /stock)',
      middleware: admin,
      request: { params: idParam, body: { required: true, content: { 'application/json': { schema: cardPatchSchema } } } },
      responses: {
        200: jsonContent(
          z.object({ card: cardSchema, valueProposal: heldValueChangeSchema.optional() }),
          'Updated. With valueProposal, the value change waits for the owner and the card kept its value.',
        ),
        ...errorResponses,
      },
    }),
    async (c) => {
      const { card, held } = await updateCard(db, valueActor(c), c.req.valid('param').id, c.req.valid('json'), wishers);
      return c.json(held ? { card, valueProposal: held } : { card }, 200);
    },
  );
  for (const archived of [true, false]) {
    app.openapi(
      createRoute({
        method: 'post', path: `/admin/catalog/cards/{id}/${archived ? 'archive' : 'restore'}`, tags: ['catalog-admin'],
        summary: archived ? 'Archive a card (takes it off sale)' : 'Restore an archived card (stays inactive)', middleware: admin,
        request: { params: idParam },
        responses: { 200: jsonContent(z.object({ card: cardSchema }), 'Updated'), ...errorResponses },
      }),
      async (c) => c.json({ card: await setCardArchived(db, ctxOf(c), c.req.valid('param').id, archived) }, 200),
    );
  }
  app.openapi(
    createRoute({
      method: 'delete', path: '/admin/catalog/cards/{id}', tags: ['catalog-admin'],
      summary: 'Delete a card with no stock and no references (409 otherwise: archive it)', middleware: admin,
      request: { params: idParam },
      responses: { 200: jsonContent(ok, 'Deleted'), ...errorResponses },
    }),
    async (c) => {
      await deleteCard(db, ctxOf(c), c.req.valid('param').id);
      return c.json({ ok: true as const }, 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'post', path: '/admin/catalog/cards/{id}/stock', tags: ['catalog-admin'], summary: 'Adjust stock with a reason',
      middleware: admin,
      request: { params: idParam, body: { required: true, content: { 'application/json': { schema: stockAdjustmentInputSchema } } } },
      responses: { 200: jsonContent(z.object({ card: cardSchema, adjustment: stockAdjustmentSchema }), 'Adjusted'), ...errorResponses },
    }),
    async (c) => c.json(await adjustStock(db, ctxOf(c), c.req.valid('param').id, c.req.valid('json'), wishers), 200),
  );
  app.openapi(
    createRoute({
      method: 'get', path: '/admin/catalog/cards/{id}/stock', tags: ['catalog-admin'], summary: 'Stock change history',
      middleware: admin,
      request: {
        params: idParam,
        query: z.object({ page: z.coerce.number().int().min(1).default(1), pageSize: z.coerce.number().int().min(1).max(100).default(25) }),
      },
      responses: { 200: jsonContent(paged(stockAdjustmentSchema), 'Adjustments'), ...errorResponses },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { page, pageSize } = c.req.valid('query');
      await getCard(db, id);
      return c.json(await listStockAdjustments(db, id, page, pageSize), 200);
    },
  );

  // ───────────── slabs of a graded card (issue 38) ─────────────
  const slabParam = z.object({ id: idSchema, slabId: idSchema });
  app.openapi(
    createRoute({
      method: 'get', path: '/admin/catalog/cards/{id}/slabs', tags: ['catalog-admin'], summary: "A graded card's slabs: each physical copy, its certificate and where it is",
      middleware: admin,
      request: { params: idParam },
      responses: { 200: jsonContent(slabListSchema, 'Slabs'), ...errorResponses },
    }),
    async (c) => c.json(await cardSlabs(db, c.req.valid('param').id), 200),
  );
  app.openapi(
    createRoute({
      method: 'post', path: '/admin/catalog/cards/{id}/slabs', tags: ['catalog-admin'],
      summary: 'Add slabs (each with its certificate) to a graded card: its stock grows by one per slab (400 cert_on_ungraded, 409 cert_taken)',
      middleware: admin,
      request: { params: idParam, body: { required: true, content: { 'application/json': { schema: addSlabsInputSchema } } } },
      responses: { 201: jsonContent(z.object({ card: cardSchema, slabs: z.array(slabSchema) }), 'Added'), ...errorResponses },
    }),
    async (c) => c.json(await addCardSlabs(db, ctxOf(c), c.req.valid('param').id, c.req.valid('json'), wishers), 201),
  );
  app.openapi(
    createRoute({
      method: 'patch', path: '/admin/catalog/cards/{id}/slabs/{slabId}', tags: ['catalog-admin'],
      summary: "Edit a slab, or fill in its missing certificate (a held slab goes into stock)",
      middleware: admin,
      request: { params: slabParam, body: { required: true, content: { 'application/json': { schema: slabPatchSchema } } } },
      responses: { 200: jsonContent(z.object({ slab: slabSchema }), 'Updated'), ...errorResponses },
    }),
    async (c) => {
      const { id, slabId } = c.req.valid('param');
      return c.json(await updateCardSlab(db, ctxOf(c), id, slabId, c.req.valid('json'), wishers), 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'delete', path: '/admin/catalog/cards/{id}/slabs/{slabId}', tags: ['catalog-admin'],
      summary: 'Remove a slab the shop holds (in stock or held); 409 slab_not_in_shop otherwise',
      middleware: admin,
      request: { params: slabParam },
      responses: { 200: jsonContent(ok, 'Removed'), ...errorResponses },
    }),
    async (c) => {
      const { id, slabId } = c.req.valid('param');
      return c.json(await removeCardSlab(db, ctxOf(c), id, slabId), 200);
    },
  );

  // ───────────── public ─────────────
  app.openapi(
    createRoute({
      method: 'get', path: '/cards', tags: ['catalog'], summary: 'Active cards: search, filter, sort, paginate',
      request: { query: publicCardListQuerySchema },
      responses: { 200: jsonContent(publicCardPageSchema, 'A page of cards'), 400: errorResponses[400] },
    }),
    async (c) => {
      const page = await publicCardPageResponse(db, c.req.valid('query'));
      // Age makes browsers and shared caches count the time the page already spent in this
      // process against max-age, so no one is served a list older than max-age in total.
      return sendPrepared(c, page, 200, 'application/json', {
        'Cache-Control': `public, max-age=${PUBLIC_LIST_MAX_AGE_S}`,
        Age: String(Math.max(0, Math.floor((Date.now() - page.storedAt) / 1000))),
      }) as never;
    },
  );
  app.openapi(
    createRoute({
      method: 'get', path: '/cards/{id}', tags: ['catalog'], summary: 'One active card',
      request: { params: idParam },
      responses: { 200: jsonContent(publicCardDetailSchema, 'The card'), 400: errorResponses[400], 404: errorResponses[404] },
    }),
    async (c) => c.json(await getPublicCard(db, c.req.valid('param').id), 200),
  );
  app.openapi(
    createRoute({
      method: 'get', path: '/cards/{id}/value-history', tags: ['catalog'], summary: "An active card's market value over time, oldest first",
      request: { params: idParam },
      responses: { 200: jsonContent(cardValueHistorySchema, 'The value history'), 400: errorResponses[400], 404: errorResponses[404] },
    }),
    async (c) => {
      // Values change a few times a day at most: a minute in any cache, like the public list's promise.
      c.header('Cache-Control', `public, max-age=60, stale-while-revalidate=300`);
      return c.json(await getValueHistory(db, c.req.valid('param').id), 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'get', path: '/catalog/classes', tags: ['catalog'], summary: 'Classes (rarity tiers) in display order',
      responses: { 200: jsonContent(z.object({ classes: z.array(lookClassSchema) }), 'Classes') },
    }),
    async (c) => c.json({ classes: await listPublicClasses(db) }, 200),
  );
  app.openapi(
    createRoute({
      method: 'get', path: '/catalog/sets', tags: ['catalog'], summary: 'Sets with active cards',
      responses: { 200: jsonContent(z.object({ sets: z.array(publicSetSchema) }), 'Sets') },
    }),
    async (c) => c.json({ sets: await listPublicSets(db) }, 200),
  );

  // ───────────── value proposals (ADR 0024) ─────────────
  app.openapi(
    createRoute({
      method: 'get', path: '/admin/catalog/value-proposals', tags: ['catalog-admin'],
      summary: 'Card value changes held for the owner (pending by default), with each card’s value now and copies in vaults',
      middleware: admin,
      request: { query: valueProposalListQuerySchema },
      responses: { 200: jsonContent(valueProposalListSchema, 'Proposals'), ...errorResponses },
    }),
    async (c) => c.json(await listValueProposals(db, c.req.valid('query').status, staffRole(c) === 'owner'), 200),
  );
  app.openapi(
    createRoute({
      method: 'post', path: '/admin/catalog/value-proposals/{id}/approve', tags: ['catalog-admin'],
      summary: 'The owner approves a held value change: the card takes the value (history, audit). 409 if not pending.',
      middleware: [requireAdmin, requireOwner] as const,
      request: { params: idParam },
      responses: { 200: jsonContent(valueProposalSchema, 'Approved'), ...errorResponses },
    }),
    async (c) => c.json(await approveValueProposal(db, ctxOf(c), c.req.valid('param').id), 200),
  );
  app.openapi(
    createRoute({
      method: 'post', path: '/admin/catalog/value-proposals/{id}/reject', tags: ['catalog-admin'],
      summary: 'The owner rejects a held value change with a note: the card keeps its value. 409 if not pending.',
      middleware: [requireAdmin, requireOwner] as const,
      request: { params: idParam, body: { required: true, content: { 'application/json': { schema: rejectValueProposalSchema } } } },
      responses: { 200: jsonContent(valueProposalSchema, 'Rejected'), ...errorResponses },
    }),
    async (c) => c.json(await rejectValueProposal(db, ctxOf(c), c.req.valid('param').id, c.req.valid('json').note), 200),
  );

  return app;
}
