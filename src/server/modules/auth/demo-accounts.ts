import { inArray } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Deps } from '../../deps.ts';
import { session, user } from '../../db/schema/auth.ts';
import { PEER_LOOPBACK_HEADER } from '../../http/loopback.ts';

/**
 * The demo accounts (README) have published passwords and a published TOTP secret. They are
 * seeded only outside production, and even where they exist they sign in only from this machine
 * in development, and never in production (a database carried over from a demo keeps them).
 */
export const DEMO_USER_EMAIL = 'demo@packvault.test';
export const DEMO_OWNER_EMAIL = 'admin@packvault.test';
export const DEMO_ACCOUNT_EMAILS: readonly string[] = [DEMO_USER_EMAIL, DEMO_OWNER_EMAIL];

export function isDemoAccount(email: string | null | undefined): boolean {
  return !!email && DEMO_ACCOUNT_EMAILS.includes(email.trim().toLowerCase());
}

/**
 * Why a session for this user must not be created, or null when it may. `peerLoopback` is the
 * PEER_LOOPBACK_HEADER our auth route sets from the socket peer; absent means "not known to be
 * local", which refuses (fail closed).
 */
export function demoSignInRefusal(config: Config, email: string, headers: Headers | undefined): string | null {
  if (!isDemoAccount(email)) return null;
  if (config.isProduction) return 'The demo accounts are disabled in production.';
  if (headers?.get(PEER_LOOPBACK_HEADER) !== '1') return 'The demo accounts sign in only from this machine (a loopback address, not through a proxy).';
  return null;
}

/** Production start-up: sessions a demo account got earlier (before the switch) end now. */
export async function revokeDemoSessions(deps: Deps): Promise<void> {
  const demo = await deps.db.select({ id: user.id }).from(user).where(inArray(user.email, [...DEMO_ACCOUNT_EMAILS]));
  if (demo.length === 0) return;
  const ended = await deps.db
    .delete(session)
    .where(
      inArray(
        session.userId,
        demo.map((u) => u.id),
      ),
    )
    .returning({ id: session.id });
  deps.log.warn('demo accounts exist in this production database; they cannot sign in', {
    accounts: demo.length,
    sessionsEnded: ended.length,
  });
}
