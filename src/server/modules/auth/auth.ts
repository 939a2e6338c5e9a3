import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError, createAuthMiddleware, getSessionFromCtx } from 'better-auth/api';
import { twoFactor as twoFactorPlugin } from 'better-auth/plugins/two-factor';
import { and, eq, sql } from 'drizzle-orm';
import type { Deps } from '../../deps.ts';
import * as authSchema from '../../db/schema/auth.ts';
import { usernameSchema } from '../../../shared/contracts/account.ts';
import { sendMail } from '../mail/service.ts';
import { notify, type NotifyData } from '../notifications/service.ts';
import { allowedOrigins } from './origin.ts';
import { hitPasswordCheck, PASSWORD_CHECK_PATHS, passwordChecksMessage } from './password-limit.ts';
import { demoSignInRefusal } from './demo-accounts.ts';
import { ensureCode } from '../referrals/codes.ts';
import { recordReferral } from '../referrals/service.ts';
import { REFERRAL_COOKIE } from '../../../shared/contracts/referrals.ts';
import { passwordProblem } from './passwords.ts';
import {
  checkSecondFactor,
  findTwoFactor,
  lockedForSeconds,
  LOCK_SECONDS,
  MAX_FAILED_ATTEMPTS,
  matchTotpStep,
  claimTotpStep,
  readBackupCodes,
  recordFailure,
} from './second-factor.ts';
import { BACKUP_CODE_COUNT, matchBackupCode, newBackupCodes } from './backup-codes.ts';

/** Header our HTTP layer sets (overwriting any client value) so Better Auth records the real client IP. */
export const CLIENT_IP_HEADER = 'x-packvault-client-ip';

const SESSION_DAYS = 30;
const TRUST_DEVICE_SECONDS = 30 * 24 * 3600;

/** Where a session counts as having passed the second factor. */
const SECOND_FACTOR_PATHS = new Set(['/two-factor/verify-totp', '/two-factor/verify-backup-code']);
const SIGN_IN_PATHS = new Set(['/sign-in/email', '/sign-in/username']);
/** Signed-in endpoints that tell the user (security notification) when they succeed. */
const SECURITY_PATHS = new Set(['/change-password', '/two-factor/disable', '/two-factor/verify-totp']);
/** Endpoints whose whole point is a mail (a link to click); with MAIL_DISABLED they answer 503. */
const MAIL_ONLY_PATHS = new Set(['/sign-up/email', '/request-password-reset', '/forget-password', '/send-verification-email', '/change-email']);

export const MAIL_DISABLED_MESSAGE = 'This site sends no email right now, so this is unavailable. Contact support.';

function fieldError(code: string, message: string, field: string, status: 'BAD_REQUEST' | 'UNAUTHORIZED' = 'BAD_REQUEST') {
  return new APIError(status, { code, message, fields: { [field]: [message] } });
}

