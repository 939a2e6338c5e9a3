import { eq } from 'drizzle-orm';
import type { MiddlewareHandler } from 'hono';
import type { Deps } from '../../deps.ts';
import { session as sessionTable } from '../../db/schema/auth.ts';
import type { AppEnv } from '../../http/types.ts';
import { getAuth, isBanActive } from './auth.ts';

const LAST_SEEN_EVERY_MS = 60_000;

/**
 * Fills c.var.actor from the Better Auth session cookie. Banned or deleted accounts are treated as
 * signed out. Better Auth's own routes read the session themselves, so they are skipped.
 */
export function actorMiddleware(deps: Deps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const cookie = c.req.header('cookie');
    const path = c.req.path;
    // Static files never need the actor; Better Auth's own routes read the session themselves.
    if (!cookie || !cookie.includes('session_token') || path.startsWith('/api/auth/') || path.startsWith('/assets/')) {
      return next();
    }
    const auth = getAuth(deps);
    const { headers, response } = await auth.api.getSession({ headers: c.req.raw.headers, returnHeaders: true });
    if (response) {
      const u = response.user as typeof response.user & {
        role?: string;
        banned?: boolean;
        banExpires?: Date | null;
        deletedAt?: Date | null;
      };
      const s = response.session as typeof response.session & { mfaVerifiedAt?: Date | null; lastSeenAt?: Date | null };
      const banned = isBanActive({ banned: Boolean(u.banned), banExpires: u.banExpires ? new Date(u.banExpires) : null });
      if (!banned && !u.deletedAt) {
        c.set('actor', {
          userId: u.id,
          role: u.role === 'owner' || u.role === 'admin' ? u.role : 'user',
          emailVerified: Boolean(u.emailVerified),
          mfaPassed: Boolean(s.mfaVerifiedAt),
          sessionId: s.id,
        });
        const seen = s.lastSeenAt ? new Date(s.lastSeenAt).getTime() : 0;
        if (Date.now() - seen > LAST_SEEN_EVERY_MS) {
          await deps.db.update(sessionTable).set({ lastSeenAt: new Date() }).where(eq(sessionTable.id, s.id));
        }
      }
    }
    await next();
    // Session refresh (sliding expiry) or a cleared cookie from Better Auth.
    for (const setCookie of headers.getSetCookie()) c.res.headers.append('set-cookie', setCookie);
  };
}
