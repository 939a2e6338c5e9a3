import { z } from 'zod';

export const roleSchema = z.enum(['user', 'admin', 'owner']);
export type Role = z.infer<typeof roleSchema>;

/** GET /api/me — who is signed in on this browser (null when nobody is). */
export const meSchema = z.object({
  user: z.object({
    id: z.string(),
    email: z.string(),
    username: z.string(),
    role: roleSchema,
    emailVerified: z.boolean(),
    twoFactorEnabled: z.boolean(),
    createdAt: z.string(),
    /** Their referral code (made at sign-up; null for an account older than the programme until it is made): share links carry it. */
    referralCode: z.string().nullable(),
  }),
  session: z.object({
    id: z.string(),
    mfaPassed: z.boolean(),
    expiresAt: z.string(),
  }),
});
export type Me = z.infer<typeof meSchema>;