function lockedError(seconds: number) {
  const minutes = Math.ceil(seconds / 60);
  return new APIError(
    'TOO_MANY_REQUESTS',
    {
      code: 'ACCOUNT_TEMPORARILY_LOCKED',
      message: `Too many wrong codes. Two-factor is locked for ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      retryAfter: seconds,
    },
    { 'Retry-After': String(seconds) },
  );
}

export function banMessage(reason: string | null, until: Date | null): string {
  const why = reason ? ` Reason: ${reason}.` : '';
  const end = until ? ` The suspension ends on ${until.toISOString().slice(0, 16).replace('T', ' ')} UTC.` : '';
  return `Your account is suspended.${why}${end}`;
}

export function isBanActive(u: { banned: boolean; banExpires: Date | null }, now = Date.now()): boolean {
  return u.banned && (!u.banExpires || u.banExpires.getTime() > now);
}

async function usernameTaken(deps: Deps, username: string, exceptUserId?: string): Promise<boolean> {
  const rows = await deps.db
    .select({ id: authSchema.user.id })
    .from(authSchema.user)
    .where(sql`lower(${authSchema.user.username}) = lower(${username})`)
    .limit(1);
  return rows.length > 0 && rows[0]!.id !== exceptUserId;
}

type Body = Record<string, unknown>;

/** The invite code remembered in the pv_ref cookie of a request, if any. */
function referralCookie(cookieHeader: string | null): string | null {
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
const IMAGE_URL_MAX = 2048;

/** What sign-up (and an existing email's look-alike answer) writes besides the submitted fields. */
function signUpDefaults(now: Date) {
  return { role: 'user', banned: false, ageConfirmedAt: now, termsAcceptedAt: now };
}

/** A problem with the profile fields Better Auth lets a user set (name, image), or null. */
function profileProblem(body: Body): { field: 'name' | 'image'; code: string; message: string } | null {
  if (body.name !== undefined) {
    if (typeof body.name !== 'string' || !body.name.trim()) {
      return { field: 'name', code: 'NAME_INVALID', message: 'Enter a name.' };
    }
    if (body.name.trim().length > NAME_MAX) {
      return { field: 'name', code: 'NAME_TOO_LONG', message: `Use at most ${NAME_MAX} characters for the name.` };
    }
  }
  if (body.image !== undefined && body.image !== null) {
    const ok = typeof body.image === 'string' && body.image.length <= IMAGE_URL_MAX && /^https?:\/\/[^\s]+$/i.test(body.image);
    if (!ok) return { field: 'image', code: 'IMAGE_INVALID', message: `The image must be an http(s) address of at most ${IMAGE_URL_MAX} characters.` };
  }
  return null;
}

export function createAuth(deps: Deps) {
  const { config, db } = deps;
  const mailUser = (u: { email: string; username?: unknown; name?: string }) => ({
    to: u.email,
    username: typeof u.username === 'string' ? u.username : u.name,
  });

  /** Security notices (always mailed) in their own small transaction; a failure is logged, never fails the sign-in. */
  const tellSecurity = async (userId: string, event: NotifyData['security']['event'], ip?: string | null, userAgent?: string | null) => {
    await db
      .transaction((tx) => notify(deps, tx, userId, 'security', { event, ip: ip ?? null, userAgent: userAgent ?? null }))
      .catch((err: unknown) => deps.log.error('security notification failed', { err, event }));
  };

  return betterAuth({
    appName: config.siteName,
    secret: config.secret,
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    trustedOrigins: allowedOrigins(config),
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: {
        user: authSchema.user,
        session: authSchema.session,
        account: authSchema.account,
        verification: authSchema.verification,
        twoFactor: authSchema.twoFactor,
      },
    }),
    // Limits live in our database-backed limiter (routes.ts) so they hold across processes.
    rateLimit: { enabled: false },
    // Better Auth's own messages go through our JSON logger, so they are redacted like every line.
    logger: {
      disabled: config.logLevel === 'silent',
      log: (level, message, ...args) =>
        deps.log[level](`better-auth: ${message}`, args.length ? { args: args.map((a) => (a instanceof Error ? `${a.name}: ${a.message}` : a)) } : undefined),
    },
    telemetry: { enabled: false },
    disabledPaths: ['/delete-user', '/delete-user/callback'],
    advanced: {
      // Better Auth skips its origin check when NODE_ENV=test; check in every environment.
      disableOriginCheck: false,
      useSecureCookies: config.isProduction,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure: config.isProduction },
      // Our HTTP layer derives the address (http/client-ip.ts); keep all of it (Better Auth would cut IPv6 to /64).
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER], ipv6Subnet: 128 },
    },
    session: {
      expiresIn: SESSION_DAYS * 24 * 3600,
      updateAge: 24 * 3600,
      additionalFields: {
        mfaVerifiedAt: { type: 'date', required: false, input: false },
        lastSeenAt: { type: 'date', required: false, input: false, defaultValue: () => new Date() },
      },
    },
    user: {
      additionalFields: {
        username: { type: 'string', required: true, input: true },
        role: { type: 'string', required: false, input: false, defaultValue: 'user' },
        banned: { type: 'boolean', required: false, input: false, defaultValue: false },
        banReason: { type: 'string', required: false, input: false },
        banExpires: { type: 'date', required: false, input: false },
        ageConfirmedAt: { type: 'date', required: false, input: false },
        termsAcceptedAt: { type: 'date', required: false, input: false },
        deletedAt: { type: 'date', required: false, input: false },
        lastSignInAt: { type: 'date', required: false, input: false },
      },
      changeEmail: {
        enabled: true,
        sendChangeEmailConfirmation: async ({ user, newEmail, url }) => {
          await sendMail(deps, { to: user.email, kind: 'change-email-confirmation', data: { url, newEmail, ...mailUser(user) } });
        },
      },
    },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 3600,
      sendResetPassword: async ({ user, url }) => {
        await sendMail(deps, { to: user.email, kind: 'reset-password', data: { url, ...mailUser(user) } });
      },
      // Called by Better Auth once the reset succeeded.
      onPasswordReset: async ({ user }, request) => {
        await tellSecurity(user.id, 'password_reset', request?.headers.get(CLIENT_IP_HEADER), request?.headers.get('user-agent'));
      },
      // An existing email gets a made-up user in the answer: it must look like a new one (same
      // fields, same kind of values), or the answer tells who has an account.
      customSyntheticUser: ({ coreFields, additionalFields, id }) => ({
        ...coreFields,
        ...additionalFields,
        ...signUpDefaults(coreFields.createdAt),
        id,
      }),
      onExistingUserSignUp: async ({ user }) => {
        await sendMail(deps, {
          to: user.email,
          kind: 'existing-account',
          data: { url: `${config.publicUrl}/reset-password`, ...mailUser(user) },
        });
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      autoSignInAfterVerification: true,
      expiresIn: 24 * 3600,
      sendVerificationEmail: async ({ user, url }) => {
        await sendMail(deps, { to: user.email, kind: 'verify-email', data: { url, ...mailUser(user) } });
      },
    },
    plugins: [
      twoFactorPlugin({
        issuer: config.siteName,
        trustDeviceMaxAge: TRUST_DEVICE_SECONDS,
        // Readable codes (no 0/O/1/I/L); the before hook below maps a typed spelling to the stored one.
        backupCodeOptions: { amount: BACKUP_CODE_COUNT, storeBackupCodes: 'encrypted', customBackupCodesGenerate: () => newBackupCodes() },
        accountLockout: { enabled: true, maxFailedAttempts: MAX_FAILED_ATTEMPTS, durationSeconds: LOCK_SECONDS },
      }),
    ],
    databaseHooks: {
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
      },
    },
    hooks: {
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
          case '/sign-up/email': {
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
          case '/send-verification-email':
            if (typeof body.callbackURL !== 'string') return { context: { body: { ...body, callbackURL: '/home' } } };
            return;
          case '/reset-password':
          case '/change-password':
          case '/set-password': {
            const pw = passwordProblem(body.newPassword);
            if (pw) throw fieldError(pw.code, pw.message, 'newPassword');
            if (ctx.path === '/change-password') return { context: { body: { ...body, revokeOtherSessions: true } } };
            return;
          }
          case '/update-user':
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
          case '/two-factor/verify-totp':
          case '/two-factor/verify-backup-code': {
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
          case '/two-factor/disable':
          case '/two-factor/generate-backup-codes': {
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
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

const instances = new WeakMap<Deps, Auth>();

/** One Better Auth instance per app (per Deps); tests each get their own. */
export function getAuth(deps: Deps): Auth {
  let auth = instances.get(deps);
  if (!auth) {
    auth = createAuth(deps);
    instances.set(deps, auth);
  }
  return auth;
}
