import { z } from 'zod';
import { emailRule, PASSWORD_MAX, passwordRule, signUpConsentMessages, usernameRule, type TextRule } from './account-rules.ts';
import { roleSchema } from './me.ts';

/**
 * Accounts: sign-up field rules (shared by the page and the server), and the /api/account/*
 * endpoints. Sign-up, sign-in, password and two-factor themselves are Better Auth endpoints at
 * /api/auth/* (see docs/api-auth.md).
 *
 * The field rules themselves live zod-free in account-rules.ts: the sign-in pages check them
 * without zod (web/features/auth/form-check.ts); these are their zod schemas, for the API.
 */

export { PASSWORD_MAX, PASSWORD_MIN, USERNAME_RE } from './account-rules.ts';

/** A text rule as a zod schema, its checks in the rule's order (form-check.ts runs the same). */
function textSchema(rule: TextRule, format?: 'email') {
  let s = z.string({ message: rule.required });
  if (rule.trim) s = s.trim();
  s = s.min(rule.min.value, rule.min.message).max(rule.max.value, rule.max.message);
  if (rule.pattern) {
    const { re, message } = rule.pattern;
    // `.email()` with the rule's pattern: the same test, and OpenAPI still says `format: email`.
    s = format === 'email' ? s.email({ pattern: re, message }) : s.regex(re, message);
  }
  if (rule.test) s = s.refine(rule.test.fn, rule.test.message);
  return s;
}

export const usernameSchema = textSchema(usernameRule);
export const emailSchema = textSchema(emailRule, 'email');
/** Length only: the common-password check happens on the server. */
export const passwordSchema = textSchema(passwordRule);

/** Body of POST /api/auth/sign-up/email (Better Auth) as this app extends it. */
export const signUpSchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  username: usernameSchema,
  /** Better Auth requires a name; the page sends the username. */
  name: z.string().max(100).optional(),
  ageConfirmed: z.literal(true, { message: signUpConsentMessages.ageConfirmed }),
  termsAccepted: z.literal(true, { message: signUpConsentMessages.termsAccepted }),
  callbackURL: z.string().optional(),
});
export type SignUpInput = z.infer<typeof signUpSchema>;

// ───────────────────────── /api/account ─────────────────────────

/** GET /api/account — the profile page. */
export const accountSchema = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string(),
  role: roleSchema,
  emailVerified: z.boolean(),
  twoFactorEnabled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  lastSignInAt: z.string().nullable(),
  ageConfirmedAt: z.string().nullable(),
  termsAcceptedAt: z.string().nullable(),
});
export type Account = z.infer<typeof accountSchema>;

/** GET /api/account/username-available?username= */
export const usernameAvailableQuerySchema = z.object({ username: usernameSchema });
export const usernameAvailableSchema = z.object({ available: z.boolean() });

/** PATCH /api/account/username → 200 accountSchema; 409 code 'username_taken'. */
export const changeUsernameSchema = z.object({ username: usernameSchema });
export type ChangeUsernameInput = z.infer<typeof changeUsernameSchema>;

/** GET /api/account/sessions */
export const sessionInfoSchema = z.object({
  id: z.string(),
  /** "Chrome on macOS", derived from the user agent. */
  browser: z.string(),
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
  current: z.boolean(),
  mfaPassed: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;
export const sessionListSchema = z.object({ sessions: z.array(sessionInfoSchema) });

/** DELETE /api/account/sessions/:id → 204 (404 if not yours). POST /api/account/sessions/revoke-others → { revoked }. */
export const revokeOthersResultSchema = z.object({ revoked: z.number().int() });

/**
 * GET /api/account/export — a JSON download (Content-Disposition: attachment) of everything held
 * about the user. Sections other domains own are added under `data` by key (wallet, cards…).
 */
export const dataExportSchema = z.object({
  exportedAt: z.string(),
  account: accountSchema,
  sessions: z.array(sessionInfoSchema),
  twoFactor: z.object({ enabled: z.boolean(), backupCodesRemaining: z.number().int().nullable() }),
  auditEntriesAboutYou: z.array(z.object({ action: z.string(), createdAt: z.string() })),
  mail: z.array(z.object({ subject: z.string(), kind: z.string(), createdAt: z.string() })),
  data: z.record(z.string(), z.unknown()),
});
export type DataExport = z.infer<typeof dataExportSchema>;

/**
 * POST /api/account/delete — password, plus a TOTP or backup code when two-factor is on.
 * 200 { deleted: true } and the session cookie is cleared; 400 with fields on a wrong password/code.
 */
export const deleteAccountSchema = z.object({
  password: z.string().min(1, 'Enter your password.').max(PASSWORD_MAX),
  code: z
    .string()
    .trim()
    .max(20)
    .optional()
    .describe('A 6-digit authenticator code or a backup code; required when two-factor is on.'),
  confirm: z.literal('DELETE', { message: 'Type DELETE to confirm.' }),
});
export type DeleteAccountInput = z.infer<typeof deleteAccountSchema>;
export const deleteAccountResultSchema = z.object({ deleted: z.literal(true) });

/** Reason codes for /auth-error?reason=… */
export const authErrorReasonSchema = z.enum(['expired_link', 'used_link', 'invalid_token', 'banned', 'unknown']);
export type AuthErrorReason = z.infer<typeof authErrorReasonSchema>;
