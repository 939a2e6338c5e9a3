import { randomInt } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { GENERATED_CODE_LENGTH, REFERRAL_CODE_ALPHABET } from '../../../shared/contracts/referrals.ts';
import { RESERVED_WORDS } from '../../../shared/reserved-names.ts';
import type { DbOrTx } from '../../db/client.ts';
import { referralCodes } from '../../db/schema/referrals.ts';
import { AppError, badRequest, conflict } from '../../http/errors.ts';

/**
 * Referral codes: one per user, stored upper-case. A generated code is GENERATED_CODE_LENGTH
 * characters drawn with crypto randomness from an alphabet without look-alikes (no 0/O, 1/I/L);
 * it is never derived from the email or the username, so it says nothing about its owner. A user
 * may pick a vanity code once, if it is free and clean.
 */

export function generateCode(): string {
  let s = '';
  for (let i = 0; i < GENERATED_CODE_LENGTH; i++) s += REFERRAL_CODE_ALPHABET[randomInt(REFERRAL_CODE_ALPHABET.length)];
  return s;
}

/** How a typed code is looked up: trimmed, upper-cased. */
export function normaliseCode(code: string): string {
  return code.trim().toUpperCase();
}

/**
 * Words a vanity code may not contain (checked on the upper-cased code): names that pass for the
 * house, and a short list of slurs and obscenities. Short on purpose; an admin can void an abuse.
 */
export { RESERVED_WORDS };
const OFFENSIVE_WORDS = ['FUCK', 'SHIT', 'CUNT', 'BITCH', 'NIGG', 'FAGG', 'RETARD', 'WHORE', 'SLUT', 'RAPE', 'NAZI', 'HITLER', 'PENIS', 'VAGINA', 'DICK', 'PUSSY', 'COCK', 'ASSHOLE', 'KIKE', 'CHINK', 'TWAT', 'WANK', 'PORN'];

/** True when the code is clean: no reserved or offensive word in it, digits read as letters too (5H1T). */
export function isCleanCode(code: string): boolean {
  const upper = code.toUpperCase();
  const deLeet = upper.replace(/0/g, 'O').replace(/1/g, 'I').replace(/3/g, 'E').replace(/4/g, 'A').replace(/5/g, 'S').replace(/7/g, 'T').replace(/8/g, 'B');
  const deLeetL = upper.replace(/1/g, 'L');
  return ![...RESERVED_WORDS, ...OFFENSIVE_WORDS].some((w) => upper.includes(w) || deLeet.includes(w) || deLeetL.includes(w));
}

export const NOT_ALLOWED_MESSAGE = "That code isn't allowed.";

export interface CodeRow {
  userId: string;
  code: string;
  vanity: boolean;
}

/**
 * The user's code, created on first need. A fresh random code that collides with another user's
 * (unique index) is retried with a new one; `on conflict do nothing` keeps the transaction alive.
 */
export async function ensureCode(db: DbOrTx, userId: string): Promise<CodeRow> {
  for (let attempt = 0; attempt < 8; attempt++) {
    const [existing] = await db
      .select({ userId: referralCodes.userId, code: referralCodes.code, vanity: referralCodes.vanity })
      .from(referralCodes)
      .where(eq(referralCodes.userId, userId));
    if (existing) return existing;
    const [inserted] = await db
      .insert(referralCodes)
      .values({ userId, code: generateCode() })
      .onConflictDoNothing()
      .returning({ userId: referralCodes.userId, code: referralCodes.code, vanity: referralCodes.vanity });
    if (inserted) return inserted;
    // Either another request made this user's code (read it next) or the code was taken (retry).
  }
  throw new Error('could not allocate a referral code');
}

/** The owner of a code (any case), or null. */
export async function codeOwner(db: DbOrTx, code: string): Promise<CodeRow | null> {
  const [row] = await db
    .select({ userId: referralCodes.userId, code: referralCodes.code, vanity: referralCodes.vanity })
    .from(referralCodes)
    .where(eq(referralCodes.code, normaliseCode(code)));
  return row ?? null;
}

export const codeTaken = () => conflict('That code is taken. Try another.', 'code_taken');

/**
 * Sets a vanity code (already validated by vanityCodeSchema: 4–16 letters/digits, upper-cased).
 * Once only: a second change is 409 vanity_already_set. Taken (by anyone else, any case) → 409
 * code_taken; unclean or reserved → 400 on the field. The caller runs it in one transaction and
 * maps a unique violation of a concurrent claim to code_taken.
 */
export async function setVanityCode(db: DbOrTx, userId: string, code: string): Promise<CodeRow> {
  const upper = normaliseCode(code);
  if (!isCleanCode(upper)) throw badRequest('Some fields need attention.', { code: [NOT_ALLOWED_MESSAGE] });
  const mine = await ensureCode(db, userId);
  if (mine.vanity) throw new AppError(409, 'vanity_already_set', 'You already picked your code; it can only be chosen once.');
  if (mine.code === upper) {
    // Picking the code you already have: it becomes your vanity code.
  } else {
    const owner = await codeOwner(db, upper);
    if (owner) throw codeTaken();
  }
  const [row] = await db
    .update(referralCodes)
    .set({ code: upper, vanity: true, updatedAt: sql`now()` })
    .where(and(eq(referralCodes.userId, userId), eq(referralCodes.vanity, false)))
    .returning({ userId: referralCodes.userId, code: referralCodes.code, vanity: referralCodes.vanity });
  if (!row) throw new AppError(409, 'vanity_already_set', 'You already picked your code; it can only be chosen once.');
  return row;
}
