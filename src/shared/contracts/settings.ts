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

/** The marketplace (ADR 0028): its fee, and the bounds on a listing's price. */
export const marketSettingsSchema = z
  .object({
    feeBp: z
      .number({ message: 'The fee must be a number.' })
      .int('Use whole basis points (500 = 5%).')
      .min(0, 'The fee cannot be negative.')
      .max(5_000, 'The fee is at most 50% (5000 basis points).'),
    minFeeCents: z.number({ message: 'Enter an amount.' }).int('Use whole cents.').min(0, 'The minimum fee cannot be negative.'),
    minPriceCents: z.number({ message: 'Enter an amount.' }).int('Use whole cents.').min(1, 'The lowest price is at least 1 cent.'),
    maxPriceCents: z.number({ message: 'Enter an amount.' }).int('Use whole cents.').max(100_000_000, 'The highest price is at most $1,000,000.'),
    /** Longest a listing may run before it expires (days). */
    maxListingDays: z.number({ message: 'Enter a number of days.' }).int('Use whole days.').min(1).max(365),
  })
  .strict()
  .refine((v) => v.minPriceCents <= v.maxPriceCents, { message: 'The lowest price must not be above the highest.', path: ['maxPriceCents'] })
  .refine((v) => v.minFeeCents < v.minPriceCents || v.minFeeCents === 0, {
    message: 'The minimum fee must be below the lowest price (a seller would receive nothing).',
    path: ['minFeeCents'],
  });
export type MarketSettings = z.infer<typeof marketSettingsSchema>;
export const DEFAULT_MARKET_SETTINGS: MarketSettings = { feeBp: 500, minFeeCents: 25, minPriceCents: 100, maxPriceCents: 10_000_000, maxListingDays: 90 };

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

/**
 * What a non-owner admin may change a card's value by alone (ADR 0024), per card over any 24 hours,
 * measured from the value the card had 24 hours before: both the share and the amount. A bigger
 * change waits as a value proposal for the owner; a new card above `newCardMaxCents` needs the owner.
 */
export const valueLimitsSchema = z
  .object({
    maxChangeBp: z
      .number({ message: 'The share must be a number.' })
      .int('Use whole basis points (2500 = 25%).')
      .min(0, 'The share cannot be negative.')
      .max(10_000, 'The share is at most 100% (10000 basis points).'),
    maxChangeCents: money('The amount', 100_000_000, '$1,000,000'),
    newCardMaxCents: money('The new-card value', 100_000_000, '$1,000,000'),
  })
  .strict();
export type ValueLimits = z.infer<typeof valueLimitsSchema>;
export const DEFAULT_VALUE_LIMITS: ValueLimits = { maxChangeBp: 2500, maxChangeCents: 25_000, newCardMaxCents: 50_000 };

/**
 * What a non-owner admin may give away through promo codes alone (ADR 0024): a credit code's
 * amount and a deposit bonus's cap per redemption, and the most a code can pay out in all
 * (per redemption × total limit; a code without a total limit has no bound, so it needs the owner).
 */
export const promoLimitsSchema = z
  .object({
    maxPerRedemptionCents: money('The amount per redemption', 100_000_000, '$1,000,000'),
    maxTotalCents: money('The total', 1_000_000_000, '$10,000,000'),
  })
  .strict();
export type PromoLimits = z.infer<typeof promoLimitsSchema>;
export const DEFAULT_PROMO_LIMITS: PromoLimits = { maxPerRedemptionCents: 2_500, maxTotalCents: 100_000 };

/**
 * What a non-owner admin may do to the price and odds of a live product alone (ADR 0024). The
 * promised return to player is the pack's expected value at card value (the value a card is
 * shipped, insured and valued at; a buyback pays at most that) over the product's price:
 * a staff change may not make it more than `maxReturnBp`. And a live product's price may fall
 * at most `maxPriceCutBp` below the highest price it was live at in the last 24 hours. Beyond
 * either, the owner makes the change.
 */
export const returnLimitsSchema = z
  .object({
    maxReturnBp: z
      .number({ message: 'The return must be a number.' })
      .int('Use whole basis points (10000 = 100%).')
      .min(0, 'The return cannot be negative.')
      .max(20_000, 'The return is at most 200% (20000 basis points).'),
    maxPriceCutBp: z
      .number({ message: 'The cut must be a number.' })
      .int('Use whole basis points (2500 = 25%).')
      .min(0, 'The cut cannot be negative.')
      .max(10_000, 'The cut is at most 100% (10000 basis points).'),
  })
  .strict();
