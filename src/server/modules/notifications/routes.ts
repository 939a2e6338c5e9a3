import { createRoute } from '@hono/zod-openapi';
import { idSchema } from '../../../shared/contracts/catalog.ts';
import {
  notificationListQuerySchema,
  notificationListSchema,
  notificationPreferencesInputSchema,
  notificationPreferencesSchema,
  unreadCountSchema,
  unsubscribeInfoSchema,
  unsubscribeTokenSchema,
} from '../../../shared/contracts/notifications.ts';
import type { Deps } from '../../deps.ts';
import { actorOf, requireUser } from '../../http/guards.ts';
import { createRouter, errorResponses, jsonContent, z } from '../../http/openapi.ts';
import { clientAddressKey } from '../../http/client-ip.ts';
import { enforceRateLimit } from '../../lib/rate-limit.ts';
import {
  getPreferences,
  listNotifications,
  markAllRead,
  markRead,
  putPreferences,
  unreadCount,
  unsubscribe,
  unsubscribeInfo,
} from './service.ts';

const json = <T>(schema: T) => ({ required: true, content: { 'application/json': { schema } } });

/** Unsubscribe links are public: cap tries per client address so tokens cannot be probed in bulk. */
const UNSUBSCRIBE_PER_MINUTE = 30;

/** The signed-in user's inbox and channel choices; the public one-click unsubscribe of mail links. */
export function notificationsRoutes(deps: Deps) {
  const app = createRouter();
  const { db, config } = deps;

  app.openapi(
    createRoute({
      method: 'get',
      path: '/notifications',
      tags: ['notifications'],
      summary: 'Your notifications, newest first, a page at a time (before = the previous nextCursor)',
      middleware: [requireUser] as const,
      request: { query: notificationListQuerySchema },
      responses: { 200: jsonContent(notificationListSchema, 'A page of notifications and the unread count'), ...errorResponses },
    }),
    async (c) => c.json(await listNotifications(db, actorOf(c).userId, c.req.valid('query')), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/notifications/unread-count',
      tags: ['notifications'],
      summary: 'How many of your notifications are unread (the bell)',
      middleware: [requireUser] as const,
      responses: { 200: jsonContent(unreadCountSchema, 'Unread count'), ...errorResponses },
    }),
    async (c) => c.json({ unreadCount: await unreadCount(db, actorOf(c).userId) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/notifications/read-all',
      tags: ['notifications'],
      summary: 'Mark all your notifications read (sends notification.read to your pages)',
      middleware: [requireUser] as const,
      responses: { 200: jsonContent(unreadCountSchema, 'Nothing unread'), ...errorResponses },
    }),
    async (c) => c.json(await markAllRead(deps, actorOf(c).userId), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/notifications/{id}/read',
      tags: ['notifications'],
      summary: "Mark one of your notifications read; another user's or an unknown id is 404",
      middleware: [requireUser] as const,
      request: { params: z.object({ id: idSchema }) },
      responses: { 200: jsonContent(unreadCountSchema, 'Unread count after'), ...errorResponses },
    }),
    async (c) => c.json(await markRead(deps, actorOf(c).userId, c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/notifications/preferences',
      tags: ['notifications'],
      summary: 'Your channels (in app, email) per kind, and the big-pull threshold',
      middleware: [requireUser] as const,
      responses: { 200: jsonContent(notificationPreferencesSchema, 'Preferences'), ...errorResponses },
    }),
    async (c) => c.json(await getPreferences(db, actorOf(c).userId), 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/notifications/preferences',
      tags: ['notifications'],
      summary: "Change the listed kinds' channels and/or the big-pull threshold. Security mail can't be turned off (400).",
      middleware: [requireUser] as const,
      request: { body: json(notificationPreferencesInputSchema) },
      responses: { 200: jsonContent(notificationPreferencesSchema, 'Preferences after'), ...errorResponses },
    }),
    async (c) => {
      const userId = actorOf(c).userId;
      return c.json(await putPreferences(deps, userId, c.req.valid('json')), 200);
    },
  );

  const limit = async (address: string) => enforceRateLimit(deps.dbh, `unsubscribe:${address}`, UNSUBSCRIBE_PER_MINUTE, 60);

  app.openapi(
    createRoute({
      method: 'get',
      path: '/notifications/unsubscribe',
      tags: ['notifications'],
      summary: 'Public: what an unsubscribe link would turn off (changes nothing). 400 invalid_link / link_expired.',
      request: { query: unsubscribeTokenSchema },
      responses: { 200: jsonContent(unsubscribeInfoSchema, 'The kind and the (partly hidden) address'), ...errorResponses },
    }),
    async (c) => {
      await limit(clientAddressKey(c, config.trustProxy));
      return c.json(await unsubscribeInfo(deps, c.req.valid('query').token), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/notifications/unsubscribe',
      tags: ['notifications'],
      summary: "Public: turn off the link's kind of mail (only that kind). 400 invalid_link / link_expired.",
      request: { body: json(unsubscribeTokenSchema) },
      responses: { 200: jsonContent(unsubscribeInfoSchema, 'Mail of this kind is off'), ...errorResponses },
    }),
    async (c) => {
      await limit(clientAddressKey(c, config.trustProxy));
      return c.json(await unsubscribe(deps, c.req.valid('json').token), 200);
    },
  );

  return app;
}
