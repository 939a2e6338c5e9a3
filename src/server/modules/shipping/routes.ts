import { createRoute } from '@hono/zod-openapi';
import { idSchema } from '../../../shared/contracts/catalog.ts';
import {
  addressDeleteResultSchema,
  addressInputSchema,
  addressListSchema,
  addressSchema,
  adminCancelSchema,
  adminShipmentListSchema,
  adminShipmentQuerySchema,
  adminShipmentSchema,
  adminUserShippingSchema,
  advanceShipmentSchema,
  bulkAdvanceResultSchema,
  bulkAdvanceSchema,
  cardLocationInputSchema,
  cardLocationSchema,
  createShipmentResultSchema,
  createShipmentSchema,
  originInputSchema,
  originListSchema,
  originSchema,
  originUpdateSchema,
  pickInputSchema,
  pickItemSchema,
  pickListQuerySchema,
  pickListSchema,
  quoteInputSchema,
  quoteSchema,
  resolveShipmentSchema,
  shipmentListSchema,
  shipmentQuerySchema,
  shipmentSchema,
  shippingOptionsSchema,
  shippingSettingsSchema,
  type BulkAdvanceResult,
} from '../../../shared/contracts/shipping.ts';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import { auditedRefusals } from '../audit/duties.ts';
import { actorOf, requireAdmin, requireOwner, requireUser, requireVerified } from '../../http/guards.ts';
import { createRouter, errorResponses, jsonContent, z } from '../../http/openapi.ts';
import { clientIp } from '../../http/security.ts';
import { requireIdempotencyKey, sendIdempotent, withIdempotency } from '../../lib/idempotency.ts';
import {
  createAddress,
  createOrigin,
  deleteAddress,
  getOrigin,
  listAddresses,
  listOrigins,
  setCardLocation,
  setDefaultAddress,
  setDefaultOrigin,
  updateAddress,
  updateOrigin,
} from './addresses.ts';
import { adminShipment, listQueue, pickList, setPicked, userShipping } from './admin.ts';
import {
  advanceShipment,
  cancelShipment,
  createShipment,
  listOwnShipments,
  loadShipment,
  notifyShipment,
  quote,
  resolveShipment,
} from './service.ts';
import { getShippingOptions, getShippingSettings, putShippingSettings } from './settings.ts';

const json = <T>(schema: T) => ({ required: true, content: { 'application/json': { schema } } });
const idParam = z.object({ id: idSchema });

