import type { BetterAuthOptions } from 'better-auth';
import { APIError } from 'better-auth/api';
import { eq } from 'drizzle-orm';
import type { Deps } from '../../deps.ts';
import * as authSchema from '../../db/schema/auth.ts';
import { endStreams } from '../realtime/session-streams.ts';
import { ensureCode } from '../referrals/codes.ts';
import { recordReferral } from '../referrals/service.ts';
import { demoSignInRefusal } from './demo-accounts.ts';
import {
  banMessage,
  isBanActive,
  referralCookie,
  SECOND_FACTOR_PATHS,
  SIGN_IN_PATHS,
  signUpDefaults,
  type Body,
} from './auth-rules.ts';
import type { TellSecurity } from './security-notice.ts';

/**
 * Better Auth's database hooks: sign-up's defaults and referral, who may get a session and
 * whether it has passed the second factor, the sign-in notice, and streams that end with their
 * session.
 */
export function authDatabaseHooks(deps: Deps, tellSecurity: TellSecurity): NonNullable<BetterAuthOptions['databaseHooks']> {
  const { config, db } = deps;
  return {
    user: {
      create: {
        before: async (u, ctx) => {
          const { ageConfirmedAt, termsAcceptedAt, ...defaults } = signUpDefaults(new Date());
          const data: Record<string, unknown> = { ...u, ...defaults };
          delete data.ageConfirmed;
          delete data.termsAccepted;
          if (ctx?.path === '/sign-up/email') Object.assign(data, { ageConfirmedAt, termsAcceptedAt });
          delete data.referralCode;
          return { data: data as typeof u };
        },
        // Runs after the sign-up committed: give the account its referral code and record who
        // invited it (the optional `referralCode` body field, else the pv_ref invite cookie).
        // Never fails the sign-up.
        after: async (u, ctx) => {
          if (ctx?.path !== '/sign-up/email') return;
          const body = (ctx.body ?? {}) as Body;
          const fromBody = typeof body.referralCode === 'string' && body.referralCode.trim() ? body.referralCode : null;
          const headers = (ctx as { headers?: Headers }).headers;
          const code = fromBody ?? referralCookie(headers?.get('cookie') ?? null);
          await db
            .transaction(async (tx) => {
              await ensureCode(tx, u.id);
              if (code) await recordReferral(tx, { refereeId: u.id, code });
            })
            .catch((err: unknown) => deps.log.warn('referral at sign-up not recorded', { err, userId: u.id }));
        },
      },
    },
    session: {
      create: {
        before: async (s, ctx) => {
          const [u] = await db.select().from(authSchema.user).where(eq(authSchema.user.id, s.userId)).limit(1);
          if (!u || u.deletedAt) {
            throw new APIError('UNAUTHORIZED', { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' });
          }
          if (isBanActive(u)) {
            throw new APIError('FORBIDDEN', { code: 'BANNED_USER', message: banMessage(u.banReason, u.banExpires) });
          }
          const demoRefusal = demoSignInRefusal(config, u.email, (ctx as { headers?: Headers } | undefined)?.headers);
          if (demoRefusal) throw new APIError('FORBIDDEN', { code: 'DEMO_ACCOUNT_DISABLED', message: demoRefusal });
          const path = ctx?.path ?? '';
          let mfaVerifiedAt: Date | null = null;
          if (SECOND_FACTOR_PATHS.has(path)) mfaVerifiedAt = new Date();
          // With two-factor on, a sign-in session survives only when the device is trusted
          // (otherwise the two-factor plugin deletes it at once and asks for a code).
          else if (SIGN_IN_PATHS.has(path) && u.twoFactorEnabled) mfaVerifiedAt = new Date();
          else if (path === '/verify-email' && u.twoFactorEnabled) {
            // A mailed link must not bypass the second factor.
            throw new APIError('FORBIDDEN', { code: 'TWO_FACTOR_REQUIRED', message: 'Sign in with your password and code.' });
          } else if (path !== '/two-factor/disable') {
            // Re-issued sessions (password change, enrolment) keep the current session's second factor.
            const current = ctx?.context.session?.session as { userId?: string; mfaVerifiedAt?: Date | null } | undefined;
            if (current?.userId === s.userId && current.mfaVerifiedAt) mfaVerifiedAt = new Date(current.mfaVerifiedAt);
          }
          return { data: { ...s, mfaVerifiedAt, lastSeenAt: new Date() } };
        },
        after: async (s, ctx) => {
          await db.update(authSchema.user).set({ lastSignInAt: new Date() }).where(eq(authSchema.user.id, s.userId));
          // A completed sign-in: password alone (no two-factor), or the second factor of a
          // sign-in (no session before it). Re-issued sessions (enrolment, password change) are not.
          const path = ctx?.path ?? '';
          const signedIn =
            (SIGN_IN_PATHS.has(path) && !(s as { mfaVerifiedAt?: Date | null }).mfaVerifiedAt) ||
            (SECOND_FACTOR_PATHS.has(path) && !ctx?.context.session);
          if (signedIn) await tellSecurity(s.userId, 'new_sign_in', s.ipAddress, s.userAgent);
        },
      },
      // Every session Better Auth deletes (sign-out, revoke, change or reset of the password,
      // the two-factor plugin's swap), after its transaction: its open streams end everywhere.
      delete: {
        after: async (s) => {
          await endStreams(deps, { userId: s.userId, sessionIds: [s.id] });
        },
      },
    },
  };
}
