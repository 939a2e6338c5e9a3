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

export type AppEnv = {
  Variables: {
    requestId: string;
    log: Logger;
    actor: Actor | null;
  };
};
