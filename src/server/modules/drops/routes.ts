import { createRoute } from '@hono/zod-openapi';
import {
  adminDropDetailSchema,
  adminDropEntriesQuerySchema,
  adminDropEntriesSchema,
  adminDropListQuerySchema,
  adminDropListSchema,
  createDropSchema,
  createDropTemplateSchema,
  dropDetailSchema,
  dropEntrySchema,
  dropListQuerySchema,
  dropListSchema,
  dropProofSchema,
  dropTemplateListSchema,
  dropTemplateSchema,
  enterDropResponseSchema,
  updateDropSchema,
  updateDropTemplateSchema,
} from '../../../shared/contracts/drops.ts';
import type { Context } from 'hono';
import type { Deps } from '../../deps.ts';
import type { AppEnv } from '../../http/types.ts';
import { actorCtx, actorOf, requireAdmin, requireUser } from '../../http/guards.ts';
import { auditedRefusals } from '../audit/duties.ts';
import { createRouter, errorResponses, jsonContent, z } from '../../http/openapi.ts';
import { openDueDrops } from './lifecycle.ts';
import { cancelDrop, createDrop, updateDrop } from './service.ts';
import { createTemplate, deleteTemplate, getTemplate, listTemplates, updateTemplate } from './templates.ts';
import { getAdminDrop, getDropDetail, getProof, listAdminDrops, listAdminEntries, listDrops, myEntry } from './read.ts';
import { enterDrop } from './entering.ts';

const dropParams = z.object({ id: z.uuid('Not a drop id.') });
const templateParams = z.object({ id: z.uuid('Not a recurring drop id.') });
const json = <T extends z.ZodType>(schema: T) => ({ body: { required: true, content: { 'application/json': { schema } } } });

