import type { Context, MiddlewareHandler } from 'hono';
import { retryAfterSeconds, type MaintenanceState } from '../../../shared/contracts/maintenance.ts';
import type { Deps } from '../../deps.ts';
import { isMfaAdmin } from '../../http/guards.ts';
import type { AppEnv } from '../../http/types.ts';
import { getAuth } from '../auth/auth.ts';
import { maintenanceCache } from './service.ts';

/**
 * API paths that answer during maintenance whoever asks: the health and readiness probes (load
 * balancers: a site in maintenance is still up and ready, it answers 503 itself), the public state
 * and the event stream (the maintenance page learns the end from them), the site config and who
 * is signed in (the SPA's shell), the Stripe webhook (a payment made before the switch must still
 * be credited), and the Better Auth steps an admin needs to sign in (not sign-up).
 */
const OPEN_EXACT = new Set([
  '/api/health',
  '/api/ready',
  '/api/maintenance',
  '/api/events',
  '/api/config',
  '/api/me',
  '/api/payments/stripe/webhook',
  '/api/auth/get-session',
  '/api/auth/sign-out',
]);
const OPEN_PREFIXES = ['/api/auth/sign-in/', '/api/auth/two-factor/verify-'];

export function isOpenDuringMaintenance(path: string): boolean {
  return OPEN_EXACT.has(path) || OPEN_PREFIXES.some((p) => path.startsWith(p));
}

export function maintenanceResponse(c: Context<AppEnv>, state: MaintenanceState) {
  const retryAfter = retryAfterSeconds(state.endsAt);
  c.header('Retry-After', String(retryAfter));
  c.header('Cache-Control', 'no-store');
  return c.json(
    {
      error: {
        code: 'maintenance' as const,
        message: state.message || 'We are down for maintenance. Please try again shortly.',
        retryAfter,
        endsAt: state.endsAt,
      },
    },
    503,
  );
}

/**
 * Decides once, when a request starts: a request that got past it runs to its commit (or rolls
 * back on its own), so switching maintenance on never cuts a purchase halfway. Runs after the
 * actor middleware, so telling an admin with two-factor apart costs nothing; Better Auth's own
 * paths are not resolved there, so for those (only while on) the session is read here.
 */
export function maintenanceGate(deps: Deps): MiddlewareHandler<AppEnv> {
  const cache = maintenanceCache(deps);
  return async (c, next) => {
    await cache.ready;
    const state = cache.state;
    if (!state.enabled || isOpenDuringMaintenance(c.req.path)) return next();
    if (isMfaAdmin(c.get('actor'))) return next();
    if (c.req.path.startsWith('/api/auth/') && (await authAdmin(deps, c))) return next();
    return maintenanceResponse(c, state);
  };
}

async function authAdmin(deps: Deps, c: Context<AppEnv>): Promise<boolean> {
  if (!c.req.header('cookie')?.includes('session_token')) return false;
  try {
    const res = await getAuth(deps).api.getSession({ headers: c.req.raw.headers });
    const role = (res?.user as { role?: string } | undefined)?.role;
    const mfa = (res?.session as { mfaVerifiedAt?: Date | null } | undefined)?.mfaVerifiedAt;
    return (role === 'admin' || role === 'owner') && !!mfa;
  } catch {
    return false;
  }
}
