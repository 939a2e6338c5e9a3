import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { idSchema } from '../../../shared/contracts/catalog.ts';
import {
  adminReferralDetailSchema,
  adminReferralListQuerySchema,
  adminReferralListSchema,
  claimInputSchema,
  inviteSchema,
  myReferralsSchema,
  REFERRAL_COOKIE,
  REFERRAL_COOKIE_DAYS,
  referralSettingsSchema,
  vanityInputSchema,
  voidReferralInputSchema,
} from '../../../shared/contracts/referrals.ts';
import type { Config } from '../../config.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Deps } from '../../deps.ts';
import { actorCtx, actorOf, requireAdmin, requireOwner, requireUser } from '../../http/guards.ts';
import { createRouter, errorResponses, jsonContent, z } from '../../http/openapi.ts';
import { clientAddressKey } from '../../http/client-ip.ts';
import type { AppEnv } from '../../http/types.ts';
import { enforceRateLimit } from '../../lib/rate-limit.ts';
import { codeTaken, setVanityCode } from './codes.ts';
import { claimReferral, getInvite } from './service.ts';
import { getMyReferrals } from './my-referrals.ts';
import { getReferralDetail, listReferrals, voidReferral } from './admin.ts';
import { getReferralSettings, putReferralSettings } from './settings.ts';

/**
 * Per client address: plenty for people (and test suites behind one address), hopeless for
 * walking a space of 31^7 generated codes.
 */
export const INVITE_LOOKUPS = 60;
export const INVITE_WINDOW_SECONDS = 60;

const json = <T>(schema: T) => ({ required: true, content: { 'application/json': { schema } } });
const idParam = z.object({ id: idSchema });
/** Any text: a malformed code gets the same 404 as an unknown one (the service decides). */
const codeParam = z.object({ code: z.string() });

/** The cookie is Secure wherever the site is served over https (and always in production). */
export function refCookieSecure(config: Pick<Config, 'isProduction' | 'publicUrl'>): boolean {
  return config.isProduction || config.publicUrl.startsWith('https://');
}

function rememberCode(c: Context<AppEnv>, config: Config, code: string) {
  setCookie(c, REFERRAL_COOKIE, code, {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: refCookieSecure(config),
    maxAge: REFERRAL_COOKIE_DAYS * 24 * 3600,
  });
}

