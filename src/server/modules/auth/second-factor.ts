import { symmetricDecrypt, symmetricEncrypt } from 'better-auth/crypto';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import type { DbOrTx } from '../../db/client.ts';
import { twoFactor } from '../../db/schema/auth.ts';
import { matchBackupCode } from './backup-codes.ts';

/**
 * Second-factor checks Better Auth does not do itself: TOTP replay (a code is refused once its
 * time-step was used), a lock after consecutive failures on every path, and the fresh
 * second-factor check before turning two-factor off, regenerating backup codes or deleting
 * the account.
 */

export const TOTP_PERIOD = 30;
export const MAX_FAILED_ATTEMPTS = 5;
export const LOCK_SECONDS = 15 * 60;

/** Better Auth's secret config (string or versioned keys); what symmetricDecrypt takes. */
export type SecretKey = Parameters<typeof symmetricDecrypt>[0]['key'];

export type TwoFactorRow = typeof twoFactor.$inferSelect;

export async function findTwoFactor(db: DbOrTx, userId: string): Promise<TwoFactorRow | null> {
  const [row] = await db.select().from(twoFactor).where(eq(twoFactor.userId, userId)).limit(1);
  return row ?? null;
}

/** Seconds until the factor unlocks, or 0 when it is not locked. */
export function lockedForSeconds(row: Pick<TwoFactorRow, 'lockedUntil'>, now = Date.now()): number {
  if (!row.lockedUntil) return 0;
  const ms = row.lockedUntil.getTime() - now;
  return ms > 0 ? Math.ceil(ms / 1000) : 0;
}

/** The TOTP key bytes the way Better Auth uses them: raw UTF-8 of its generated secret, or a `base32:` import. */
async function totpSecret(key: SecretKey, encrypted: string): Promise<OTPAuth.Secret> {
  const plain = await symmetricDecrypt({ key, data: encrypted });
  if (plain.startsWith('base32:')) return OTPAuth.Secret.fromBase32(plain.slice(7).toUpperCase());
  return new OTPAuth.Secret({ buffer: new TextEncoder().encode(plain).buffer as ArrayBuffer });
}

/** The time-step a 6-digit code belongs to (current ±1, as Better Auth accepts), or null. */
export async function matchTotpStep(key: SecretKey, encryptedSecret: string, code: string, now = Date.now()) {
  if (!/^\d{6}$/.test(code)) return null;
  const totp = new OTPAuth.TOTP({ secret: await totpSecret(key, encryptedSecret), digits: 6, period: TOTP_PERIOD, algorithm: 'SHA1' });
  const delta = totp.validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) return null;
  return Math.floor(now / 1000 / TOTP_PERIOD) + delta;
}

/** Atomically records `step` as used; false when it (or a later step) was already used — a replay. */
export async function claimTotpStep(db: DbOrTx, twoFactorId: string, step: number): Promise<boolean> {
  const rows = await db
    .update(twoFactor)
    .set({ lastTotpStep: step })
    .where(and(eq(twoFactor.id, twoFactorId), or(isNull(twoFactor.lastTotpStep), lt(twoFactor.lastTotpStep, step))))
    .returning({ id: twoFactor.id });
  return rows.length > 0;
}

/** Counts one failure; the fifth in a row locks the factor for 15 minutes. */
export async function recordFailure(db: DbOrTx, twoFactorId: string): Promise<void> {
  await db
    .update(twoFactor)
    .set({
      failedVerificationCount: sql`${twoFactor.failedVerificationCount} + 1`,
      lockedUntil: sql`case when ${twoFactor.failedVerificationCount} + 1 >= ${MAX_FAILED_ATTEMPTS}
        then now() + make_interval(secs => ${LOCK_SECONDS}) else ${twoFactor.lockedUntil} end`,
    })
    .where(eq(twoFactor.id, twoFactorId));
}

export async function resetFailures(db: DbOrTx, twoFactorId: string): Promise<void> {
  await db.update(twoFactor).set({ failedVerificationCount: 0, lockedUntil: null }).where(eq(twoFactor.id, twoFactorId));
}

export async function readBackupCodes(key: SecretKey, encrypted: string): Promise<string[]> {
  try {
    const parsed: unknown = JSON.parse(await symmetricDecrypt({ key, data: encrypted }));
    return Array.isArray(parsed) ? parsed.filter((c): c is string => typeof c === 'string') : [];
  } catch {
    return [];
  }
}

/** Uses up one backup code; false when it is not one of the remaining codes. */
export async function consumeBackupCode(db: DbOrTx, key: SecretKey, row: TwoFactorRow, code: string): Promise<boolean> {
  const codes = await readBackupCodes(key, row.backupCodes);
  const stored = matchBackupCode(codes, code);
  if (!stored) return false;
  const next = await symmetricEncrypt({ key, data: JSON.stringify(codes.filter((c) => c !== stored)) });
  // Conditional on the old value: two concurrent uses of the same code cannot both succeed.
  const rows = await db
    .update(twoFactor)
    .set({ backupCodes: next })
    .where(and(eq(twoFactor.id, row.id), eq(twoFactor.backupCodes, row.backupCodes)))
    .returning({ id: twoFactor.id });
  return rows.length > 0;
}

export type SecondFactorResult = 'ok' | 'invalid' | 'replayed' | { lockedFor: number };

/**
 * A fresh second-factor check with a TOTP code or a backup code, with replay refusal and the
 * failure lock. Used before sensitive changes.
 */
export async function checkSecondFactor(db: DbOrTx, key: SecretKey, row: TwoFactorRow, rawCode: string): Promise<SecondFactorResult> {
  const locked = lockedForSeconds(row);
  if (locked) return { lockedFor: locked };
  const code = rawCode.trim();
  const step = await matchTotpStep(key, row.secret, code.replace(/\s+/g, ''));
  let result: SecondFactorResult;
  if (step !== null) result = (await claimTotpStep(db, row.id, step)) ? 'ok' : 'replayed';
  else result = (await consumeBackupCode(db, key, row, code)) ? 'ok' : 'invalid';
  if (result === 'ok') await resetFailures(db, row.id);
  else if (result === 'invalid') await recordFailure(db, row.id);
  return result;
}
