/**
 * The account fields' rules and their messages, zod-free: the one home of each rule. The API's
 * classic zod schemas (account.ts, which @hono/zod-openapi reads) are built from these, and so are
 * the sign-in pages' checks (web/features/auth/form-check.ts), which run them without zod: those
 * are public pages, and zod would be 15–25 KB gzip of their first visit (issue 40; zod/mini does
 * not help there, see form-check.ts). Both sides check the same things in the same order, so a
 * field shows the same first message in the page as the API sends (form-check.test.ts compares).
 */
import { isReservedName, RESERVED_NAME_MESSAGE } from '../reserved-names.ts';

/**
 * One text field's rule, its checks in the order they run (a field shows its first failure):
 * a string (else `required`), trimmed first when `trim`, then `min` and `max` length, `pattern`,
 * then `test`.
 */
export interface TextRule {
  required: string;
  trim?: boolean;
  min: { value: number; message: string };
  max: { value: number; message: string };
  pattern?: { re: RegExp; message: string };
  test?: { fn: (value: string) => boolean; message: string };
}

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 40;
/** The characters a username may use; its length is checked on its own, with its own message. */
export const USERNAME_CHARS_RE = /^[A-Za-z0-9_-]+$/;
/** A whole valid username's shape (length and characters in one test), for code that only asks yes or no. */
export const USERNAME_RE = new RegExp(`^[A-Za-z0-9_-]{${USERNAME_MIN},${USERNAME_MAX}}$`);

export const EMAIL_MAX = 254;
/**
 * An email address's shape: zod's own default email pattern (zod 4.x `z.regexes.email`), written
 * here so that the API's `.email()` and the pages test the very same pattern. Character for
 * character, escapes included: the API's OpenAPI document shows it as the field's `pattern`.
 */
export const EMAIL_RE =
  // eslint-disable-next-line no-useless-escape -- zod's text, see above
  /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export const usernameRule = {
  required: 'Choose a username.',
  trim: true,
  min: { value: USERNAME_MIN, message: `Use at least ${USERNAME_MIN} characters.` },
  max: { value: USERNAME_MAX, message: `Use at most ${USERNAME_MAX} characters.` },
  pattern: { re: USERNAME_CHARS_RE, message: 'Use only letters, digits, _ and -.' },
  test: { fn: (v) => !isReservedName(v), message: RESERVED_NAME_MESSAGE },
} as const satisfies TextRule;

export const emailRule = {
  required: 'Enter your email address.',
  trim: true,
  min: { value: 1, message: 'Enter your email address.' },
  max: { value: EMAIL_MAX, message: 'That email address is too long.' },
  pattern: { re: EMAIL_RE, message: 'Enter a valid email address.' },
} as const satisfies TextRule;

/** A new password: length only, the common-password check happens on the server. */
export const passwordRule = {
  required: 'Enter a password.',
  min: { value: PASSWORD_MIN, message: `Use at least ${PASSWORD_MIN} characters.` },
  max: { value: PASSWORD_MAX, message: `Use at most ${PASSWORD_MAX} characters.` },
} as const satisfies TextRule;

/** Sign-up's two consents: only a ticked box (`true`) passes. */
export const signUpConsentMessages = {
  ageConfirmed: 'You must be 18 or older to sign up.',
  termsAccepted: 'Accept the terms of service to continue.',
} as const;