/** Referral codes, invites and rewards for users; /api/admin/referrals for the back office. */
export function referralsRoutes(deps: Deps) {
  const app = createRouter();
  const { db, config } = deps;
  const limit = (c: Context<AppEnv>) => enforceRateLimit(deps.dbh, `referral-invite:${clientAddressKey(c, config.trustProxy)}`, INVITE_LOOKUPS, INVITE_WINDOW_SECONDS);

  // Public ------------------------------------------------------------------------------------------

  app.openapi(
    createRoute({
      method: 'get',
      path: '/referrals/invite/{code}',
      tags: ['referrals'],
      summary: `Who invites you and the offer; remembers the code in the ${REFERRAL_COOKIE} cookie for ${REFERRAL_COOKIE_DAYS} days. Unknown or malformed → the same 404. Rate-limited per address.`,
      request: { params: codeParam },
      responses: { 200: jsonContent(inviteSchema, 'Invite'), ...errorResponses },
    }),
    async (c) => {
      await limit(c);
      const invite = await getInvite(db, c.req.valid('param').code, config.currency);
      rememberCode(c, config, invite.code);
      return c.json(invite, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/referrals/remembered',
      tags: ['referrals'],
      summary: `The invite remembered in the ${REFERRAL_COOKIE} cookie (for the sign-up page), or 404`,
      responses: { 200: jsonContent(inviteSchema, 'Invite'), ...errorResponses },
    }),
    async (c) => {
      const code = getCookie(c, REFERRAL_COOKIE) ?? '';
      // No cookie (most sign-up page visits): nothing looked up, nothing counted.
      if (code) await limit(c);
      return c.json(await getInvite(db, code, config.currency), 200);
    },
  );

  // Signed in ---------------------------------------------------------------------------------------

  app.openapi(
    createRoute({
      method: 'get',
      path: '/referrals/me',
      tags: ['referrals'],
      summary: 'Your code and link, who you invited, your rewards and the terms (the code is created on first need)',
      middleware: [requireUser] as const,
      responses: { 200: jsonContent(myReferralsSchema, 'My referrals'), ...errorResponses },
    }),
    async (c) => {
      const userId = actorOf(c).userId;
      return c.json(await db.transaction((tx) => getMyReferrals(tx, userId, config.currency)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/referrals/me/code',
      tags: ['referrals'],
      summary: 'Pick your own code, once: free (409 code_taken) and clean (400), never twice (409 vanity_already_set)',
      middleware: [requireUser] as const,
      request: { body: json(vanityInputSchema) },
      responses: { 200: jsonContent(myReferralsSchema, 'My referrals'), ...errorResponses },
    }),
    async (c) => {
      const userId = actorOf(c).userId;
      const { code } = c.req.valid('json');
      try {
        await db.transaction((tx) => setVanityCode(tx, userId, code));
      } catch (err) {
        if (isUniqueViolation(err)) throw codeTaken();
        throw err;
      }
      return c.json(await db.transaction((tx) => getMyReferrals(tx, userId, config.currency)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/referrals/claim',
      tags: ['referrals'],
      summary: "Enter a friend's code before your first deposit (404 unknown; 409 already_referred, referral_too_late, self_referral)",
      middleware: [requireUser] as const,
      request: { body: json(claimInputSchema) },
      responses: { 200: jsonContent(myReferralsSchema, 'My referrals'), ...errorResponses },
    }),
    async (c) => {
      const userId = actorOf(c).userId;
      const { code } = c.req.valid('json');
      await limit(c);
      await db.transaction((tx) => claimReferral(tx, userId, code));
      return c.json(await db.transaction((tx) => getMyReferrals(tx, userId, config.currency)), 200);
    },
  );

  // Admin -------------------------------------------------------------------------------------------

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/referrals/settings',
      tags: ['referrals'],
      summary: 'The programme: rewards, qualifying amount, purchase share and its cap',
      middleware: [requireAdmin] as const,
      responses: { 200: jsonContent(referralSettingsSchema, 'Settings'), ...errorResponses },
    }),
    (c) => c.json(getReferralSettings(), 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/admin/referrals/settings',
      tags: ['referrals'],
      summary: 'Change the programme (owner only: it creates money; audited with before/after); referrals already qualified keep their terms',
      middleware: [requireAdmin, requireOwner] as const,
      request: { body: json(referralSettingsSchema) },
      responses: { 200: jsonContent(referralSettingsSchema, 'Settings'), ...errorResponses },
    }),
    async (c) => {
      const actor = actorCtx(c, config.trustProxy);
      const body = c.req.valid('json');
      const saved = await db.transaction((tx) => putReferralSettings(tx, actor, body));
      return c.json(saved, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/referrals',
      tags: ['referrals'],
      summary: 'Referrals: filter by status, search username/email/code; counts per status',
      middleware: [requireAdmin] as const,
      request: { query: adminReferralListQuerySchema },
      responses: { 200: jsonContent(adminReferralListSchema, 'Referrals'), ...errorResponses },
    }),
    async (c) => c.json(await listReferrals(db, c.req.valid('query')), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/referrals/{id}',
      tags: ['referrals'],
      summary: 'A referral with its terms and every reward paid or taken back',
      middleware: [requireAdmin] as const,
      request: { params: idParam },
      responses: { 200: jsonContent(adminReferralDetailSchema, 'Referral'), ...errorResponses },
    }),
    async (c) => c.json(await getReferralDetail(db, c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/admin/referrals/{id}/void',
      tags: ['referrals'],
      summary: 'Void a referral (audited); with clawBack, take back what it paid (never below zero). 409 when already closed.',
      middleware: [requireAdmin] as const,
      request: { params: idParam, body: json(voidReferralInputSchema) },
      responses: { 200: jsonContent(adminReferralDetailSchema, 'Referral'), ...errorResponses },
    }),
    async (c) => {
      const actor = actorCtx(c, config.trustProxy);
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      await deps.db.transaction((tx) => voidReferral(tx, actor, id, body));
      return c.json(await getReferralDetail(db, id), 200);
    },
  );

  return app;
}
