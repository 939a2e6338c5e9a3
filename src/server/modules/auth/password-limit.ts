import type { DbHandle } from '../../db/client.ts';
import { hitRateLimit, type RateLimitResult } from '../../lib/rate-limit.ts';
import { plural } from '../../../shared/words.ts';

/**
 * Re-entering the password while signed in (change password, delete the account, two-factor
 * enrolment, its URI, turning it off, new backup codes) shares one budget per user, so a stolen
 * session cannot guess the password by spreading tries over several endpoints or addresses.
 * Every try counts, right or wrong: once the budget is spent even the right password waits.
 */
export const PASSWORD_CHECKS = { limit: 6, windowSeconds: 15 * 60 } as const;

/** Better Auth endpoints that check the signed-in user's password. */
export const PASSWORD_CHECK_PATHS: ReadonlySet<string> = new Set([
  '/change-password',
  '/verify-password',
  '/two-factor/enable',
  '/two-factor/disable',
  '/two-factor/get-totp-uri',
  '/two-factor/generate-backup-codes',
]);

export function hitPasswordCheck(dbh: DbHandle, userId: string): Promise<RateLimitResult> {
  return hitRateLimit(dbh, `auth:password-check:user:${userId}`, PASSWORD_CHECKS.limit, PASSWORD_CHECKS.windowSeconds);
}

export function passwordChecksMessage(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Too many password attempts. Try again in ${plural(minutes, 'minute')}.`;
}
