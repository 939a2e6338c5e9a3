import { createHmac, timingSafeEqual } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { MiddlewareHandler } from 'hono';
import type { Deps } from '../../deps.ts';
import { session as sessionTable, user as userTable } from '../../db/schema/auth.ts';
import type { Actor, AppEnv } from '../../http/types.ts';
import { getAuth } from './auth.ts';
import { isBanActive } from './auth-rules.ts';

const LAST_SEEN_EVERY_MS = 60_000;

interface CookieFacts {
  name: string;
  dontRemember: string;
  secret: string;
  expiresInMs: number;
  updateAgeMs: number;
}
const facts = new WeakMap<Deps, Promise<CookieFacts>>();

function cookieFacts(deps: Deps): Promise<CookieFacts> {
  let f = facts.get(deps);
  if (!f) {
    f = getAuth(deps).$context.then((ctx) => ({
      name: ctx.authCookies.sessionToken.name,
      dontRemember: ctx.authCookies.dontRememberToken.name,
      secret: ctx.secret,
      expiresInMs: ctx.sessionConfig.expiresIn * 1000,
      updateAgeMs: ctx.sessionConfig.updateAge * 1000,
    }));
    facts.set(deps, f);
  }
  return f;
}

function cookieValue(header: string, name: string): string | null {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** The session token of a cookie Better Auth signed (`token.base64(HMAC-SHA256(secret, token))`), or null. */
function verifiedToken(raw: string, secret: string): string | null {
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    return null;
  }
  const dot = value.lastIndexOf('.');
  if (dot < 1) return null;
  const token = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1), 'base64');
  const expected = createHmac('sha256', secret).update(token).digest();
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
}

const columns = {
  sessionId: sessionTable.id,
  expiresAt: sessionTable.expiresAt,
  mfaVerifiedAt: sessionTable.mfaVerifiedAt,
  lastSeenAt: sessionTable.lastSeenAt,
  userId: userTable.id,
  username: userTable.username,
  role: userTable.role,
  emailVerified: userTable.emailVerified,
  banned: userTable.banned,
  banExpires: userTable.banExpires,
  deletedAt: userTable.deletedAt,
};

/**
 * The fast path's one query, built once: it runs on every signed-in request, and building it
 * with the query builder each time cost more than running it (a named statement on both drivers).
 */
const SESSION_QUERY = new PgDialect().sqlToQuery(
  sql`select ${sql.join(
    Object.entries(columns).map(([k, col]) => sql`${col} as ${sql.identifier(k)}`),
    sql`, `,
  )} from ${sessionTable} inner join ${userTable} on ${userTable.id} = ${sessionTable.userId} where ${sessionTable.token} = ${sql.placeholder('token')}`,
);
type SessionRow = { [K in keyof typeof columns]: unknown };

/** Raw driver values to typed ones: timestamps arrive as Date (PGlite) or text (postgres.js under drizzle). */
function sessionOf(r: SessionRow) {
  const date = (v: unknown) => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v)));
  return {
    sessionId: String(r.sessionId),
    expiresAt: date(r.expiresAt)!,
    mfaVerifiedAt: date(r.mfaVerifiedAt),
    lastSeenAt: date(r.lastSeenAt)!,
    userId: String(r.userId),
    username: String(r.username),
    role: r.role === null ? null : String(r.role),
    emailVerified: Boolean(r.emailVerified),
    banned: r.banned === null ? null : Boolean(r.banned),
    banExpires: date(r.banExpires),
    deletedAt: date(r.deletedAt),
  };
}

function toActor(r: { userId: string; role: string | null; emailVerified: boolean; mfaVerifiedAt: Date | null; sessionId: string; username: string }): Actor {
  return {
    userId: r.userId,
    role: r.role === 'owner' || r.role === 'admin' ? r.role : 'user',
    emailVerified: Boolean(r.emailVerified),
    mfaPassed: Boolean(r.mfaVerifiedAt),
    sessionId: r.sessionId,
    username: r.username,
  };
}

