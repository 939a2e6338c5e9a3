import { z } from 'zod';
import { pageSchema, pageSizeSchema, pagedSchema } from './paging.ts';
import { emailSchema } from './account.ts';
import { roleSchema } from './me.ts';

/** /api/admin/users, /api/admin/admins and /api/admin/reset-password. All need admin + two-factor. */

export const adminUserSortSchema = z.enum(['createdAt', 'email', 'username', 'lastSignInAt']);
export const sortDirSchema = z.enum(['asc', 'desc']);

/** GET /api/admin/users?q=&role=&banned=&sort=&dir=&page=&pageSize= */
export const adminUserListQuerySchema = z.object({
  /** Matches email or username, case-insensitive, substring. */
  q: z.string().trim().max(100).optional(),
  role: roleSchema.optional(),
  banned: z.enum(['true', 'false']).optional(),
  sort: adminUserSortSchema.default('createdAt'),
  dir: sortDirSchema.default('desc'),
  page: pageSchema,
  pageSize: pageSizeSchema(25, 100),
});
export type AdminUserListQuery = z.infer<typeof adminUserListQuerySchema>;

export const adminUserRowSchema = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string(),
  role: roleSchema,
  emailVerified: z.boolean(),
  twoFactorEnabled: z.boolean(),
  banned: z.boolean(),
  banReason: z.string().nullable(),
  banExpires: z.string().nullable(),
  createdAt: z.string(),
  lastSignInAt: z.string().nullable(),
  deletedAt: z.string().nullable(),
});
export type AdminUserRow = z.infer<typeof adminUserRowSchema>;

export const adminUserListSchema = pagedSchema(adminUserRowSchema);
export type AdminUserList = z.infer<typeof adminUserListSchema>;

export const adminSessionSchema = z.object({
  id: z.string(),
  browser: z.string(),
  ip: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
  mfaPassed: z.boolean(),
});

/** GET /api/admin/users/:id */
/** Money and cards at a glance on the admin's user page; integer cents. */
export const adminUserSummarySchema = z.object({
  balanceCents: z.number().int(),
  /** Current market value of the copies in the vault (not yet shipped, sold back or revoked). */
  vaultValueCents: z.number().int(),
  vaultCount: z.number().int(),
  /** Sum of deposit entries. */
  depositedCents: z.number().int(),
  /** Pack purchases, as a positive amount. */
  spentOnPacksCents: z.number().int(),
  buybackReceivedCents: z.number().int(),
  openings: z.number().int(),
});
export type AdminUserSummary = z.infer<typeof adminUserSummarySchema>;

export const adminUserDetailSchema = adminUserRowSchema.extend({
  summary: adminUserSummarySchema,
  updatedAt: z.string(),
  ageConfirmedAt: z.string().nullable(),
  termsAcceptedAt: z.string().nullable(),
  twoFactor: z.object({
    enabled: z.boolean(),
    lockedUntil: z.string().nullable(),
    failedAttempts: z.number().int(),
  }),
  sessions: z.array(adminSessionSchema),
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;

/** POST /api/admin/users/:id/ban → adminUserDetailSchema. Revokes every session of the user. */
export const banUserSchema = z.object({
  reason: z.string().trim().min(3, 'Give a reason (at least 3 characters).').max(500),
  /** ISO date-time; omitted or null = until unbanned. Must be in the future. */
  expiresAt: z.string().datetime({ offset: true, message: 'Use a date and time.' }).nullable().optional(),
});
export type BanUserInput = z.infer<typeof banUserSchema>;
/** POST /api/admin/users/:id/unban (empty body) → adminUserDetailSchema. */
/** POST /api/admin/users/:id/reset-two-factor (empty body) → adminUserDetailSchema. */

/** POST /api/admin/reset-password → { sent: true } (also when no such account, no enumeration). */
export const adminResetPasswordSchema = z.object({ email: emailSchema });
export const adminResetPasswordResultSchema = z.object({ sent: z.literal(true) });

// ───────────────────────── /api/admin/admins (owner only) ─────────────────────────

export const adminAccountSchema = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string(),
  role: z.enum(['admin', 'owner']),
  twoFactorEnabled: z.boolean(),
  lastSignInAt: z.string().nullable(),
  createdAt: z.string(),
});
/** GET /api/admin/admins */
export const adminAccountListSchema = z.object({ items: z.array(adminAccountSchema) });

/** POST /api/admin/admins/promote { userId | email } → adminAccountSchema (404 unknown user, 409 already admin). */
export const promoteAdminSchema = z
  .object({ userId: z.string().min(1).max(100).optional(), email: emailSchema.optional() })
  .refine((v) => Boolean(v.userId) !== Boolean(v.email), { message: 'Give a user id or an email.', path: ['email'] });
/** POST /api/admin/admins/:id/demote → { id, role: 'user' }. 409 'cannot_demote_self' for yourself, 409 'cannot_demote_owner' for another owner. */
export const demoteResultSchema = z.object({ id: z.string(), role: z.literal('user') });
