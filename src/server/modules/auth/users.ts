import { randomBytes } from 'node:crypto';
import { generateRandomString, makeSignature, symmetricEncrypt } from 'better-auth/crypto';
import { eq, sql } from 'drizzle-orm';
import type { Deps } from '../../deps.ts';
import { account, session, twoFactor, user } from '../../db/schema/auth.ts';
import { getAuth } from './auth.ts';
import { newBackupCodes } from './backup-codes.ts';

export interface NewUser {
  email: string;
  username: string;
  password: string;
  role?: 'user' | 'admin' | 'owner';
  emailVerified?: boolean;
  /** Base32 TOTP secret: enrols two-factor with it (as Better Auth stores an imported secret). */
  totpSecret?: string;
}

/**
 * Creates a user with a password directly in the database (seed, tests) — the same rows Better
 * Auth writes at sign-up, plus a two-factor enrolment when a TOTP secret is given. Idempotent on
 * the email: an existing user is returned unchanged.
 */
export async function ensureUser(deps: Deps, input: NewUser): Promise<{ id: string; created: boolean; backupCodes: string[] }> {
  const email = input.email.trim().toLowerCase();
  const [existing] = await deps.db.select({ id: user.id }).from(user).where(eq(user.email, email)).limit(1);
  if (existing) return { id: existing.id, created: false, backupCodes: [] };
  const ctx = await getAuth(deps).$context;
  const id = generateRandomString(32, 'a-z', '0-9', 'A-Z');
  const now = new Date();
  const hash = await ctx.password.hash(input.password);
  const backupCodes = input.totpSecret ? newBackupCodes() : [];
  await deps.db.transaction(async (tx) => {
    await insertPasswordUser(tx, {
      id,
      email,
      username: input.username,
      role: input.role ?? 'user',
      emailVerified: input.emailVerified ?? true,
      twoFactorEnabled: Boolean(input.totpSecret),
      passwordHash: hash,
      now,
    });
    if (input.totpSecret) {
      await tx.insert(twoFactor).values({
        id: generateRandomString(32, 'a-z', '0-9', 'A-Z'),
        userId: id,
        secret: await symmetricEncrypt({ key: ctx.secretConfig, data: `base32:${input.totpSecret.toUpperCase()}` }),
        backupCodes: await symmetricEncrypt({ key: ctx.secretConfig, data: JSON.stringify(backupCodes) }),
        verified: true,
      });
    }
  });
  return { id, created: true, backupCodes };
}

/**
 * The rows Better Auth writes at sign-up for an email/password user: the user (with age and terms
 * confirmed at `now`) and its credential account. For callers that create users outside the sign-up
 * flow (seed, tests, `npm run owner:create`), inside their own transaction.
 */
export async function insertPasswordUser(
  tx: Pick<Deps['db'], 'insert'>,
  u: { id: string; email: string; username: string; role: 'user' | 'admin' | 'owner'; emailVerified: boolean; twoFactorEnabled: boolean; passwordHash: string; now: Date },
): Promise<void> {
  await tx.insert(user).values({
    id: u.id,
    name: u.username,
    email: u.email,
    emailVerified: u.emailVerified,
    username: u.username,
    role: u.role,
    ageConfirmedAt: u.now,
    termsAcceptedAt: u.now,
    twoFactorEnabled: u.twoFactorEnabled,
  });
  await tx.insert(account).values({
    id: generateRandomString(32, 'a-z', '0-9', 'A-Z'),
    accountId: u.id,
    providerId: 'credential',
    userId: u.id,
    password: u.passwordHash,
  });
}

/**
 * A signed session cookie for a user without going through the sign-in form (tests). With
 * `mfa`, the session counts as having passed the second factor.
 */
export async function createSessionCookie(deps: Deps, userId: string, opts: { mfa?: boolean } = {}): Promise<{ cookie: string; sessionId: string }> {
  const ctx = await getAuth(deps).$context;
  const s = await ctx.internalAdapter.createSession(userId);
  if (opts.mfa) await deps.db.update(session).set({ mfaVerifiedAt: sql`now()` }).where(eq(session.id, s.id));
  const signed = `${s.token}.${await makeSignature(s.token, ctx.secret)}`;
  return { cookie: `${ctx.authCookies.sessionToken.name}=${encodeURIComponent(signed)}`, sessionId: s.id };
}

/** A random base32 secret, for tests that enrol two-factor. */
export function randomBase32Secret(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  return Array.from(randomBytes(32), (b) => alphabet[b % 32]).join('');
}
