import { createRoute } from '@hono/zod-openapi';
import type { Deps } from '../../deps.ts';
import { actorOf, requireAdmin, requireOwner } from '../../http/guards.ts';
import { createRouter, errorResponses, jsonContent, z } from '../../http/openapi.ts';
import { clientIp } from '../../http/security.ts';
import {
  adminAccountListSchema,
  adminAccountSchema,
  adminResetPasswordResultSchema,
  adminResetPasswordSchema,
  adminUserDetailSchema,
  adminUserListQuerySchema,
  adminUserListSchema,
  banUserSchema,
  demoteResultSchema,
  promoteAdminSchema,
} from '../../../shared/contracts/admin-users.ts';
import {
  adminSendPasswordReset,
  banUser,
  demoteAdmin,
  listAdmins,
  listUsers,
  promoteToAdmin,
  resetTwoFactor,
  unbanUser,
  userDetail,
} from './service.ts';

const idParam = z.object({ id: z.string().min(1).max(100) });
const json = <T extends z.ZodType>(schema: T) => ({ body: { content: { 'application/json': { schema } }, required: true } });

/** /api/admin/users, /api/admin/reset-password and (owner) /api/admin/admins. */
export function adminUsersRoutes(deps: Deps) {
  const app = createRouter();
  const tags = ['admin'];
  const ip = (c: Parameters<typeof clientIp>[0]) => clientIp(c, deps.config.trustProxy);

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/users',
      tags,
      summary: 'Search users',
      middleware: [requireAdmin] as const,
      request: { query: adminUserListQuerySchema },
      responses: { 200: jsonContent(adminUserListSchema, 'A page of users'), ...errorResponses },
    }),
    async (c) => c.json(await listUsers(deps.db, c.req.valid('query')), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/users/{id}',
      tags,
      summary: 'One user with sessions and two-factor status',
      middleware: [requireAdmin] as const,
      request: { params: idParam },
      responses: { 200: jsonContent(adminUserDetailSchema, 'The user'), ...errorResponses },
    }),
    async (c) => c.json(await userDetail(deps.db, c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/admin/users/{id}/ban',
      tags,
      summary: 'Ban a user (revokes their sessions)',
      middleware: [requireAdmin] as const,
      request: { params: idParam, ...json(banUserSchema) },
      responses: { 200: jsonContent(adminUserDetailSchema, 'The user'), ...errorResponses },
    }),
    async (c) => c.json(await banUser(deps, actorOf(c), c.req.valid('param').id, c.req.valid('json'), ip(c)), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/admin/users/{id}/unban',
      tags,
      summary: 'Lift a ban',
      middleware: [requireAdmin] as const,
      request: { params: idParam },
      responses: { 200: jsonContent(adminUserDetailSchema, 'The user'), ...errorResponses },
    }),
    async (c) => c.json(await unbanUser(deps, actorOf(c), c.req.valid('param').id, ip(c)), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/admin/users/{id}/reset-two-factor',
      tags,
      summary: "Turn off a locked-out user's two-factor",
      middleware: [requireAdmin] as const,
      request: { params: idParam },
      responses: { 200: jsonContent(adminUserDetailSchema, 'The user'), ...errorResponses },
    }),
    async (c) => c.json(await resetTwoFactor(deps, actorOf(c), c.req.valid('param').id, ip(c)), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/admin/reset-password',
      tags,
      summary: "Email a password-reset link to a user's address",
      middleware: [requireAdmin] as const,
      request: json(adminResetPasswordSchema),
      responses: { 200: jsonContent(adminResetPasswordResultSchema, 'Sent if the account exists'), ...errorResponses },
    }),
    async (c) => {
      await adminSendPasswordReset(deps, actorOf(c), c.req.valid('json').email, ip(c));
      return c.json({ sent: true as const }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/admins',
      tags,
      summary: 'Admins and owners (owner only)',
      middleware: [requireAdmin, requireOwner] as const,
      responses: { 200: jsonContent(adminAccountListSchema, 'Admins'), ...errorResponses },
    }),
    async (c) => c.json(await listAdmins(deps.db), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/admin/admins/promote',
      tags,
      summary: 'Make a user an admin (owner only)',
      middleware: [requireAdmin, requireOwner] as const,
      request: json(promoteAdminSchema),
      responses: { 200: jsonContent(adminAccountSchema, 'The new admin'), ...errorResponses },
    }),
    async (c) => c.json(await promoteToAdmin(deps, actorOf(c), c.req.valid('json'), ip(c)), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/admin/admins/{id}/demote',
      tags,
      summary: 'Make an admin a user again (owner only; not yourself)',
      middleware: [requireAdmin, requireOwner] as const,
      request: { params: idParam },
      responses: { 200: jsonContent(demoteResultSchema, 'Demoted'), ...errorResponses },
    }),
    async (c) => c.json(await demoteAdmin(deps, actorOf(c), c.req.valid('param').id, ip(c)), 200),
  );

  return app;
}
