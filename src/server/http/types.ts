import type { Logger } from '../lib/logger.ts';

/** What an authenticated request carries; filled by the auth middleware. */
export interface Actor {
  userId: string;
  role: 'user' | 'admin' | 'owner';
  emailVerified: boolean;
  /** True when this session passed a second factor (or the user has none and the route allows it). */
  mfaPassed: boolean;
  sessionId: string;
  /** Public name, when the middleware loaded it (shown with top pulls). */
  username?: string;
}

/**
 * Who did it, as services that audit take it: the signed-in actor and the client's address
 * (`actorCtx` in guards.ts builds it from a request).
 */
export interface ActorCtx {
  actorId: string;
  ip: string | null;
}

/** The same, where the system may act too (a scheduled job): actorId null. */
export interface SystemOrActorCtx {
  actorId: string | null;
  ip: string | null;
}

export type AppEnv = {
  Variables: {
    requestId: string;
    log: Logger;
    actor: Actor | null;
  };
};