/**
 * Fills c.var.actor from the Better Auth session cookie. Banned or deleted accounts are treated as
 * signed out. Better Auth's own routes read the session themselves, so they are skipped.
 *
 * Most requests take a fast path: the cookie's HMAC checked with node:crypto and one query joining
 * the session to its user. Better Auth's getSession (web-crypto verify, two queries, an endpoint
 * context) cost more CPU than the rest of a pack opening's request handling, on every request.
 * Anything the fast path does not handle itself — no such session, expired, due for its sliding
 * refresh, a "don't remember me" session — goes to getSession, which refreshes or clears the
 * cookie exactly as before.
 */
export function actorMiddleware(deps: Deps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const cookie = c.req.header('cookie');
    const path = c.req.path;
    // Static files never need the actor; Better Auth's own routes read the session themselves.
    if (!cookie || !cookie.includes('session_token') || path.startsWith('/api/auth/') || path.startsWith('/assets/')) {
      return next();
    }
    const f = await cookieFacts(deps);
    const raw = cookieValue(cookie, f.name);
    const token = raw && !cookieValue(cookie, f.dontRemember) ? verifiedToken(raw, f.secret) : null;
    // A genuine cookie whose session row is gone: revoked, signed out elsewhere, or replaced by a
    // sign-in step that rotated the session (see below).
    let sessionGone = false;
    if (token) {
      const [raw] = await deps.dbh.run<SessionRow>(SESSION_QUERY.sql, [token]);
      const row = raw && sessionOf(raw);
      sessionGone = !row;
      const now = Date.now();
      if (row && row.expiresAt.getTime() > now && row.expiresAt.getTime() - f.expiresInMs + f.updateAgeMs > now) {
        const banned = isBanActive({ banned: Boolean(row.banned), banExpires: row.banExpires });
        if (!banned && !row.deletedAt) {
          c.set('actor', toActor(row));
          if (now - row.lastSeenAt.getTime() > LAST_SEEN_EVERY_MS) {
            await deps.db.update(sessionTable).set({ lastSeenAt: new Date() }).where(eq(sessionTable.id, row.sessionId));
          }
        }
        return next();
      }
    }
    const auth = getAuth(deps);
    const { headers, response } = await auth.api.getSession({ headers: c.req.raw.headers, returnHeaders: true });
    if (response) {
      const u = response.user as typeof response.user & {
        role?: string;
        banned?: boolean;
        banExpires?: Date | null;
        deletedAt?: Date | null;
        username?: string;
      };
      const s = response.session as typeof response.session & { mfaVerifiedAt?: Date | null; lastSeenAt?: Date | null };
      const banned = isBanActive({ banned: Boolean(u.banned), banExpires: u.banExpires ? new Date(u.banExpires) : null });
      if (!banned && !u.deletedAt) {
        c.set(
          'actor',
          toActor({
            userId: u.id,
            role: u.role ?? null,
            emailVerified: Boolean(u.emailVerified),
            mfaVerifiedAt: s.mfaVerifiedAt ? new Date(s.mfaVerifiedAt) : null,
            sessionId: s.id,
            username: u.username ?? '',
          }),
        );
        const seen = s.lastSeenAt ? new Date(s.lastSeenAt).getTime() : 0;
        if (Date.now() - seen > LAST_SEEN_EVERY_MS) {
          await deps.db.update(sessionTable).set({ lastSeenAt: new Date() }).where(eq(sessionTable.id, s.id));
        }
      }
    }
    await next();
    // Session refresh (sliding expiry) or a cleared cookie from Better Auth. Not a cleared one for
    // a session that is gone, nor on the event stream: when a sign-in step rotates the session
    // (two-factor enrolment, a new password), a request sent just before — a query refetch, the
    // stream reconnecting as its session ends (realtime/session-streams.ts) — is answered after
    // the browser stored the new cookie, and clearing "the" cookie from that answer signed the
    // browser out of its brand-new session. A dead cookie is harmless: it names no session, so
    // every request with it is signed out, and the next sign-in replaces it. An expired session
    // (its row still there) has its cookie cleared as before.
    const keepCookie = sessionGone || path === '/api/events';
    for (const setCookie of headers.getSetCookie()) {
      if (keepCookie && /;\s*max-age=0/i.test(setCookie)) continue;
      c.res.headers.append('set-cookie', setCookie);
    }
  };
}
