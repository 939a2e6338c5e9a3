import type { BetterAuthOptions } from 'better-auth';
import { APIError, createAuthMiddleware, getSessionFromCtx } from 'better-auth/api';
import { and, eq } from 'drizzle-orm';
import type { Deps } from '../../deps.ts';
import * as authSchema from '../../db/schema/auth.ts';
import { usernameSchema } from '../../../shared/contracts/account.ts';
import { hitPasswordCheck, PASSWORD_CHECK_PATHS, passwordChecksMessage } from './password-limit.ts';
import { passwordProblem } from './passwords.ts';
import {
  checkSecondFactor,
  claimTotpStep,
  findTwoFactor,
  lockedForSeconds,
  matchTotpStep,
  readBackupCodes,
  recordFailure,
} from './second-factor.ts';
import { matchBackupCode } from './backup-codes.ts';
import {
  CLIENT_IP_HEADER,
  fieldError,
  lockedError,
  MAIL_DISABLED_MESSAGE,
  MAIL_ONLY_PATHS,
  profileProblem,
  SECOND_FACTOR_PATHS,
  SECURITY_PATHS,
  usernameTaken,
  type Body,
} from './auth-rules.ts';
import type { TellSecurity } from './security-notice.ts';

/**
 * Better Auth's request hooks: our rules before an endpoint runs (sign-up's fields, password
 * strength and checks, profile fields, one use per TOTP code, lockout, the password before a
 * backup code), and after it succeeds (security notices, a step-up that passed).
 */
export function authRequestHooks(deps: Deps, tellSecurity: TellSecurity): NonNullable<BetterAuthOptions['hooks']> {
  const { config, db } = deps;
  return {
    before: createAuthMiddleware(async (ctx) => {
      if (config.mailDisabled && MAIL_ONLY_PATHS.has(ctx.path)) {
        throw new APIError('SERVICE_UNAVAILABLE', { code: 'MAIL_DISABLED', message: MAIL_DISABLED_MESSAGE });
      }
      const body = (ctx.body ?? {}) as Body;
      if (PASSWORD_CHECK_PATHS.has(ctx.path)) {
        const session = await getSessionFromCtx(ctx).catch(() => null);
        if (session) {
          const r = await hitPasswordCheck(deps.dbh, session.user.id);
          if (!r.allowed) {
            throw new APIError(
              'TOO_MANY_REQUESTS',
              { code: 'RATE_LIMITED', message: passwordChecksMessage(r.retryAfterSeconds), retryAfter: r.retryAfterSeconds },
              { 'Retry-After': String(r.retryAfterSeconds) },
            );
          }
        }
      }
      switch (ctx.path) {
        case '/sign-up/email':
          return checkSignUp(deps, body);
        case '/send-verification-email':
          return defaultVerificationCallback(body);
        case '/reset-password':
        case '/change-password':
        case '/set-password':
          return checkNewPassword(ctx, body);
        case '/update-user':
          return checkProfileUpdate(body);
        case '/two-factor/verify-totp':
        case '/two-factor/verify-backup-code':
          return checkSecondFactorCode(deps, ctx, body);
        case '/two-factor/disable':
        case '/two-factor/generate-backup-codes':
          return checkTwoFactorChange(deps, ctx, body);
        default:
          return;
      }
    }),
    after: createAuthMiddleware(async (ctx) => {
      const returned = ctx.context.returned;
      if (returned instanceof Error || (returned instanceof Response && !returned.ok)) return;
      const signedIn = ctx.context.session;
      if (signedIn && SECURITY_PATHS.has(ctx.path)) {
        const ip = ctx.headers?.get(CLIENT_IP_HEADER);
        const ua = ctx.headers?.get('user-agent');
        if (ctx.path === '/change-password') await tellSecurity(signedIn.user.id, 'password_changed', ip, ua);
        else if (ctx.path === '/two-factor/disable') await tellSecurity(signedIn.user.id, 'two_factor_disabled', ip, ua);
        // Enrolment completes on the first verified code while two-factor was still off.
        else if (ctx.path === '/two-factor/verify-totp' && !(signedIn.user as { twoFactorEnabled?: boolean }).twoFactorEnabled) {
          await tellSecurity(signedIn.user.id, 'two_factor_enabled', ip, ua);
        }
      }
      if (!SECOND_FACTOR_PATHS.has(ctx.path)) return;
      // A signed-in session that just proved its second factor (step-up) now counts as passed.
      const current = ctx.context.session?.session;
      if (current) {
        await db.update(authSchema.session).set({ mfaVerifiedAt: new Date() }).where(eq(authSchema.session.id, current.id));
      }
    }),
  };
}

type HookCtx = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** Sign-up's fields, all at once (username free and valid, password, age, terms, profile); fills name and callbackURL. */
async function checkSignUp(deps: Deps, body: Body) {
  const fields: Record<string, string[]> = {};
  let first: { code: string; message: string } | null = null;
  const note = (field: string, code: string, message: string) => {
    (fields[field] ??= []).push(message);
    first ??= { code, message };
  };
  const parsedName = usernameSchema.safeParse(body.username);
  if (!parsedName.success) note('username', 'USERNAME_INVALID', parsedName.error.issues[0]!.message);
  else if (await usernameTaken(deps, parsedName.data)) note('username', 'USERNAME_TAKEN', 'That username is taken.');
  const pw = passwordProblem(body.password);
  if (pw) note('password', pw.code, pw.message);
  if (body.ageConfirmed !== true) note('ageConfirmed', 'AGE_NOT_CONFIRMED', 'You must be 18 or older to sign up.');
  if (body.termsAccepted !== true) note('termsAccepted', 'TERMS_NOT_ACCEPTED', 'Accept the terms of service to continue.');
  // An empty name falls back to the username below.
  const profile = profileProblem({ ...body, name: typeof body.name === 'string' && !body.name.trim() ? undefined : body.name });
  if (profile) note(profile.field, profile.code, profile.message);
  if (first) {
    const { code, message } = first;
    throw new APIError('BAD_REQUEST', { code, message, fields });
  }
  const username = parsedName.data!;
  return {
    context: {
      body: {
        ...body,
        username,
        name: typeof body.name === 'string' && body.name.trim() ? body.name.trim() : username,
        callbackURL: typeof body.callbackURL === 'string' ? body.callbackURL : '/home',
      },
    },
  };
}