/** Addresses, quotes and shipments of a user; the back office's queue, pick list, origins and settings. */
export function shippingRoutes(deps: Deps) {
  const app = createRouter();
  const { db, config } = deps;

  // User: options and addresses ------------------------------------------------------------------

  app.openapi(
    createRoute({
      method: 'get',
      path: '/shipping/options',
      tags: ['shipping'],
      summary: 'Fees, insurance and the countries shipped to (for the address form and the quote)',
      middleware: [requireUser] as const,
      responses: { 200: jsonContent(shippingOptionsSchema, 'Options'), ...errorResponses },
    }),
    (c) => c.json(getShippingOptions(), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/shipping/addresses',
      tags: ['shipping'],
      summary: 'Your addresses, default first (archived ones left out)',
      middleware: [requireUser] as const,
      responses: { 200: jsonContent(addressListSchema, 'Addresses'), ...errorResponses },
    }),
    async (c) => c.json({ items: await listAddresses(db, actorOf(c).userId) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/shipping/addresses',
      tags: ['shipping'],
      summary: 'Add an address (postal code checked per country; only countries shipped to). The first one is the default.',
      middleware: [requireUser] as const,
      request: { body: json(addressInputSchema) },
      responses: { 201: jsonContent(addressSchema, 'Created'), ...errorResponses },
    }),
    async (c) => {
      const userId = actorOf(c).userId;
      const body = c.req.valid('json');
      return c.json(await db.transaction((tx) => createAddress(tx, userId, body)), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/shipping/addresses/{id}',
      tags: ['shipping'],
      summary: 'Replace an address (shipments keep their own copy)',
      middleware: [requireUser] as const,
      request: { params: idParam, body: json(addressInputSchema) },
      responses: { 200: jsonContent(addressSchema, 'Updated'), ...errorResponses },
    }),
    async (c) => {
      const userId = actorOf(c).userId;
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      return c.json(await db.transaction((tx) => updateAddress(tx, userId, id, body)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/shipping/addresses/{id}/default',
      tags: ['shipping'],
      summary: 'Make an address the default',
      middleware: [requireUser] as const,
      request: { params: idParam },
      responses: { 200: jsonContent(addressSchema, 'Default'), ...errorResponses },
    }),
    async (c) => {
      const userId = actorOf(c).userId;
      const { id } = c.req.valid('param');
      return c.json(await db.transaction((tx) => setDefaultAddress(tx, userId, id)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/shipping/addresses/{id}',
      tags: ['shipping'],
      summary: 'Delete an address; one a shipment used is archived instead (outcome says which)',
      middleware: [requireUser] as const,
      request: { params: idParam },
      responses: { 200: jsonContent(addressDeleteResultSchema, 'Deleted or archived'), ...errorResponses },
    }),
    async (c) => {
      const userId = actorOf(c).userId;
      const { id } = c.req.valid('param');
      return c.json(await db.transaction((tx) => deleteAddress(tx, userId, id)), 200);
    },
  );

  // User: quote and shipments --------------------------------------------------------------------

  app.openapi(
    createRoute({
      method: 'post',
      path: '/shipping/quote',
      tags: ['shipping'],
      summary: 'The fee for shipping these vault cards (base + per card + optional insurance), and any shortfall',
      middleware: [requireUser] as const,
      request: { body: json(quoteInputSchema) },
      responses: { 200: jsonContent(quoteSchema, 'Quote'), ...errorResponses },
    }),
    async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await quote(db, actorOf(c).userId, c.req.valid('json')), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/shipping/shipments',
      tags: ['shipping'],
      summary:
        'Request a shipment: charges the fee and moves the cards to "in shipment" in one transaction. Needs Idempotency-Key. 409 card_unavailable / insufficient_funds / quote_changed change nothing.',
      middleware: [requireVerified] as const,
      request: { body: json(createShipmentSchema) },
      responses: { 201: jsonContent(createShipmentResultSchema, 'Requested'), ...errorResponses },
    }),
    async (c) => {
      const actor = actorOf(c);
      const key = requireIdempotencyKey(c);
      const body = c.req.valid('json');
      const ip = clientIp(c, config.trustProxy);
      const r = await withIdempotency(
        db,
        { userId: actor.userId, key, scope: 'POST /api/shipping/shipments', body },
        async (tx) => {
          const out = await createShipment(tx, actor.userId, body, { idempotencyKey: key, ip });
          await notifyShipment(deps, tx, out.notice);
          return { status: 201 as const, body: out.result };
        },
        (fn) => deps.db.transaction(fn),
      );
      return sendIdempotent(c, r);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/shipping/shipments',
      tags: ['shipping'],
      summary: 'Your shipments, newest first',
      middleware: [requireUser] as const,
      request: { query: shipmentQuerySchema },
      responses: { 200: jsonContent(shipmentListSchema, 'Shipments'), ...errorResponses },
    }),
    async (c) => c.json(await listOwnShipments(db, actorOf(c).userId, c.req.valid('query')), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/shipping/shipments/{id}',
      tags: ['shipping'],
      summary: 'One of your shipments: address, cards, fee, tracking and timeline (404 if not yours)',
      middleware: [requireUser] as const,
      request: { params: idParam },
      responses: { 200: jsonContent(shipmentSchema, 'Shipment'), ...errorResponses },
    }),
    async (c) => c.json(await loadShipment(db, c.req.valid('param').id, { viewer: 'user', userId: actorOf(c).userId }), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/shipping/shipments/{id}/cancel',
      tags: ['shipping'],
      summary: 'Cancel your shipment while it is requested: the fee is refunded, the cards go back to the vault',
      middleware: [requireUser] as const,
      request: { params: idParam },
      responses: { 200: jsonContent(shipmentSchema, 'Cancelled'), ...errorResponses },
    }),
    async (c) => {
      const userId = actorOf(c).userId;
      const { id } = c.req.valid('param');
      const ip = clientIp(c, config.trustProxy);
      await deps.db.transaction(async (tx) => notifyShipment(deps, tx, await cancelShipment(tx, id, { id: userId, role: 'user', ip }, { userId })));
      return c.json(await loadShipment(db, id, { viewer: 'user', userId }), 200);
    },
  );

  // Admin: the queue and transitions -------------------------------------------------------------

  const adminActor = (c: Parameters<typeof actorOf>[0]) => ({ id: actorOf(c).userId, role: 'admin' as const, ip: clientIp(c, config.trustProxy) });

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/shipping/shipments',
      tags: ['admin shipping'],
      summary: 'The shipping queue, oldest first, filtered by status, origin and age, with a count per status',
      middleware: [requireAdmin] as const,
      request: { query: adminShipmentQuerySchema },
      responses: { 200: jsonContent(adminShipmentListSchema, 'Queue'), ...errorResponses },
    }),
    async (c) => c.json(await listQueue(db, c.req.valid('query')), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/admin/shipping/shipments/bulk-advance',
      tags: ['admin shipping'],
      summary: 'Move several shipments one step (to packing or delivered); each succeeds or fails on its own. Audited.',
      middleware: [requireAdmin] as const,
      request: { body: json(bulkAdvanceSchema) },
      responses: { 200: jsonContent(bulkAdvanceResultSchema, 'Results'), ...errorResponses },
    }),
    async (c) => {
      const actor = adminActor(c);
      const { ids, to } = c.req.valid('json');
      const results: BulkAdvanceResult['results'] = [];
      for (const id of ids) {
        try {
          const n = await auditedRefusals(c, db, { actor: { userId: actor.id }, action: `shipment.${to}`, targetType: 'shipment', targetId: id, ip: actor.ip, after: { to } }, () =>
            db.transaction(async (tx) => notifyShipment(deps, tx, await advanceShipment(tx, id, actor, { to }))),
          );
          results.push({ id, ok: true, status: n.status, error: null });
        } catch (err) {
          if (!(err instanceof AppError) || err.status >= 500) throw err;
          results.push({ id, ok: false, status: null, error: { code: err.code, message: err.message } });
        }
      }
      const advanced = results.filter((r) => r.ok).length;
      return c.json({ results, advanced, failed: results.length - advanced }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/shipping/shipments/{id}',
      tags: ['admin shipping'],
      summary: 'A shipment with its user, address, cards (set, number, shelf), fee, timeline and the actions open now',
      middleware: [requireAdmin] as const,
      request: { params: idParam },
      responses: { 200: jsonContent(adminShipmentSchema, 'Shipment'), ...errorResponses },
    }),
    async (c) => c.json(await adminShipment(db, c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/admin/shipping/shipments/{id}/advance',
      tags: ['admin shipping'],
      summary: 'One step forward: packing, shipped (carrier + tracking number), delivered. 409 invalid_shipment_state otherwise. Audited, user notified.',
      middleware: [requireAdmin] as const,
      request: { params: idParam, body: json(advanceShipmentSchema) },
      responses: { 200: jsonContent(adminShipmentSchema, 'Advanced'), ...errorResponses },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      const actor = adminActor(c);
      await auditedRefusals(c, db, { actor: { userId: actor.id }, action: `shipment.${body.to}`, targetType: 'shipment', targetId: id, ip: actor.ip, after: { to: body.to } }, () =>
        db.transaction(async (tx) => notifyShipment(deps, tx, await advanceShipment(tx, id, actor, body))),
      );
      return c.json(await adminShipment(db, id), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/admin/shipping/shipments/{id}/cancel',
      tags: ['admin shipping'],
      summary: 'Cancel a requested or packing shipment with a reason: fee refunded, cards back in the vault. Audited, user notified.',
      middleware: [requireAdmin] as const,
      request: { params: idParam, body: json(adminCancelSchema) },
      responses: { 200: jsonContent(adminShipmentSchema, 'Cancelled'), ...errorResponses },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { reason } = c.req.valid('json');
      const actor = adminActor(c);
      await auditedRefusals(c, db, { actor: { userId: actor.id }, action: 'shipment.cancel', targetType: 'shipment', targetId: id, ip: actor.ip, after: { reason } }, () =>
        deps.db.transaction(async (tx) => notifyShipment(deps, tx, await cancelShipment(tx, id, actor, { reason }))),
      );
      return c.json(await adminShipment(db, id), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/admin/shipping/shipments/{id}/resolve',
      tags: ['admin shipping'],
      summary: 'Mark a shipped shipment lost or returned to sender, and put the cards back or refund. Audited, user notified.',
      middleware: [requireAdmin] as const,
      request: { params: idParam, body: json(resolveShipmentSchema) },
      responses: { 200: jsonContent(adminShipmentSchema, 'Resolved'), ...errorResponses },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      const actor = adminActor(c);
      await auditedRefusals(c, db, { actor: { userId: actor.id }, action: `shipment.${body.outcome}`, targetType: 'shipment', targetId: id, ip: actor.ip, after: body }, () =>
        deps.db.transaction(async (tx) => notifyShipment(deps, tx, await resolveShipment(tx, id, actor, body))),
      );
      return c.json(await adminShipment(db, id), 200);
    },
  );

  // Admin: pick list -------------------------------------------------------------------------------

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/shipping/pick-list',
      tags: ['admin shipping'],
      summary: 'Every card of requested or packing shipments, grouped by origin and shelf, with picked check-offs',
      middleware: [requireAdmin] as const,
      request: { query: pickListQuerySchema },
      responses: { 200: jsonContent(pickListSchema, 'Pick list'), ...errorResponses },
    }),
    async (c) => c.json(await pickList(db, c.req.valid('query').originId), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/admin/shipping/pick-list/{id}',
      tags: ['admin shipping'],
      summary: 'Check a card (a shipment card id) off the pick list, or back on',
      middleware: [requireAdmin] as const,
      request: { params: idParam, body: json(pickInputSchema) },
      responses: { 200: jsonContent(pickItemSchema, 'Item'), ...errorResponses },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { picked } = c.req.valid('json');
      const actorId = actorOf(c).userId;
      return c.json(await db.transaction((tx) => setPicked(tx, id, actorId, picked)), 200);
    },
  );

  // Admin: origins and card locations --------------------------------------------------------------

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/shipping/origins',
      tags: ['admin shipping'],
      summary: 'The addresses cards ship from, the default first, with card counts',
      middleware: [requireAdmin] as const,
      responses: { 200: jsonContent(originListSchema, 'Origins'), ...errorResponses },
    }),
    async (c) => c.json({ items: await listOrigins(db) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/admin/shipping/origins',
      tags: ['admin shipping'],
      summary: 'Add an origin (warehouse). Audited.',
      middleware: [requireAdmin] as const,
      request: { body: json(originInputSchema) },
      responses: { 201: jsonContent(originSchema, 'Created'), ...errorResponses },
    }),
    async (c) => {
      const actor = adminActor(c);
      const body = c.req.valid('json');
      return c.json(await db.transaction((tx) => createOrigin(tx, { actorId: actor.id, ip: actor.ip }, body)), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/shipping/origins/{id}',
      tags: ['admin shipping'],
      summary: 'One origin',
      middleware: [requireAdmin] as const,
      request: { params: idParam },
      responses: { 200: jsonContent(originSchema, 'Origin'), ...errorResponses },
    }),
    async (c) => c.json(await getOrigin(db, c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/admin/shipping/origins/{id}',
      tags: ['admin shipping'],
      summary: 'Replace an origin\'s address, or archive it (not the default). Audited.',
      middleware: [requireAdmin] as const,
      request: { params: idParam, body: json(originUpdateSchema) },
      responses: { 200: jsonContent(originSchema, 'Updated'), ...errorResponses },
    }),
    async (c) => {
      const actor = adminActor(c);
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      return c.json(await db.transaction((tx) => updateOrigin(tx, { actorId: actor.id, ip: actor.ip }, id, body)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/admin/shipping/origins/{id}/default',
      tags: ['admin shipping'],
      summary: 'Make an origin the default (cards without a location stay where they were). Audited.',
      middleware: [requireAdmin] as const,
      request: { params: idParam },
      responses: { 200: jsonContent(originSchema, 'Default'), ...errorResponses },
    }),
    async (c) => {
      const actor = adminActor(c);
      const { id } = c.req.valid('param');
      return c.json(await db.transaction((tx) => setDefaultOrigin(tx, { actorId: actor.id, ip: actor.ip }, id)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/admin/shipping/cards/{id}/location',
      tags: ['admin shipping'],
      summary: 'Where a card\'s stock lives: its origin and shelf. Audited.',
      middleware: [requireAdmin] as const,
      request: { params: idParam, body: json(cardLocationInputSchema) },
      responses: { 200: jsonContent(cardLocationSchema, 'Location'), ...errorResponses },
    }),
    async (c) => {
      const actor = adminActor(c);
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      return c.json(await db.transaction((tx) => setCardLocation(tx, { actorId: actor.id, ip: actor.ip }, id, body)), 200);
    },
  );

  // Admin: a user's shipping, settings -------------------------------------------------------------

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/shipping/users/{id}',
      tags: ['admin shipping'],
      summary: 'A user\'s addresses (archived ones too) and shipments',
      middleware: [requireAdmin] as const,
      request: { params: z.object({ id: z.string().min(1).max(100) }) },
      responses: { 200: jsonContent(adminUserShippingSchema, 'Addresses and shipments'), ...errorResponses },
    }),
    async (c) => c.json(await userShipping(db, c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/shipping/settings',
      tags: ['admin shipping'],
      summary: 'Fees, insurance and countries shipped to',
      middleware: [requireAdmin] as const,
      responses: { 200: jsonContent(shippingSettingsSchema, 'Settings'), ...errorResponses },
    }),
    (c) => c.json(getShippingSettings(), 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/admin/shipping/settings',
      tags: ['admin shipping'],
      summary: 'Set the fees, insurance and countries shipped to (owner only). Audited.',
      middleware: [requireAdmin, requireOwner] as const,
      request: { body: json(shippingSettingsSchema) },
      responses: { 200: jsonContent(shippingSettingsSchema, 'Settings'), ...errorResponses },
    }),
    async (c) => {
      const actor = adminActor(c);
      const body = c.req.valid('json');
      const saved = await db.transaction((tx) => putShippingSettings(tx, { actorId: actor.id, ip: actor.ip }, body));
      return c.json(saved, 200);
    },
  );

  return app;
}
