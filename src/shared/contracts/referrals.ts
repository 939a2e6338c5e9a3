import { z } from 'zod';
import { pageSchema, pageSizeSchema, pagedSchema } from './paging.ts';

/**
 * Referrals (issue 17). Every user has a code; a friend who signs up through /invite/{code}
 * (remembered for 30 days in a first-party cookie) or enters it before their first deposit is
 * their referral. When the friend's deposits first reach the qualifying amount, both get the
 * configured credit, and the referrer an optional capped share of the friend's pack purchases
 * for a period. A refunded or disputed qualifying deposit takes the rewards back (never below
 * zero; the shortfall is recorded).
 */

/** Generated codes use no 0/O, 1/I/L: readable aloud and on paper. */
export const REFERRAL_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const GENERATED_CODE_LENGTH = 7;
/** Name of the first-party cookie that remembers an invite through sign-up. */
export const REFERRAL_COOKIE = 'pv_ref';
export const REFERRAL_COOKIE_DAYS = 30;

export const REFERRAL_STATUSES = ['pending', 'qualified', 'rejected', 'voided', 'reversed'] as const;
export type ReferralStatus = (typeof REFERRAL_STATUSES)[number];
export const REFERRAL_REWARD_KINDS = ['referrer_bonus', 'referee_bonus', 'purchase_share', 'clawback'] as const;
export type ReferralRewardKind = (typeof REFERRAL_REWARD_KINDS)[number];

/** A code as typed (any case, surrounding spaces); the server upper-cases it. Malformed → not found. */
export const referralCodeParamSchema = z.string().trim().min(1).max(32);

/** A vanity code: 4–16 letters or digits (case does not matter), free, and clean. */
export const vanityCodeSchema = z
  .string({ error: 'Enter a code.' })
  .trim()
  .min(4, 'At least 4 characters.')
  .max(16, 'At most 16 characters.')
  .regex(/^[A-Za-z0-9]+$/, 'Letters and digits only.')
  .transform((s) => s.toUpperCase());

export const vanityInputSchema = z.object({ code: vanityCodeSchema }).strict();
/** POST /api/referrals/claim: a signed-in user with no referrer and no deposit yet enters a code. */
export const claimInputSchema = z.object({ code: z.string({ error: 'Enter a code.' }).trim().min(1, 'Enter a code.').max(32, 'That is not a referral code.') }).strict();

/** What the admin tunes (app_settings `referrals.settings`). */
export const referralSettingsSchema = z
  .object({
    enabled: z.boolean(),
    referrerRewardCents: z.number().int('Whole cents.').min(0, 'Zero or more.').max(100_000, 'At most $1,000.00.'),
    refereeRewardCents: z.number().int('Whole cents.').min(0, 'Zero or more.').max(100_000, 'At most $1,000.00.'),
    qualifyingDepositCents: z.number().int('Whole cents.').min(100, 'At least $1.00.').max(10_000_000, 'At most $100,000.00.'),
    /** Share of each of the friend's pack purchases, in basis points (0 = no share). */
    shareBps: z.number().int('Whole basis points.').min(0, 'Zero or more.').max(2_000, 'At most 20%.'),
    shareDays: z.number().int('Whole days.').min(0, 'Zero or more.').max(365, 'At most a year.'),
    shareCapCents: z.number().int('Whole cents.').min(0, 'Zero or more.').max(1_000_000, 'At most $10,000.00.'),
  })
  .strict();
export type ReferralSettings = z.infer<typeof referralSettingsSchema>;

export const DEFAULT_REFERRAL_SETTINGS: ReferralSettings = {
  enabled: true,
  referrerRewardCents: 500,
  refereeRewardCents: 500,
  qualifyingDepositCents: 2_000,
  shareBps: 200,
  shareDays: 30,
  shareCapCents: 2_500,
};

/** The offer as shown to visitors and users (no admin-only fields). */
export const referralOfferSchema = z.object({
  enabled: z.boolean(),
  referrerRewardCents: z.number().int(),
  refereeRewardCents: z.number().int(),
  qualifyingDepositCents: z.number().int(),
  shareBps: z.number().int(),
  shareDays: z.number().int(),
  shareCapCents: z.number().int(),
  currency: z.string(),
});
export type ReferralOffer = z.infer<typeof referralOfferSchema>;

