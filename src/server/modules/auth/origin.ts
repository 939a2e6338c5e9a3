import type { MiddlewareHandler } from 'hono';
import type { Config } from '../../config.ts';
import { AppError } from '../../http/errors.ts';
import type { AppEnv } from '../../http/types.ts';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function originOf(value: string | undefined): string | null {
  if (!value || value === 'null') return null;
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The origins a state-changing request may come from: PUBLIC_URL's, exactly. In development also
 * its loopback aliases on the same scheme and port, so a newcomer who opens
 * http://127.0.0.1:3000 instead of http://localhost:3000 can sign in. Used for our routes and as
 * Better Auth's trustedOrigins.
 */
export function allowedOrigins(config: Pick<Config, 'publicUrl' | 'env'>): string[] {
  const url = new URL(config.publicUrl);
  const origins = new Set([url.origin]);
  if (config.env === 'development') {
    for (const host of LOOPBACK_HOSTS) {
      const alias = new URL(url.origin);
      alias.hostname = host;
      origins.add(alias.origin);
    }
  }
  return [...origins];
}

/**
 * CSRF defence for our own /api routes (Better Auth checks its routes itself): a state-changing
 * request must come from the site's own origin. Requests without an Origin or Referer are only
 * accepted when they carry no cookie — they cannot be riding a browser session.
 */
export function originGuard(config: Pick<Config, 'publicUrl' | 'env'>): MiddlewareHandler<AppEnv> {
  const allowed = new Set(allowedOrigins(config));
  return async (c, next) => {
    if (!UNSAFE.has(c.req.method) || c.req.path.startsWith('/api/auth/')) return next();
    const origin = originOf(c.req.header('origin')) ?? originOf(c.req.header('referer'));
    if ((origin !== null && allowed.has(origin)) || (!origin && !c.req.header('cookie') && !c.req.header('origin'))) return next();
    throw new AppError(403, 'bad_origin', 'This request did not come from this site. Reload the page and try again.');
  };
}