export type ReturnLimits = z.infer<typeof returnLimitsSchema>;
export const DEFAULT_RETURN_LIMITS: ReturnLimits = { maxReturnBp: 10_000, maxPriceCutBp: 2_500 };

export const SETTING_GROUPS = ['Site', 'Shop', 'Payments', 'Shipping', 'Referrals', 'Back office'] as const;
export type SettingGroup = (typeof SETTING_GROUPS)[number];

/** How the screen draws one field of a setting (the schema still decides what is valid). */
export type SettingField = {
  /** '' for a scalar setting, else the property name. */
  name: string;
  label: string;
  /** 'cents' is shown and typed in dollars, 'bp' in percent; the API keeps cents and basis points. */
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
  /** Why it is the owner's (shown to an admin beside the disabled form). */
  ownerReason?: string;
}

const MONEY_REASON = 'It creates or moves money, so a staff member could pay themselves with it (separation of duties).';

const def = <S extends z.ZodType>(d: SettingDef<S>) => d;

export const SETTINGS = {
  'site.identity': def({
    schema: siteIdentitySchema,
    default: DEFAULT_SITE_IDENTITY,
    label: 'Site name and support email',
    help: 'Shown in page titles, the footer and every email. SITE_NAME in the environment only sets the name on the first start.',
    group: 'Site',
    ownerOnly: true,
    ownerReason: 'Every page and email shows it, and players write to the support address: a changed address could take their replies.',
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
    help: 'Share of a card’s value paid when a player sells it back, unless its class has its own rate.',
    group: 'Shop',
    ownerOnly: true,
    ownerReason: MONEY_REASON,
    fields: [{ name: '', label: 'Default buyback rate', kind: 'bp' }],
  }),
  'market.settings': def({
    schema: marketSettingsSchema,
    default: { ...DEFAULT_MARKET_SETTINGS },
    label: 'Marketplace fee and prices',
    help: 'The fee the house keeps from each marketplace sale (a share of the price, at least the minimum), the lowest and highest price a card may be listed at, and how long a listing may run.',
    group: 'Shop',
    ownerOnly: true,
    ownerReason: MONEY_REASON,
    fields: [
      { name: 'feeBp', label: 'Fee', kind: 'bp', help: 'Of the sale price.' },
      { name: 'minFeeCents', label: 'Minimum fee', kind: 'cents' },
      { name: 'minPriceCents', label: 'Lowest listing price', kind: 'cents' },
      { name: 'maxPriceCents', label: 'Highest listing price', kind: 'cents' },
      { name: 'maxListingDays', label: 'Longest listing (days)', kind: 'int' },
    ],
  }),
  'pulls.thresholds': def({
    schema: pullThresholdsSchema,
    default: DEFAULT_PULL_THRESHOLDS,
    label: 'Big pulls',
    help: 'From which value a pull shows on the live top-pulls ticker and in every top-pulls list (the Top pulls page and the landing page); cheaper pulls are left out. Also the big-pull notification threshold of players who never set their own.',
    group: 'Shop',
    fields: [
      { name: 'topPullMinCents', label: 'Top-pull threshold', kind: 'cents' },
      { name: 'notificationDefaultCents', label: 'Default notification threshold', kind: 'cents' },
    ],
  }),
  'payments.depositLimits': def({
    schema: depositLimitsSchema,
    default: DEFAULT_DEPOSIT_LIMITS,
    label: 'Deposit limits',
    help: 'The smallest and largest single deposit. DEPOSIT_MIN_CENTS / DEPOSIT_MAX_CENTS in the environment only set these on the first start.',
    group: 'Payments',
    ownerOnly: true,
    ownerReason: MONEY_REASON,
    fields: [
      { name: 'minCents', label: 'Minimum deposit', kind: 'cents' },
      { name: 'maxCents', label: 'Maximum deposit', kind: 'cents' },
    ],
  }),
  'shipping.settings': def({
    schema: shippingSettingsSchema,
    default: DEFAULT_SHIPPING_SETTINGS,
    label: 'Shipping fees and countries',
    help: 'What shipping a card home costs, the insurance premium, and where the shop ships.',
    group: 'Shipping',
    ownerOnly: true,
    ownerReason: MONEY_REASON,
    fields: [
      { name: 'baseFeeCents', label: 'Base fee', kind: 'cents' },
      { name: 'perCardFeeCents', label: 'Fee per card', kind: 'cents' },
      { name: 'insuranceRateBp', label: 'Insurance rate', kind: 'bp', help: 'Of the declared value.' },
      { name: 'insuranceMinCents', label: 'Minimum insurance premium', kind: 'cents' },
      { name: 'countries', label: 'Countries shipped to', kind: 'countries' },
    ],
  }),
  'referrals.settings': def({
    schema: referralSettingsSchema,
    default: DEFAULT_REFERRAL_SETTINGS,
    label: 'Referral programme',
    help: 'Rewards for a player who brings a friend, the friend’s welcome reward, and the share of the friend’s purchases.',
    group: 'Referrals',
    ownerOnly: true,
    ownerReason: MONEY_REASON,
    fields: [
      { name: 'enabled', label: 'Programme open', kind: 'boolean' },
      { name: 'referrerRewardCents', label: 'Referrer reward', kind: 'cents' },
      { name: 'refereeRewardCents', label: 'Friend’s reward', kind: 'cents' },
      { name: 'qualifyingDepositCents', label: 'Qualifying deposit', kind: 'cents' },
      { name: 'shareBps', label: 'Purchase share', kind: 'bp' },
      { name: 'shareDays', label: 'Share lasts (days)', kind: 'int' },
      { name: 'shareCapCents', label: 'Share cap per friend', kind: 'cents' },
    ],
  }),
  'wallet.adjustLimits': def({
    schema: adjustLimitsSchema,
    default: { ...DEFAULT_ADJUST_LIMITS },
    label: 'Admin adjustment limits',
    help: 'The most one admin may move in one balance adjustment or card grant, and in 24 hours; above either the owner has to do it. Only the owner changes these.',
    group: 'Back office',
    ownerOnly: true,
    ownerReason: 'It bounds what admins themselves may move.',
    fields: [
      { name: 'singleLimitCents', label: 'Single adjustment limit', kind: 'cents' },
      { name: 'dailyLimitCents', label: 'Daily limit', kind: 'cents' },
    ],
  }),
  'catalog.valueLimits': def({
    schema: valueLimitsSchema,
    default: { ...DEFAULT_VALUE_LIMITS },
    label: 'Card value change limits',
    help: 'How far an admin may move a card’s value alone, per card over 24 hours (both the share and the amount); a bigger change waits for the owner in Value reviews. Buyback, insurance and shipping use a card’s value only once it is in effect.',
    group: 'Back office',
    ownerOnly: true,
    ownerReason: 'It bounds what admins themselves may do to card values.',
    fields: [
      { name: 'maxChangeBp', label: 'Largest share of change per day', kind: 'bp', help: 'Of the value 24 hours ago.' },
      { name: 'maxChangeCents', label: 'Largest amount of change per day', kind: 'cents' },
      { name: 'newCardMaxCents', label: 'Highest value of a new card', kind: 'cents', help: 'Creating or importing a card worth more needs the owner.' },
    ],
  }),
  'promo.limits': def({
    schema: promoLimitsSchema,
    default: { ...DEFAULT_PROMO_LIMITS },
    label: 'Promo code limits',
    help: 'The most an admin may put in one promo code alone: per redemption (a credit, or a deposit bonus’s cap) and in all (per redemption × total limit). Above either, or with no total limit, the owner creates the code.',
    group: 'Back office',
    ownerOnly: true,
    ownerReason: 'It bounds what admins themselves may give away.',
    fields: [
      { name: 'maxPerRedemptionCents', label: 'Per redemption', kind: 'cents' },
      { name: 'maxTotalCents', label: 'Total per code', kind: 'cents' },
    ],
  }),
  'shop.returnLimits': def({
    schema: returnLimitsSchema,
    default: { ...DEFAULT_RETURN_LIMITS },
    label: 'Pack price and odds limits',
    help: 'How far an admin may move a live product alone: the most its pack may promise back on average (expected value at card value over the price), and the most its price may fall below the highest price it was live at in the last 24 hours. Beyond either the owner makes the change.',
    group: 'Back office',
    ownerOnly: true,
    ownerReason: 'It bounds what admins themselves may do to pack prices and odds.',
    fields: [
      { name: 'maxReturnBp', label: 'Highest return to player', kind: 'bp', help: '100% = a pack may promise back at most its price, on average, at card value.' },
      { name: 'maxPriceCutBp', label: 'Largest price cut per day', kind: 'bp', help: 'Below the highest live price of the last 24 hours.' },
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
  /** Why only the owner changes it (null when any admin may). */
  ownerReason: z.string().nullable(),
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
