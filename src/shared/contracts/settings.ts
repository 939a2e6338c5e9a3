import { z } from 'zod';
import { DEFAULT_BUYBACK_RATE_BP } from './collection.ts';
import { DEFAULT_REFERRAL_SETTINGS, referralSettingsSchema } from './referrals.ts';
import { COUNTRIES, DEFAULT_SHIPPING_SETTINGS, shippingSettingsSchema } from './shipping.ts';
import { adjustLimitsSchema, DEFAULT_ADJUST_LIMITS } from './wallet.ts';
import { auditEntrySchema } from './audit.ts';
import { BIG_PULL_THRESHOLD } from './notifications.ts';
import { PULL_EVENT_MIN_CENTS } from './shop.ts';

/**
 * The settings registry (ADR 0016): every value the business tunes at runtime, one entry per
 * app_settings key, with the schema that validates it, its default, and what the admin screen
 * shows. The server stores, caches and audits these (modules/settings); the screen at
 * /admin/settings builds one form per entry from the same schema.
 *
 *   GET /api/admin/settings          -> adminSettingsSchema (all entries with metadata + history)
 *   PUT /api/admin/settings/{key}    { value } -> settingEntrySchema; 404 unknown key, 400 bad value
 *   GET /api/config                  -> the public ones (site name, support email), unauthenticated
 *
 * Field errors of a PUT are keyed `value` (a scalar setting) or `value.<field>`.
 * Keys keep the names they had before the registry, so stored values stay valid.
 */

const money = (what: string, max: number, maxText: string, min = 0) =>
  z
    .number({ message: `${what} must be a number.` })
    .int('Use whole cents.')
    .min(min, min === 0 ? `${what} cannot be negative.` : `${what} must be at least ${min} cents.`)
    .max(max, `${what} is at most ${maxText}.`);

export const buybackDefaultRateSchema = z
  .number({ message: 'The rate must be a number.' })
  .int('Use whole basis points (8500 = 85%).')
  .min(0, 'The rate cannot be below 0%.')
  .max(10_000, 'The rate cannot be above 100% (10000 basis points).');

/** Smallest and largest single deposit (Stripe refuses charges under 50 cents). */
export const depositLimitsSchema = z
  .object({
    minCents: money('The minimum deposit', 10_000_000, '$100,000', 50),
    maxCents: money('The maximum deposit', 100_000_000, '$1,000,000', 50),
  })
  .strict()
  .refine((v) => v.maxCents >= v.minCents, { path: ['maxCents'], message: 'The maximum cannot be below the minimum.' });
export type DepositLimits = z.infer<typeof depositLimitsSchema>;
export const DEFAULT_DEPOSIT_LIMITS: DepositLimits = { minCents: 500, maxCents: 100_000 };

/**
 * Big pulls: `topPullMinCents` is the value from which a pull is announced live on the top-pulls
 * ticker (the open statement's `pull_min`), is listed by GET /api/top-pulls, and can become a
 * big-pull notification;
 * `notificationDefaultCents` is the notification threshold of users who never chose their own.
 */
export const pullThresholdsSchema = z
  .object({
    topPullMinCents: money('The top-pull threshold', 10_000_000, '$100,000', 1),
    // Within what a user may choose for themselves (BIG_PULL_THRESHOLD).
    notificationDefaultCents: money('The notification default', BIG_PULL_THRESHOLD.maxCents, '$100,000', BIG_PULL_THRESHOLD.minCents),
  })
  .strict();
export type PullThresholds = z.infer<typeof pullThresholdsSchema>;
export const DEFAULT_PULL_THRESHOLDS: PullThresholds = { topPullMinCents: PULL_EVENT_MIN_CENTS, notificationDefaultCents: BIG_PULL_THRESHOLD.defaultCents };

export const siteIdentitySchema = z
  .object({
    siteName: z.string({ message: 'Enter a name.' }).trim().min(1, 'Enter a name.').max(60, 'At most 60 characters.'),
    supportEmail: z.string({ message: 'Enter an email address.' }).trim().max(254, 'At most 254 characters.').email('Enter a valid email address.'),
  })
  .strict();
export type SiteIdentity = z.infer<typeof siteIdentitySchema>;
export const DEFAULT_SITE_IDENTITY: SiteIdentity = { siteName: 'Packvault', supportEmail: 'support@packvault.test' };

export const SETTING_GROUPS = ['Site', 'Shop', 'Payments', 'Shipping', 'Referrals', 'Back office'] as const;
export type SettingGroup = (typeof SETTING_GROUPS)[number];

/** How the screen draws one field of a setting (the schema still decides what is valid). */
export type SettingField = {
  /** '' for a scalar setting, else the property name. */
  name: string;
  label: string;
  kind: 'cents' | 'bp' | 'int' | 'text' | 'email' | 'boolean' | 'countries';
  help?: string;
};

interface SettingDef<S extends z.ZodType> {
  schema: S;
  default: z.output<S>;
  label: string;
  help: string;
  group: SettingGroup;
  fields: SettingField[];
  /** Shown to anyone through GET /api/config. */
  public?: boolean;
  /** Only the owner may change it (admins read it). */
  ownerOnly?: boolean;
}

const def = <S extends z.ZodType>(d: SettingDef<S>) => d;

