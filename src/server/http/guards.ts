import type { Context, MiddlewareHandler } from 'hono';
import { AppError, forbidden, unauthorized } from './errors.ts';
import { clientIp, type TrustProxy } from './client-ip.ts';
import type { Actor, ActorCtx, AppEnv } from './types.ts';

/**
 * Authorization middlewares. Every route that is not public uses one of these; the
 * route-enumeration test (authz.test.ts) proves it for every registered route.
 */
export const requireUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.get('actor')) throw unauthorized();
  await next();
};

/** Spending needs a verified email address. */
export const requireVerified: MiddlewareHandler<AppEnv> = async (c, next) => {
  const actor = c.get('actor');
  if (!actor) throw unauthorized();
  if (!actor.emailVerified) {
    throw forbidden('Confirm your email address before spending.', 'email_not_verified');
  }
  await next();
};

/**
 * The same rule as requireAdmin, as a predicate, for routes that show admins more (drafts,
 * other users' records): a session that has not passed two-factor sees what anyone sees.
 */
export function isMfaAdmin(actor: Actor | null | undefined): boolean {
  return !!actor && (actor.role === 'admin' || actor.role === 'owner') && actor.mfaPassed;
}

/** Admin APIs need the admin (or owner) role and a session that passed two-factor. */
export const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  const actor = c.get('actor');
  if (!actor) throw unauthorized();
  if (actor.role !== 'admin' && actor.role !== 'owner') {
    throw forbidden('This needs an admin account.', 'admin_role_required');
  }
  if (!actor.mfaPassed) {
    throw new AppError(403, 'mfa_required', 'Admin access needs two-factor authentication on this session.');
  }
  await next();
};

export const requireOwner: MiddlewareHandler<AppEnv> = async (c, next) => {
  const actor = c.get('actor');
  if (!actor) throw unauthorized();
  if (actor.role !== 'owner') throw forbidden('Only an owner can do this.', 'owner_role_required');
  if (!actor.mfaPassed) {
    throw new AppError(403, 'mfa_required', 'Admin access needs two-factor authentication on this session.');
  }
  await next();
};

/** The actor of a route behind requireUser/requireAdmin (throws if misused on a public route). */
export function actorOf(c: Context<AppEnv>): Actor {
  const actor = c.get('actor');
  if (!actor) throw unauthorized();
  return actor;
}

/** The actor context a service audits with, from a request that passed requireUser/requireAdmin. */
export function actorCtx(c: Context<AppEnv>, trustProxy: TrustProxy): ActorCtx {
  const actor = c.get('actor');
  if (!actor) throw unauthorized();
  return { actorId: actor.userId, ip: clientIp(c, trustProxy) };
}
