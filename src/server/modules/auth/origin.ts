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

/**
 * CSRF defence for our own /api routes (Better Auth checks its routes itself): a state-changing
 * request must come from the site's own origin. Requests without an Origin or Referer are only
 * accepted when they carry no cookie — they cannot be riding a browser session.
 */
export function originGuard(config: Pick<Config, 'publicUrl'>): MiddlewareHandler<AppEnv> {
  const allowed = new URL(config.publicUrl).origin;
  return async (c, next) => {
    if (!UNSAFE.has(c.req.method) || c.req.path.startsWith('/api/auth/')) return next();
    const origin = originOf(c.req.header('origin')) ?? originOf(c.req.header('referer'));
    if (origin === allowed || (!origin && !c.req.header('cookie') && !c.req.header('origin'))) return next();
    throw new AppError(403, 'bad_origin', 'This request did not come from this site. Reload the page and try again.');
  };
}