export const SETTINGS = {
  'site.identity': def({
    schema: siteIdentitySchema,
    default: DEFAULT_SITE_IDENTITY,
    label: 'Site name and support email',
    help: 'Shown in page titles, the footer and every email. SITE_NAME in the environment only sets the name on the first start.',
    group: 'Site',
    public: true,
    fields: [
      { name: 'siteName', label: 'Site name', kind: 'text' },
      { name: 'supportEmail', label: 'Support email', kind: 'email', help: 'Where players write to; shown in the footer and on the policy pages.' },
    ],
  }),
  'buyback.defaultRateBp': def({
    schema: buybackDefaultRateSchema,
    default: DEFAULT_BUYBACK_RATE_BP,
    label: 'Default buyback rate',
    help: 'Share of a card’s value paid when a player sells it back, unless its class has its own rate. In basis points: 8500 = 85%.',
    group: 'Shop',
    fields: [{ name: '', label: 'Default buyback rate (basis points)', kind: 'bp' }],
  }),
  'pulls.thresholds': def({
    schema: pullThresholdsSchema,
    default: DEFAULT_PULL_THRESHOLDS,
    label: 'Big pulls',
    help: 'From which value a pull shows on the live top-pulls ticker and in every top-pulls list (the Top pulls page and the landing page); cheaper pulls are left out. Also the big-pull notification threshold of players who never set their own.',
    group: 'Shop',
    fields: [
      { name: 'topPullMinCents', label: 'Top-pull threshold (cents)', kind: 'cents' },
      { name: 'notificationDefaultCents', label: 'Default notification threshold (cents)', kind: 'cents' },
    ],
  }),
  'payments.depositLimits': def({
    schema: depositLimitsSchema,
    default: DEFAULT_DEPOSIT_LIMITS,
    label: 'Deposit limits',
    help: 'The smallest and largest single deposit. DEPOSIT_MIN_CENTS / DEPOSIT_MAX_CENTS in the environment only set these on the first start.',
    group: 'Payments',
    fields: [
      { name: 'minCents', label: 'Minimum deposit (cents)', kind: 'cents' },
      { name: 'maxCents', label: 'Maximum deposit (cents)', kind: 'cents' },
    ],
  }),
  'shipping.settings': def({
    schema: shippingSettingsSchema,
    default: DEFAULT_SHIPPING_SETTINGS,
    label: 'Shipping fees and countries',
    help: 'What shipping a card home costs, the insurance premium, and where the shop ships.',
    group: 'Shipping',
    fields: [
      { name: 'baseFeeCents', label: 'Base fee (cents)', kind: 'cents' },
      { name: 'perCardFeeCents', label: 'Fee per card (cents)', kind: 'cents' },
      { name: 'insuranceRateBp', label: 'Insurance rate (basis points)', kind: 'bp', help: '150 = 1.5% of the declared value.' },
      { name: 'insuranceMinCents', label: 'Minimum insurance premium (cents)', kind: 'cents' },
      { name: 'countries', label: 'Countries shipped to', kind: 'countries' },
    ],
  }),
  'referrals.settings': def({
    schema: referralSettingsSchema,
    default: DEFAULT_REFERRAL_SETTINGS,
    label: 'Referral programme',
    help: 'Rewards for a player who brings a friend, the friend’s welcome reward, and the share of the friend’s purchases.',
    group: 'Referrals',
    fields: [
      { name: 'enabled', label: 'Programme open', kind: 'boolean' },
      { name: 'referrerRewardCents', label: 'Referrer reward (cents)', kind: 'cents' },
      { name: 'refereeRewardCents', label: 'Friend’s reward (cents)', kind: 'cents' },
      { name: 'qualifyingDepositCents', label: 'Qualifying deposit (cents)', kind: 'cents' },
      { name: 'shareBps', label: 'Purchase share (basis points)', kind: 'bp' },
      { name: 'shareDays', label: 'Share lasts (days)', kind: 'int' },
      { name: 'shareCapCents', label: 'Share cap per friend (cents)', kind: 'cents' },
    ],
  }),
  'wallet.adjustLimits': def({
    schema: adjustLimitsSchema,
    default: { ...DEFAULT_ADJUST_LIMITS },
    label: 'Admin adjustment limits',
    help: 'The most one admin may move in one balance adjustment or card grant, and in 24 hours; above either the owner has to do it. Only the owner changes these.',
    group: 'Back office',
    ownerOnly: true,
    fields: [
      { name: 'singleLimitCents', label: 'Single adjustment limit (cents)', kind: 'cents' },
      { name: 'dailyLimitCents', label: 'Daily limit (cents)', kind: 'cents' },
    ],
  }),
} as const;

export type SettingKey = keyof typeof SETTINGS;
export type SettingValue<K extends SettingKey> = z.output<(typeof SETTINGS)[K]['schema']>;
export type SettingValues = { [K in SettingKey]: SettingValue<K> };
export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];

export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(SETTINGS, key);
}

/** Audit action of a change through PUT /api/admin/settings/{key} (target: app_setting, key). */
export const SETTING_AUDIT_ACTION = 'settings.update';

export const countryOptions = Object.entries(COUNTRIES)
  .map(([code, name]) => ({ code, name }))
  .sort((a, b) => a.name.localeCompare(b.name));

export const settingEntrySchema = z.object({
  key: z.string(),
  value: z.unknown(),
  default: z.unknown(),
  label: z.string(),
  help: z.string(),
  group: z.string(),
  ownerOnly: z.boolean(),
  public: z.boolean(),
  updatedAt: z.string().nullable(),
});
export type SettingEntry = z.infer<typeof settingEntrySchema>;

export const adminSettingsSchema = z.object({
  settings: z.array(settingEntrySchema),
  /** The latest changes made through the settings screen, newest first. */
  history: z.array(auditEntrySchema),
  callerIsOwner: z.boolean(),
});
export type AdminSettings = z.infer<typeof adminSettingsSchema>;

export const settingUpdateSchema = z.object({ value: z.unknown() }).strict();

/** The public settings (GET /api/config adds them to its answer). */
export const publicSettingsSchema = z.object({ siteName: z.string(), supportEmail: z.string() });
export type PublicSettings = z.infer<typeof publicSettingsSchema>;