/** GET /api/referrals/invite/{code} (public; sets the cookie). Unknown or malformed → 404, same answer. */
export const inviteSchema = z.object({
  code: z.string(),
  inviter: z.object({ username: z.string(), image: z.string().nullable() }),
  offer: referralOfferSchema,
});
export type Invite = z.infer<typeof inviteSchema>;

export const referralRewardSchema = z.object({
  id: z.string(),
  kind: z.enum(REFERRAL_REWARD_KINDS),
  amountCents: z.number().int(),
  shortfallCents: z.number().int(),
  /** The friend it came from; null once that friend deleted their account. */
  friendUsername: z.string().nullable(),
  /** The wallet journal entry (as in /profile/history); null for a clawback that took nothing. */
  journalEntryId: z.string().nullable(),
  createdAt: z.string(),
});
export type ReferralReward = z.infer<typeof referralRewardSchema>;

export const inviteeSchema = z.object({
  id: z.string(),
  /** Null once the friend deleted their account (the page says "a deleted account"). */
  username: z.string().nullable(),
  status: z.enum(REFERRAL_STATUSES),
  joinedAt: z.string(),
  qualifiedAt: z.string().nullable(),
});
export type Invitee = z.infer<typeof inviteeSchema>;

/** GET /api/referrals/me */
export const myReferralsSchema = z.object({
  code: z.string(),
  /** Path of the invite page, e.g. /invite/K7M2QX9 (the page prefixes its origin). */
  path: z.string(),
  vanity: z.boolean(),
  /** True until a vanity code was picked. */
  canPickVanity: z.boolean(),
  offer: referralOfferSchema,
  /** username is null once the inviter deleted their account. */
  referredBy: z.object({ username: z.string().nullable(), status: z.enum(REFERRAL_STATUSES) }).nullable(),
  /** True when this user may still enter a friend's code (no referrer, no deposit yet). */
  canClaim: z.boolean(),
  invitees: z.array(inviteeSchema),
  rewards: z.array(referralRewardSchema),
  totals: z.object({ earnedCents: z.number().int(), pending: z.number().int(), qualified: z.number().int() }),
});
export type MyReferrals = z.infer<typeof myReferralsSchema>;

export const adminReferralListQuerySchema = z.object({
  status: z.enum(REFERRAL_STATUSES).optional(),
  /** Username, email or code. */
  q: z.string().trim().max(200).optional(),
  page: pageSchema,
  pageSize: pageSizeSchema(25),
});
export type AdminReferralListQuery = z.input<typeof adminReferralListQuerySchema>;

const party = z.object({ id: z.string(), username: z.string(), email: z.string() });

export const adminReferralSchema = z.object({
  id: z.string(),
  referrer: party,
  referee: party,
  code: z.string(),
  status: z.enum(REFERRAL_STATUSES),
  reason: z.string().nullable(),
  createdAt: z.string(),
  qualifiedAt: z.string().nullable(),
  paidCents: z.number().int(),
  clawedBackCents: z.number().int(),
});
export type AdminReferral = z.infer<typeof adminReferralSchema>;

export const adminReferralListSchema = pagedSchema(adminReferralSchema).extend({
  counts: z.record(z.enum(REFERRAL_STATUSES), z.number().int()),
});
export type AdminReferralList = z.infer<typeof adminReferralListSchema>;

export const adminReferralDetailSchema = adminReferralSchema.extend({
  qualifyingDepositId: z.string().nullable(),
  shareBps: z.number().int().nullable(),
  shareCapCents: z.number().int().nullable(),
  sharePaidCents: z.number().int(),
  shareUntil: z.string().nullable(),
  voidedAt: z.string().nullable(),
  voidedBy: z.string().nullable(),
  rewards: z.array(referralRewardSchema.extend({ userId: z.string(), username: z.string() })),
});
export type AdminReferralDetail = z.infer<typeof adminReferralDetailSchema>;

/** POST /api/admin/referrals/{id}/void: stops the referral; with clawBack, also takes back what it paid. */
export const voidReferralInputSchema = z
  .object({
    reason: z.string({ error: 'Give a reason.' }).trim().min(1, 'Give a reason.').max(500, 'At most 500 characters.'),
    clawBack: z.boolean().default(false),
  })
  .strict();
export type VoidReferralInput = z.infer<typeof voidReferralInputSchema>;
