import { createRoute } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import type { Deps } from '../../deps.ts';
import { session as sessionTable, user as userTable, verification } from '../../db/schema/auth.ts';
import { createRouter, jsonContent } from '../../http/openapi.ts';
import { rateLimitAddress } from '../../http/client-ip.ts';
import { clientIp } from '../../http/security.ts';
import { PEER_LOOPBACK_HEADER, peerLoopbackHeaderValue } from '../../http/loopback.ts';
import type { AppEnv } from '../../http/types.ts';
import { hitRateLimit } from '../../lib/rate-limit.ts';
import { meSchema, type Me } from '../../../shared/contracts/me.ts';
import { referralCodes } from '../referrals/tables.ts';
import { CLIENT_IP_HEADER } from './auth-rules.ts';
import { getAuth } from './auth.ts';

interface Limit {
  /** Key suffix, or null to skip this limit for the request. */
  key: (ip: string, email: string | null) => string | null;
  limit: number;
  windowSeconds: number;
}

const perIp = (limit: number, windowSeconds: number): Limit => ({ key: (ip) => `ip:${rateLimitAddress(ip)}`, limit, windowSeconds });
const perEmail = (limit: number, windowSeconds: number): Limit => ({
  key: (_ip, email) => (email ? `email:${email}` : null),
  limit,
  windowSeconds,
});

/** Database-backed limits on Better Auth endpoints (Better Auth's in-memory limiter is off). */
const AUTH_LIMITS: Record<string, { name: string; limits: Limit[] }> = {
  '/sign-in/email': { name: 'sign-in', limits: [perIp(30, 300), perEmail(10, 900)] },
  '/sign-up/email': { name: 'sign-up', limits: [perIp(10, 3600)] },
  '/request-password-reset': { name: 'reset', limits: [perIp(10, 3600), perEmail(3, 900)] },
  '/forget-password': { name: 'reset', limits: [perIp(10, 3600), perEmail(3, 900)] },
  '/reset-password': { name: 'reset-submit', limits: [perIp(20, 3600)] },
  '/send-verification-email': { name: 'verify-mail', limits: [perIp(10, 3600), perEmail(3, 600)] },
  '/change-email': { name: 'verify-mail', limits: [perIp(10, 3600)] },
  '/two-factor/verify-totp': { name: 'two-factor', limits: [perIp(30, 300)] },
  '/two-factor/verify-backup-code': { name: 'two-factor', limits: [perIp(30, 300)] },
  '/two-factor/enable': { name: 'two-factor', limits: [perIp(30, 300)] },
  '/two-factor/disable': { name: 'two-factor', limits: [perIp(30, 300)] },
  '/two-factor/generate-backup-codes': { name: 'two-factor', limits: [perIp(30, 300)] },
};