/** A verification mail sent without a callbackURL lands on /home. */
async function defaultVerificationCallback(body: Body) {
  if (typeof body.callbackURL !== 'string') return { context: { body: { ...body, callbackURL: '/home' } } };
  return;
}

/** A new password meets our rules; changing it signs out every other session. */
async function checkNewPassword(ctx: HookCtx, body: Body) {
  const pw = passwordProblem(body.newPassword);
  if (pw) throw fieldError(pw.code, pw.message, 'newPassword');
  if (ctx.path === '/change-password') return { context: { body: { ...body, revokeOtherSessions: true } } };
  return;
}

/** Name and image only (the username has its own route); the name is trimmed. */
async function checkProfileUpdate(body: Body) {
  if ('username' in body || 'role' in body) {
    throw new APIError('BAD_REQUEST', {
      code: 'FIELD_NOT_ALLOWED',
      message: 'Change the username with PATCH /api/account/username.',
    });
  }
  {
    const problem = profileProblem(body);
    if (problem) throw fieldError(problem.code, problem.message, problem.field);
    if (typeof body.name === 'string') return { context: { body: { ...body, name: body.name.trim() } } };
  }
  return;
}

/** Lockout first; a TOTP code is used once (replay refused), a backup code matched in any spelling. */
async function checkSecondFactorCode(deps: Deps, ctx: HookCtx, body: Body) {
  const { db } = deps;
  const session = await getSessionFromCtx(ctx).catch(() => null);
  let userId = session?.user.id;
  const isSignIn = !userId;
  if (!userId) {
    const cookie = ctx.context.createAuthCookie('two_factor');
    const identifier = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
    if (identifier) userId = (await ctx.context.internalAdapter.findVerificationValue(identifier))?.value;
  }
  if (!userId) return;
  const row = await findTwoFactor(db, userId);
  if (!row) return;
  const locked = lockedForSeconds(row);
  if (locked) throw lockedError(locked);
  if (ctx.path !== '/two-factor/verify-totp') {
    // Better Auth compares backup codes exactly: hand it the stored spelling of what was
    // typed (any case, with or without the dash). It counts sign-in failures itself.
    const typed = typeof body.code === 'string' ? body.code : '';
    const stored = matchBackupCode(await readBackupCodes(ctx.context.secretConfig, row.backupCodes), typed);
    if (stored && stored !== typed) return { context: { body: { ...body, code: stored } } };
    return;
  }
  const code = typeof body.code === 'string' ? body.code.trim() : '';
  const step = await matchTotpStep(ctx.context.secretConfig, row.secret, code);
  if (step === null) {
    if (!isSignIn) await recordFailure(db, row.id);
    return; // Better Auth answers INVALID_CODE (and counts the sign-in failure).
  }
  if (!(await claimTotpStep(db, row.id, step))) {
    throw new APIError('UNAUTHORIZED', {
      code: 'TOTP_CODE_ALREADY_USED',
      message: 'That code was already used. Wait for the next code from your app.',
    });
  }
  return;
}

/** Turning two-factor off or new backup codes: lockout, then the password, then a second factor. */
async function checkTwoFactorChange(deps: Deps, ctx: HookCtx, body: Body) {
  const { db } = deps;
  const session = await getSessionFromCtx(ctx).catch(() => null);
  if (!session?.user.twoFactorEnabled) return;
  const row = await findTwoFactor(db, session.user.id);
  if (!row) return;
  const locked = lockedForSeconds(row);
  if (locked) throw lockedError(locked);
  // Check the password first so a wrong password does not use up a backup code.
  const password = typeof body.password === 'string' ? body.password : '';
  const [acct] = await db
    .select({ password: authSchema.account.password })
    .from(authSchema.account)
    .where(and(eq(authSchema.account.userId, session.user.id), eq(authSchema.account.providerId, 'credential')))
    .limit(1);
  if (!acct?.password || !(await ctx.context.password.verify({ hash: acct.password, password }))) {
    throw fieldError('INVALID_PASSWORD', 'Invalid password', 'password');
  }
  const code = typeof body.code === 'string' ? body.code : '';
  if (!code.trim()) {
    throw fieldError('SECOND_FACTOR_REQUIRED', 'Enter a code from your authenticator app or a backup code.', 'code');
  }
  const result = await checkSecondFactor(db, ctx.context.secretConfig, row, code);
  if (result === 'invalid') throw fieldError('INVALID_CODE', 'Invalid code', 'code', 'UNAUTHORIZED');
  if (result === 'replayed') {
    throw fieldError('TOTP_CODE_ALREADY_USED', 'That code was already used. Wait for the next code.', 'code', 'UNAUTHORIZED');
  }
  if (typeof result === 'object') throw lockedError(result.lockedFor);
  return;
}
