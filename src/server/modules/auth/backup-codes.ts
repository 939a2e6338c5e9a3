import { randomInt } from 'node:crypto';

/**
 * Backup codes people can read off paper and type back (issue 19): Crockford-like base 30 —
 * digits and capitals without 0/O, 1/I/L and U — in two groups of five (XXXXX-XXXXX, ~49 bits).
 * Typed codes match with or without the dash, spaces, and in any case.
 */
export const BACKUP_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
export const BACKUP_CODE_COUNT = 10;
const GROUP = 5;

export function newBackupCode(): string {
  const chars = Array.from({ length: GROUP * 2 }, () => BACKUP_CODE_ALPHABET[randomInt(BACKUP_CODE_ALPHABET.length)]!);
  return `${chars.slice(0, GROUP).join('')}-${chars.slice(GROUP).join('')}`;
}

export function newBackupCodes(count = BACKUP_CODE_COUNT): string[] {
  return Array.from({ length: count }, newBackupCode);
}

/** What two spellings of one code share: no separators, capitals. */
const backupCodeKey = (code: string) => code.replace(/[\s-]+/g, '').toUpperCase();

/**
 * The stored code a typed one stands for, or null. Stored codes are compared the same way, so
 * codes issued before this alphabet (mixed case) keep working, typed in any case.
 */
export function matchBackupCode(stored: readonly string[], typed: string): string | null {
  const key = backupCodeKey(typed);
  if (!key) return null;
  return stored.find((c) => backupCodeKey(c) === key) ?? null;
}
