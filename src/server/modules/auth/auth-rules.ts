import { APIError } from 'better-auth/api';
import { sql } from 'drizzle-orm';
import type { Deps } from '../../deps.ts';
import * as authSchema from '../../db/schema/auth.ts';
import { isReservedName, RESERVED_NAME_MESSAGE } from '../../../shared/reserved-names.ts';
import { REFERRAL_COOKIE } from '../../../shared/contracts/referrals.ts';
import { instantText, plural } from '../../../shared/words.ts';

/** The rules Better Auth's hooks share (request-hooks.ts, session-hooks.ts) and a few other modules read. */

/** Header our HTTP layer sets (overwriting any client value) so Better Auth records the real client IP. */
export const CLIENT_IP_HEADER = 'x-packvault-client-ip';

/** Where a session counts as having passed the second factor. */
export const SECOND_FACTOR_PATHS = new Set(['/two-factor/verify-totp', '/two-factor/verify-backup-code']);
export const SIGN_IN_PATHS = new Set(['/sign-in/email', '/sign-in/username']);
/** Signed-in endpoints that tell the user (security notification) when they succeed. */
export const SECURITY_PATHS = new Set(['/change-password', '/two-factor/disable', '/two-factor/verify-totp']);
/** Endpoints whose whole point is a mail (a link to click); with MAIL_DISABLED they answer 503. */
export const MAIL_ONLY_PATHS = new Set(['/sign-up/email', '/request-password-reset', '/forget-password', '/send-verification-email', '/change-email']);

export const MAIL_DISABLED_MESSAGE = 'This site sends no email right now, so this is unavailable. Contact support.';

export function fieldError(code: string, message: string, field: string, status: 'BAD_REQUEST' | 'UNAUTHORIZED' = 'BAD_REQUEST') {
  return new APIError(status, { code, message, fields: { [field]: [message] } });
}

export function lockedError(seconds: number) {
  const minutes = Math.ceil(seconds / 60);
  return new APIError(
    'TOO_MANY_REQUESTS',
    {
      code: 'ACCOUNT_TEMPORARILY_LOCKED',
      message: `Too many wrong codes. Two-factor is locked for ${plural(minutes, 'minute')}.`,
      retryAfter: seconds,
    },
    { 'Retry-After': String(seconds) },
  );
}

export function banMessage(reason: string | null, until: Date | null): string {
  const why = reason ? ` Reason: ${reason}.` : '';
  const end = until ? ` The suspension ends on ${instantText(until)}.` : '';
  return `Your account is suspended.${why}${end}`;
}

export function isBanActive(u: { banned: boolean; banExpires: Date | null }, now = Date.now()): boolean {
  return u.banned && (!u.banExpires || u.banExpires.getTime() > now);
}

export async function usernameTaken(deps: Deps, username: string, exceptUserId?: string): Promise<boolean> {
  const rows = await deps.db
    .select({ id: authSchema.user.id })
    .from(authSchema.user)
    .where(sql`lower(${authSchema.user.username}) = lower(${username})`)
    .limit(1);
  return rows.length > 0 && rows[0]!.id !== exceptUserId;
}

export type Body = Record<string, unknown>;

/** The invite code remembered in the pv_ref cookie of a request, if any. */
export function referralCookie(cookieHeader: string | null): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== REFERRAL_COOKIE) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim()) || null;
    } catch {
      return null;
    }
  }
  return null;
}

/** The display name's cap, as the sign-up contract has it (shared/contracts/account.ts). */
export const NAME_MAX = 100;
export const IMAGE_URL_MAX = 2048;

/** What sign-up (and an existing email's look-alike answer) writes besides the submitted fields. */
export function signUpDefaults(now: Date) {
  return { role: 'user', banned: false, ageConfirmedAt: now, termsAcceptedAt: now };
}

/** A problem with the profile fields Better Auth lets a user set (name, image), or null. */
export function profileProblem(body: Body): { field: 'name' | 'image'; code: string; message: string } | null {
  if (body.name !== undefined) {
    if (typeof body.name !== 'string' || !body.name.trim()) {
      return { field: 'name', code: 'NAME_INVALID', message: 'Enter a name.' };
    }
    if (body.name.trim().length > NAME_MAX) {
      return { field: 'name', code: 'NAME_TOO_LONG', message: `Use at most ${NAME_MAX} characters for the name.` };
    }
    if (isReservedName(body.name)) return { field: 'name', code: 'NAME_RESERVED', message: RESERVED_NAME_MESSAGE };
  }
  if (body.image !== undefined && body.image !== null) {
    const ok = typeof body.image === 'string' && body.image.length <= IMAGE_URL_MAX && /^https?:\/\/[^\s]+$/i.test(body.image);
    if (!ok) return { field: 'image', code: 'IMAGE_INVALID', message: `The image must be an http(s) address of at most ${IMAGE_URL_MAX} characters.` };
  }
  return null;
}