/** The media type without parameters, as Better Auth compares it ("application/json; charset=utf-8" → "application/json"). */
function mediaType(req: Request): string {
  return (req.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * The email a request names, whatever the body type (JSON, form-encoded, multipart), normalised as
 * Better Auth looks it up (lowercase; trimmed too, so padding cannot open a fresh bucket).
 */
async function emailOf(req: Request): Promise<string | null> {
  if (!req.body) return null;
  let value: unknown;
  try {
    const type = mediaType(req);
    if (type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data') {
      value = (await req.clone().formData()).get('email');
    } else {
      value = ((await req.clone().json()) as { email?: unknown } | null)?.email;
    }
  } catch {
    return null;
  }
  return typeof value === 'string' && value.trim() ? value.trim().toLowerCase().slice(0, 254) : null;
}

function unsupportedMediaType() {
  return new Response(
    JSON.stringify({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'Send the request body as JSON (Content-Type: application/json).',
    }),
    { status: 415, headers: { 'content-type': 'application/json' } },
  );
}

function rateLimited(retryAfter: number) {
  return new Response(
    JSON.stringify({
      code: 'RATE_LIMITED',
      message: `Too many attempts. Try again in ${retryAfter} seconds.`,
      retryAfter,
    }),
    { status: 429, headers: { 'content-type': 'application/json', 'retry-after': String(retryAfter) } },
  );
}

const VERIFY_REASONS: Record<string, string> = {
  TOKEN_EXPIRED: 'expired_link',
  INVALID_TOKEN: 'invalid_token',
  USER_NOT_FOUND: 'invalid_token',
  INVALID_USER: 'invalid_token',
};

/** Sends failed mailed links to /auth-error?reason=… instead of a bare ?error=CODE. */
async function rewriteLinkRedirect(deps: Deps, path: string, res: Response): Promise<Response> {
  const location = res.headers.get('location');
  if (res.status < 300 || res.status >= 400 || !location) return res;
  const target = new URL(location, deps.config.publicUrl);
  const error = target.searchParams.get('error');
  if (!error) return res;
  let reason = VERIFY_REASONS[error] ?? 'unknown';
  const token = path.match(/^\/reset-password\/([^/]+)$/)?.[1];
  if (token) {
    const [row] = await deps.db
      .select({ expiresAt: verification.expiresAt })
      .from(verification)
      .where(eq(verification.identifier, `reset-password:${decodeURIComponent(token)}`))
      .limit(1);
    reason = row && row.expiresAt.getTime() < Date.now() ? 'expired_link' : 'invalid_token';
  }
  const headers = new Headers(res.headers);
  headers.set('location', `/auth-error?reason=${reason}`);
  return new Response(null, { status: res.status, headers });
}

export function authRoutes(deps: Deps) {
  const app = createRouter();
  const auth = getAuth(deps);

  const handle = async (c: Context<AppEnv>) => {
    const path = c.req.path.slice('/api/auth'.length) || '/';
    const ip = clientIp(c, deps.config.trustProxy);
    const rule = c.req.method === 'POST' ? AUTH_LIMITS[path] : undefined;
    if (rule) {
      const email = await emailOf(c.req.raw);
      for (const limit of rule.limits) {
        const key = limit.key(ip, email);
        if (!key) continue;
        const r = await hitRateLimit(deps.dbh, `auth:${rule.name}:${key}`, limit.limit, limit.windowSeconds);
        if (!r.allowed) return rateLimited(r.retryAfterSeconds);
      }
    }
    // Our client only ever posts JSON. Other body types (form posts, which Better Auth takes on
    // sign-in and sign-up) are refused after they have counted against the limits above.
    if (c.req.method === 'POST' && c.req.raw.body && mediaType(c.req.raw) !== 'application/json') return unsupportedMediaType();
    const headers = new Headers(c.req.raw.headers);
    headers.set(CLIENT_IP_HEADER, ip);
    headers.set(PEER_LOOPBACK_HEADER, peerLoopbackHeaderValue(c));
    const req = new Request(c.req.raw, { headers });
    const res = await auth.handler(req);
    if (c.req.method === 'GET' && (path === '/verify-email' || path.startsWith('/reset-password/'))) {
      return rewriteLinkRedirect(deps, path, res);
    }
    return res;
  };
  app.on(['GET', 'POST'], '/auth/*', handle);

  app.openapi(
    createRoute({
      method: 'get',
      path: '/me',
      tags: ['auth'],
      summary: 'Who is signed in on this browser (null for a visitor)',
      responses: { 200: jsonContent(meSchema.nullable(), 'The signed-in user and session, or null') },
    }),
    async (c) => {
      // A visitor is an answer, not an error: 200 null keeps every visitor page free of a 401.
      const actor = c.get('actor');
      if (!actor) return c.json(null, 200);
      const [row] = await deps.db
        .select({ u: userTable, s: sessionTable, code: referralCodes.code })
        .from(sessionTable)
        .innerJoin(userTable, eq(userTable.id, sessionTable.userId))
        .leftJoin(referralCodes, eq(referralCodes.userId, userTable.id))
        .where(eq(sessionTable.id, actor.sessionId))
        .limit(1);
      if (!row) return c.json(null, 200);
      const me: Me = {
        user: {
          id: row.u.id,
          email: row.u.email,
          username: row.u.username,
          role: row.u.role,
          emailVerified: row.u.emailVerified,
          twoFactorEnabled: row.u.twoFactorEnabled,
          createdAt: row.u.createdAt.toISOString(),
          referralCode: row.code,
        },
        session: {
          id: row.s.id,
          mfaPassed: Boolean(row.s.mfaVerifiedAt),
          expiresAt: row.s.expiresAt.toISOString(),
        },
      };
      return c.json(me, 200);
    },
  );
  return app;
}
