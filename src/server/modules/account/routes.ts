import { createRoute } from '@hono/zod-openapi';
import type { Deps } from '../../deps.ts';
import { tooManyRequests } from '../../http/errors.ts';
import { actorOf, requireUser } from '../../http/guards.ts';
import { endStreams } from '../realtime/session-streams.ts';
import { createRouter, errorResponses, jsonContent, z } from '../../http/openapi.ts';
import { clientIp } from '../../http/security.ts';
import {
  accountSchema,
  changeUsernameSchema,
  dataExportSchema,
  deleteAccountResultSchema,
  deleteAccountSchema,
  revokeOthersResultSchema,
  sessionListSchema,
  usernameAvailableQuerySchema,
  usernameAvailableSchema,
} from '../../../shared/contracts/account.ts';
import { getAuth } from '../auth/auth.ts';
import { hitPasswordCheck, passwordChecksMessage } from '../auth/password-limit.ts';
import { setting } from '../settings/store.ts';
import {
  changeUsername,
  deleteAccount,
  exportData,
  getUserRow,
  isUsernameAvailable,
  listSessions,
  revokeOtherSessions,
  revokeSession,
  toAccount,
} from './service.ts';

const sessionIdParam = z.object({ id: z.string().min(1).max(200) });

/** /api/account/* — the signed-in user's own account (profile, sessions, export, deletion). */
export function accountRoutes(deps: Deps) {
  const app = createRouter();
  const tags = ['account'];

  app.openapi(
    createRoute({
      method: 'get',
      path: '/account/username-available',
      tags,
      summary: 'Is a username free (ignoring case)?',
      request: { query: usernameAvailableQuerySchema },
      responses: { 200: jsonContent(usernameAvailableSchema, 'Availability'), 400: errorResponses[400] },
    }),
    async (c) => {
      const { username } = c.req.valid('query');
      return c.json({ available: await isUsernameAvailable(deps.db, username, c.get('actor')?.userId) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/account',
      tags,
      summary: 'My account',
      middleware: [requireUser] as const,
      responses: { 200: jsonContent(accountSchema, 'The account'), ...errorResponses },
    }),
    async (c) => c.json(toAccount(await getUserRow(deps.db, actorOf(c).userId)), 200),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/account/username',
      tags,
      summary: 'Change my username',
      middleware: [requireUser] as const,
      request: { body: { content: { 'application/json': { schema: changeUsernameSchema } }, required: true } },
      responses: { 200: jsonContent(accountSchema, 'The account'), ...errorResponses },
    }),
    async (c) => c.json(await changeUsername(deps.db, actorOf(c).userId, c.req.valid('json').username), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/account/sessions',
      tags,
      summary: 'My active sessions',
      middleware: [requireUser] as const,
      responses: { 200: jsonContent(sessionListSchema, 'Sessions, most recently seen first'), ...errorResponses },
    }),
    async (c) => {
      const actor = actorOf(c);
      return c.json({ sessions: await listSessions(deps.db, actor.userId, actor.sessionId) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/account/sessions/revoke-others',
      tags,
      summary: 'Sign out every other session',
      middleware: [requireUser] as const,
      responses: { 200: jsonContent(revokeOthersResultSchema, 'How many were revoked'), ...errorResponses },
    }),
    async (c) => {
      const actor = actorOf(c);
      const revoked = await revokeOtherSessions(deps.db, actor.userId, actor.sessionId);
      await endStreams(deps, { userId: actor.userId, exceptSessionId: actor.sessionId });
      return c.json({ revoked }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/account/sessions/{id}',
      tags,
      summary: 'Sign out one session',
      middleware: [requireUser] as const,
      request: { params: sessionIdParam },
      responses: { 204: { description: 'Revoked' }, ...errorResponses },
    }),
    async (c) => {
      const { userId } = actorOf(c);
      const { id } = c.req.valid('param');
      await revokeSession(deps.db, userId, id);
      await endStreams(deps, { userId, sessionIds: [id] });
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/account/export',
      tags,
      summary: 'Download everything held about me (JSON)',
      middleware: [requireUser] as const,
      responses: { 200: jsonContent(dataExportSchema, 'The export'), ...errorResponses },
    }),
    async (c) => {
      const actor = actorOf(c);
      const data = await exportData(deps, actor.userId, actor.sessionId);
      c.header('Content-Disposition', `attachment; filename="${setting('site.identity').siteName.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-data-${data.exportedAt.slice(0, 10)}.json"`);
      c.header('Cache-Control', 'no-store');
      return c.json(data, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/account/delete',
      tags,
      summary: 'Delete my account',
      middleware: [requireUser] as const,
      request: { body: { content: { 'application/json': { schema: deleteAccountSchema } }, required: true } },
      responses: { 200: jsonContent(deleteAccountResultSchema, 'Deleted and signed out'), ...errorResponses },
    }),
    async (c) => {
      const actor = actorOf(c);
      const input = c.req.valid('json');
      const tries = await hitPasswordCheck(deps.dbh, actor.userId);
      if (!tries.allowed) throw tooManyRequests(tries.retryAfterSeconds, passwordChecksMessage(tries.retryAfterSeconds));
      await deleteAccount(deps, actor.userId, input, clientIp(c, deps.config.trustProxy));
      const ctx = await getAuth(deps).$context;
      const cookie = ctx.authCookies.sessionToken;
      const secure = cookie.attributes.secure ? '; Secure' : '';
      c.header('Set-Cookie', `${cookie.name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure}`);
      return c.json({ deleted: true as const }, 200);
    },
  );

  return app;
}