/** Daily drops (issue 16): public pages' reads, entering, and /api/admin/drops. */
export function dropsRoutes(deps: Deps) {
  const app = createRouter();
  const { db, config } = deps;
  const adminCtx = (c: Context<AppEnv>) => actorCtx(c, config.trustProxy);

  // Public ---------------------------------------------------------------------------------------

  app.openapi(
    createRoute({
      method: 'get',
      path: '/drops',
      tags: ['drops'],
      summary: 'Current and upcoming drops (closing soonest first), or past drops with their winners (newest first)',
      request: { query: dropListQuerySchema },
      responses: { 200: jsonContent(dropListSchema, 'Drops'), ...errorResponses },
    }),
    async (c) => c.json(await listDrops(db, c.req.valid('query')), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/drops/{id}',
      tags: ['drops'],
      summary: "A drop: its prizes, entry count, commitment (and seed and winners once drawn); the signed-in user's entry",
      request: { params: dropParams },
      responses: { 200: jsonContent(dropDetailSchema, 'Drop'), ...errorResponses },
    }),
    async (c) => c.json(await getDropDetail(db, c.req.valid('param').id, c.get('actor')?.userId ?? null), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/drops/{id}/proof',
      tags: ['drops'],
      summary: 'The proof of a drawn drop: seed, commitment, frozen entry list, its hash and the winners in order (409 drop_not_drawn before)',
      request: { params: dropParams },
      responses: { 200: jsonContent(dropProofSchema, 'Proof'), ...errorResponses },
    }),
    async (c) => c.json(await getProof(db, c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/drops/{id}/entries',
      tags: ['drops'],
      summary: 'Enter a drop: free, one entry per user. 201 when made; 200 with the same entry on a retry.',
      middleware: [requireUser] as const,
      request: { params: dropParams },
      responses: {
        201: jsonContent(enterDropResponseSchema, 'Entered'),
        200: jsonContent(enterDropResponseSchema, 'Already entered: the existing entry'),
        ...errorResponses,
      },
    }),
    async (c) => {
      const r = await enterDrop(deps, c.req.valid('param').id, actorOf(c).userId);
      return r.created ? c.json(r, 201) : c.json(r, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/drops/{id}/entries/me',
      tags: ['drops'],
      summary: "Your entry in a drop and its public id (404 if you haven't entered)",
      middleware: [requireUser] as const,
      request: { params: dropParams },
      responses: { 200: jsonContent(z.object({ entry: dropEntrySchema }), 'Your entry'), ...errorResponses },
    }),
    async (c) => c.json({ entry: await myEntry(db, c.req.valid('param').id, actorOf(c).userId) }, 200),
  );

  // Admin ----------------------------------------------------------------------------------------

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/drops',
      tags: ['admin drops'],
      summary: 'Drops, newest opening first, with counts by status',
      middleware: [requireAdmin] as const,
      request: { query: adminDropListQuerySchema },
      responses: { 200: jsonContent(adminDropListSchema, 'Drops'), ...errorResponses },
    }),
    async (c) => c.json(await listAdminDrops(db, c.req.valid('query')), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/admin/drops',
      tags: ['admin drops'],
      summary: 'Schedule a drop; its prizes are taken from stock now (409 out_of_stock). Audited.',
      middleware: [requireAdmin] as const,
      request: json(createDropSchema),
      responses: { 201: jsonContent(adminDropDetailSchema, 'Scheduled'), ...errorResponses },
    }),
    async (c) => {
      const id = await db.transaction((tx) => createDrop(tx, adminCtx(c), c.req.valid('json')));
      // A drop that opens now is opened at once rather than on the next tick.
      await openDueDrops(deps);
      return c.json(await getAdminDrop(db, id), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/drops/{id}',
      tags: ['admin drops'],
      summary: 'A drop with its prizes, entry count and winners',
      middleware: [requireAdmin] as const,
      request: { params: dropParams },
      responses: { 200: jsonContent(adminDropDetailSchema, 'Drop'), ...errorResponses },
    }),
    async (c) => c.json(await getAdminDrop(db, c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/drops/{id}/entries',
      tags: ['admin drops'],
      summary: 'Who entered a drop (oldest first), whether each entry was in the draw, and the place won',
      middleware: [requireAdmin] as const,
      request: { params: dropParams, query: adminDropEntriesQuerySchema },
      responses: { 200: jsonContent(adminDropEntriesSchema, 'Entries'), ...errorResponses },
    }),
    async (c) => {
      const q = c.req.valid('query');
      return c.json(await listAdminEntries(db, c.req.valid('param').id, q.page, q.pageSize), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/admin/drops/{id}',
      tags: ['admin drops'],
      summary: 'Edit a drop. Once open only the text, image and a later close may change (409 drop_locked). Audited.',
      middleware: [requireAdmin] as const,
      request: { params: dropParams, ...json(updateDropSchema) },
      responses: { 200: jsonContent(adminDropDetailSchema, 'Updated'), ...errorResponses },
    }),
    async (c) => {
      const id = c.req.valid('param').id;
      const ctx = adminCtx(c);
      await auditedRefusals(c, db, { actor: { userId: ctx.actorId }, action: 'drop.update', targetType: 'drop', targetId: id, ip: ctx.ip }, () =>
        db.transaction((tx) => updateDrop(tx, ctx, id, c.req.valid('json'))),
      );
      await openDueDrops(deps);
      return c.json(await getAdminDrop(db, id), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/admin/drops/{id}/cancel',
      tags: ['admin drops'],
      summary: 'Cancel a scheduled or open drop; its prizes go back to stock. Audited.',
      middleware: [requireAdmin] as const,
      request: { params: dropParams },
      responses: { 200: jsonContent(adminDropDetailSchema, 'Cancelled'), ...errorResponses },
    }),
    async (c) => {
      const id = c.req.valid('param').id;
      const ctx = adminCtx(c);
      await auditedRefusals(c, db, { actor: { userId: ctx.actorId }, action: 'drop.cancel', targetType: 'drop', targetId: id, ip: ctx.ip }, () =>
        db.transaction((tx) => cancelDrop(tx, ctx, id)),
      );
      return c.json(await getAdminDrop(db, id), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/drop-templates',
      tags: ['admin drops'],
      summary: 'Recurring daily drops',
      middleware: [requireAdmin] as const,
      responses: { 200: jsonContent(dropTemplateListSchema, 'Recurring drops'), ...errorResponses },
    }),
    async (c) => c.json({ items: await listTemplates(db) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/admin/drop-templates',
      tags: ['admin drops'],
      summary: "Create a recurring daily drop (the job schedules today's and tomorrow's). Audited.",
      middleware: [requireAdmin] as const,
      request: json(createDropTemplateSchema),
      responses: { 201: jsonContent(z.object({ template: dropTemplateSchema }), 'Created'), ...errorResponses },
    }),
    async (c) => c.json({ template: await db.transaction((tx) => createTemplate(tx, adminCtx(c), c.req.valid('json'))) }, 201),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/drop-templates/{id}',
      tags: ['admin drops'],
      summary: 'A recurring daily drop',
      middleware: [requireAdmin] as const,
      request: { params: templateParams },
      responses: { 200: jsonContent(z.object({ template: dropTemplateSchema }), 'Recurring drop'), ...errorResponses },
    }),
    async (c) => c.json({ template: await getTemplate(db, c.req.valid('param').id) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/admin/drop-templates/{id}',
      tags: ['admin drops'],
      summary: 'Edit or pause a recurring daily drop (drops already scheduled keep their terms). Audited.',
      middleware: [requireAdmin] as const,
      request: { params: templateParams, ...json(updateDropTemplateSchema) },
      responses: { 200: jsonContent(z.object({ template: dropTemplateSchema }), 'Updated'), ...errorResponses },
    }),
    async (c) => c.json({ template: await db.transaction((tx) => updateTemplate(tx, adminCtx(c), c.req.valid('param').id, c.req.valid('json'))) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/admin/drop-templates/{id}',
      tags: ['admin drops'],
      summary: 'Delete a recurring daily drop (drops already scheduled stay). Audited.',
      middleware: [requireAdmin] as const,
      request: { params: templateParams },
      responses: { 204: { description: 'Deleted' }, ...errorResponses },
    }),
    async (c) => {
      await db.transaction((tx) => deleteTemplate(tx, adminCtx(c), c.req.valid('param').id));
      return c.body(null, 204);
    },
  );

  return app;
}
