import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { twoFactor as twoFactorPlugin } from 'better-auth/plugins/two-factor';
import type { Deps } from '../../deps.ts';
import * as authSchema from '../../db/schema/auth.ts';
import { sendMail } from '../mail/service.ts';
import { allowedOrigins } from './origin.ts';
import { LOCK_SECONDS, MAX_FAILED_ATTEMPTS } from './second-factor.ts';
import { BACKUP_CODE_COUNT, newBackupCodes } from './backup-codes.ts';
import { CLIENT_IP_HEADER, signUpDefaults } from './auth-rules.ts';
import { securityNotifier } from './security-notice.ts';
import { authDatabaseHooks } from './session-hooks.ts';
import { authRequestHooks } from './request-hooks.ts';

const SESSION_DAYS = 30;
const TRUST_DEVICE_SECONDS = 30 * 24 * 3600;

export function createAuth(deps: Deps) {
  const { config, db } = deps;
  const mailUser = (u: { email: string; username?: unknown; name?: string }) => ({
    to: u.email,
    username: typeof u.username === 'string' ? u.username : u.name,
  });

  const tellSecurity = securityNotifier(deps);

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
    databaseHooks: authDatabaseHooks(deps, tellSecurity),
    hooks: authRequestHooks(deps, tellSecurity),
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
