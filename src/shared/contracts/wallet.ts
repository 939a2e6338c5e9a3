import { z } from 'zod';
import { dayRangeFields, fromNotAfterTo } from './dates.ts';

/**
 * Wallet, deposits, promo codes and responsible play: request and response shapes shared by
 * the API (src/server/modules/wallet, payments, promo) and the web (src/web/features/wallet).
 * Every amount is integer cents.
 */

export const LEDGER_KINDS = [
  'deposit',
  'pack_purchase',
  'buyback',
  'shipping_fee',
  'shipping_refund',
  'promo_credit',
  'referral_reward',
  'referral_clawback',
  'admin_adjustment',
  'refund',
  'market_sale',
  'market_hold',
  'market_release',
] as const;
export const ledgerKindSchema = z.enum(LEDGER_KINDS);
export type LedgerKind = z.infer<typeof ledgerKindSchema>;

export const LEDGER_KIND_LABELS: Record<LedgerKind, string> = {
  deposit: 'Deposit',
  pack_purchase: 'Pack purchase',
  buyback: 'Buyback',
  shipping_fee: 'Shipping fee',
  shipping_refund: 'Shipping refund',
  promo_credit: 'Promo credit',
  referral_reward: 'Referral reward',
  referral_clawback: 'Referral reward taken back',
  admin_adjustment: 'Adjustment',
  refund: 'Refund',
  market_sale: 'Marketplace sale',
  market_hold: 'Held for an offer',
  market_release: 'Offer hold released',
};

/** The house accounts (codes of `ledger_accounts`, created by migration 0009). */
export const HOUSE_ACCOUNTS = [
  'clearing:stripe',
  'clearing:sandbox',
  'pack_sales',
  'buyback_expense',
  'promo_expense',
  'referral_expense',
  'shipping_fees',
  'shipping_refunds',
  'admin_adjustments',
  'chargeback_loss',
  /** The marketplace fee (ADR 0028); created on the first sale (an enum value added by a migration cannot be used in it). */
  'market_fees',
] as const;
export type HouseAccount = (typeof HOUSE_ACCOUNTS)[number];

/**
 * The house account(s) each kind of entry may post its house leg to (issue 38). The wallet service
 * refuses to write any other (modules/wallet/service.ts) and reconciliation reports any entry that
 * bypassed it (modules/wallet/books.ts `entriesOnAllowedAccounts`): a shipping fee on pack_sales
 * balances, but it is still wrong. A new kind does not compile until it says where it may go.
 */
export const KIND_HOUSE_ACCOUNTS = {
  // Money in from, and back to, the payment provider that took it.
  deposit: ['clearing:stripe', 'clearing:sandbox'],
  refund: ['clearing:stripe', 'clearing:sandbox'],
  pack_purchase: ['pack_sales'],
  buyback: ['buyback_expense'],
  shipping_fee: ['shipping_fees'],
  shipping_refund: ['shipping_refunds'],
  promo_credit: ['promo_expense'],
  referral_reward: ['referral_expense'],
  referral_clawback: ['referral_expense'],
  admin_adjustment: ['admin_adjustments'],
  market_sale: ['market_fees'],
  // A hold and its release move money between the user's wallet and their own hold account (ADR 0028 part 2): no house leg.
  market_hold: [],
  market_release: [],
} as const satisfies Record<LedgerKind, readonly HouseAccount[]>;

/** Whether an entry of `kind` may post to the house account `code`. */
export function kindMayTouch(kind: LedgerKind, code: string): boolean {
  return (KIND_HOUSE_ACCOUNTS[kind] as readonly string[]).includes(code);
}

const centsInt = z.number().int('Use whole cents.');
const isoDate = z.string();

/** GET /api/wallet/balance — the header calls this. */
export const balanceSchema = z.object({
  /** The free balance: what can be spent now. */
  balanceCents: centsInt,
  /** Held for open marketplace offers (ADR 0028): not spendable until released; the wallet's total is balanceCents + heldCents. */
  heldCents: centsInt,
  currency: z.string(),
  updatedAt: isoDate.nullable(),
  /** Set while the user has excluded themselves: buying, depositing and entering drops are refused until then, so the pages disable those buttons and say why. */
  selfExcludedUntil: isoDate.nullable(),
});
export type Balance = z.infer<typeof balanceSchema>;

export const ledgerEntrySchema = z.object({
  id: z.string(),
  amountCents: centsInt,
  kind: ledgerKindSchema,
  referenceType: z.string().nullable(),
  referenceId: z.string().nullable(),
  actorId: z.string().nullable(),
  balanceAfter: centsInt,
  memo: z.string().nullable(),
  createdAt: isoDate,
  /**
   * A pack purchase (referenceType "purchase"): how many packs it bought and the openings they
   * became, oldest first (each has its fairness proof at /fairness?opening=<id>). Null for other kinds.
   */
  purchase: z.object({ packs: z.number().int(), openingIds: z.array(z.string()) }).nullable(),
});
export type PurchaseRef = NonNullable<z.infer<typeof ledgerEntrySchema>['purchase']>;
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;


/** Query of GET /api/wallet/history (and the admin and CSV variants). `to` is inclusive. */
export const historyQuerySchema = z.object({
  kind: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v) return undefined;
      const kinds = v.split(',').map((s) => s.trim()).filter(Boolean);
      for (const k of kinds) {
        if (!(LEDGER_KINDS as readonly string[]).includes(k)) {
          ctx.addIssue({ code: 'custom', message: `Unknown kind "${k}".` });
          return z.NEVER;
        }
      }
      return kinds as LedgerKind[];
    }),
  ...dayRangeFields,
  page: z.coerce.number().int().min(1, 'Pages start at 1.').max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100, 'At most 100 per page.').default(25),
}).superRefine(fromNotAfterTo);
export type HistoryQueryInput = z.input<typeof historyQuerySchema>;

export const historyPageSchema = z.object({
  entries: z.array(ledgerEntrySchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type HistoryPage = z.infer<typeof historyPageSchema>;

// Deposits ---------------------------------------------------------------------------------

export const DEPOSIT_STATUSES = ['pending', 'succeeded', 'failed', 'refunded'] as const;
export const depositStatusSchema = z.enum(DEPOSIT_STATUSES);
export type DepositStatus = z.infer<typeof depositStatusSchema>;

export const depositSchema = z.object({
  id: z.string(),
  amountCents: centsInt,
  bonusCents: centsInt,
  refundedCents: centsInt,
  currency: z.string(),
  status: depositStatusSchema,
  provider: z.string(),
  testMode: z.boolean(),
  failureReason: z.string().nullable(),
  /** The validated path to return to after the checkout, when the deposit was started with one. */
  returnPath: z.string().nullable(),
  createdAt: isoDate,
  completedAt: isoDate.nullable(),
});
export type Deposit = z.infer<typeof depositSchema>;

export const depositOptionsSchema = z.object({
  provider: z.enum(['sandbox', 'stripe']),
  testMode: z.boolean(),
  currency: z.string(),
  minCents: centsInt,
  maxCents: centsInt,
  presetsCents: z.array(centsInt),
});
export type DepositOptions = z.infer<typeof depositOptionsSchema>;

const RETURN_BASE = 'https://packvault.invalid';

/**
 * Where the checkout sends the user back to: a path of this site, never another origin (no open
 * redirect). A leading "//" or a backslash would let a browser read it as another host, so both
 * are refused, as are control characters, spaces and API paths.
 */
export function isSafeReturnPath(v: string): boolean {
  if (v.length > 512 || !v.startsWith('/') || v.startsWith('//') || /[\\\s]/.test(v)) return false;
  for (let i = 0; i < v.length; i++) if (v.charCodeAt(i) < 0x20 || v.charCodeAt(i) === 0x7f) return false;
  if (v === '/api' || v.startsWith('/api/') || v.startsWith('/api?')) return false;
  try {
    const u = new URL(v, RETURN_BASE);
    return u.origin === RETURN_BASE && `${u.pathname}${u.search}${u.hash}` === v;
  } catch {
    return false;
  }
}

export const returnPathSchema = z
  .string()
  .max(512, 'At most 512 characters.')
  .refine(isSafeReturnPath, 'Use a path on this site, such as /shop/…');

export const createDepositSchema = z.object({
  amountCents: z
    .number({ message: 'Enter an amount.' })
    .int('Use whole cents.')
    .positive('Enter an amount above zero.'),
  /** Where to come back after paying (e.g. the product page, to finish a purchase); billing otherwise. */
  returnPath: returnPathSchema.optional(),
});
export type CreateDepositInput = z.infer<typeof createDepositSchema>;

export const createDepositResponseSchema = z.object({
  deposit: depositSchema,
  checkoutUrl: z.string(),
});

export const depositListSchema = z.object({
  deposits: z.array(depositSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});

export const depositResultSchema = z.object({ deposit: depositSchema, balanceCents: centsInt.nullable() });

// Promo codes ------------------------------------------------------------------------------

export const promoKindSchema = z.enum(['credit', 'deposit_bonus']);
export type PromoKind = z.infer<typeof promoKindSchema>;

export const promoCodeText = z
  .string()
  .trim()
  .min(3, 'A code has at least 3 characters.')
  .max(32, 'A code has at most 32 characters.')
  .regex(/^[A-Za-z0-9_-]+$/, 'Use letters, digits, - and _ only.');

export const redeemPromoSchema = z.object({ code: promoCodeText });

export const redeemPromoResponseSchema = z.object({
  kind: promoKindSchema,
  code: z.string(),
  creditedCents: centsInt,
  balanceCents: centsInt,
  /** deposit_bonus: what the next deposit will add. */
  bonusPercent: z.number().int().nullable(),
  bonusCapCents: centsInt.nullable(),
  message: z.string(),
});
export type RedeemPromoResponse = z.infer<typeof redeemPromoResponseSchema>;

export const pendingBonusSchema = z
  .object({ code: z.string(), bonusPercent: z.number().int(), bonusCapCents: centsInt })
  .nullable();

export const promoSchema = z.object({
  id: z.string(),
  code: z.string(),
  description: z.string().nullable(),
  kind: promoKindSchema,
  amountCents: centsInt.nullable(),
  bonusPercent: z.number().int().nullable(),
  bonusCapCents: centsInt.nullable(),
  startsAt: isoDate.nullable(),
  endsAt: isoDate.nullable(),
  totalLimit: z.number().int().nullable(),
  redeemedCount: z.number().int(),
  minAccountAgeDays: z.number().int().nullable(),
  active: z.boolean(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type Promo = z.infer<typeof promoSchema>;

const optionalDateTime = z
  .string()
  .refine((v) => !Number.isNaN(Date.parse(v)), 'Use a valid date and time.')
  .nullable()
  .optional();

const promoFields = {
  description: z.string().trim().max(200, 'At most 200 characters.').nullable().optional(),
  amountCents: z.number().int('Use whole cents.').min(1, 'Grant at least 1 cent.').max(100_000_00).nullable().optional(),
  bonusPercent: z.number().int('Use a whole percent.').min(1, 'At least 1%.').max(100, 'At most 100%.').nullable().optional(),
  bonusCapCents: z.number().int('Use whole cents.').min(1, 'The cap must be above zero.').max(100_000_00).nullable().optional(),
  startsAt: optionalDateTime,
  endsAt: optionalDateTime,
  totalLimit: z.number().int().min(1, 'At least 1 redemption.').max(10_000_000).nullable().optional(),
  minAccountAgeDays: z.number().int().min(0).max(3650).nullable().optional(),
  active: z.boolean().optional(),
};

function checkPromo(
  v: {
    kind?: PromoKind;
    amountCents?: number | null;
    bonusPercent?: number | null;
    bonusCapCents?: number | null;
    startsAt?: string | null;
    endsAt?: string | null;
  },
  ctx: z.RefinementCtx,
) {
  if (v.kind === 'credit' && !v.amountCents) {
    ctx.addIssue({ code: 'custom', path: ['amountCents'], message: 'A credit code needs an amount.' });
  }
  if (v.kind === 'deposit_bonus') {
    if (!v.bonusPercent) ctx.addIssue({ code: 'custom', path: ['bonusPercent'], message: 'Enter the bonus percent.' });
    if (!v.bonusCapCents) ctx.addIssue({ code: 'custom', path: ['bonusCapCents'], message: 'Enter the bonus cap.' });
  }
  if (v.startsAt && v.endsAt && Date.parse(v.endsAt) <= Date.parse(v.startsAt)) {
    ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'The end must be after the start.' });
  }
}

export const createPromoSchema = z
  .object({ code: promoCodeText, kind: promoKindSchema, ...promoFields })
  .superRefine(checkPromo);
export type CreatePromoInput = z.infer<typeof createPromoSchema>;

/** The kind and code cannot change once created; everything else can. */
export const updatePromoSchema = z.object(promoFields).superRefine(checkPromo);
export type UpdatePromoInput = z.infer<typeof updatePromoSchema>;

export const promoListSchema = z.object({ promos: z.array(promoSchema) });

export const promoRedemptionSchema = z.object({
  id: z.string(),
  userId: z.string(),
  userLabel: z.string().nullable(),
  status: z.enum(['credited', 'pending_deposit', 'applied']),
  creditedCents: centsInt,
  depositId: z.string().nullable(),
  createdAt: isoDate,
  appliedAt: isoDate.nullable(),
});
export const promoDetailSchema = z.object({ promo: promoSchema, redemptions: z.array(promoRedemptionSchema) });
export type PromoDetail = z.infer<typeof promoDetailSchema>;

// Admin balance ----------------------------------------------------------------------------

export const adminBalanceSchema = z.object({
  userId: z.string(),
  userLabel: z.string().nullable(),
  balanceCents: centsInt,
  currency: z.string(),
  recent: z.array(ledgerEntrySchema),
});
export type AdminBalance = z.infer<typeof adminBalanceSchema>;

/**
 * The most one adjustment can move, whatever the role: a typo can't turn 100 into 1,000,000, and
 * anything larger is a refund or a payment-provider matter, not a back-office correction.
 */
export const ADJUST_HARD_MAX_CENTS = 10_000_00;

/**
 * Back-office adjustment policy (app_settings, set by the owner): an admin may move at most
 * `singleLimitCents` in one adjustment and `dailyLimitCents` (credits and debits together, the last
 * 24 hours) in total; above either the owner has to do it. Nobody adjusts their own balance.
 */
export const DEFAULT_ADJUST_LIMITS = { singleLimitCents: 500_00, dailyLimitCents: 2_000_00 } as const;

export const adjustLimitsSchema = z
  .object({
    singleLimitCents: z
      .number({ message: 'Enter an amount.' })
      .int('Use whole cents.')
      .min(1, 'At least 1 cent.')
      .max(ADJUST_HARD_MAX_CENTS, 'At most 10,000 (the most one adjustment can move).'),
    dailyLimitCents: z
      .number({ message: 'Enter an amount.' })
      .int('Use whole cents.')
      .min(1, 'At least 1 cent.')
      .max(1_000_000_00, 'At most 1,000,000.'),
  })
  .strict()
  .refine((v) => v.dailyLimitCents >= v.singleLimitCents, {
    path: ['dailyLimitCents'],
    message: 'The daily limit cannot be below the single-adjustment limit.',
  });
export type AdjustLimits = z.infer<typeof adjustLimitsSchema>;

/** GET /api/admin/wallet/adjust-limits: the policy, and how much the caller moved in the last 24 h. */
export const adjustLimitsViewSchema = z.object({
  singleLimitCents: centsInt,
  dailyLimitCents: centsInt,
  hardMaxCents: centsInt,
  usedTodayCents: centsInt,
  /** The owner is not bound by the two limits (only by the hard maximum). */
  callerIsOwner: z.boolean(),
});
export type AdjustLimitsView = z.infer<typeof adjustLimitsViewSchema>;

export const adjustBalanceSchema = z.object({
  amountCents: z
    .number({ message: 'Enter an amount.' })
    .int('Use whole cents.')
    .refine((v) => v !== 0, 'The amount cannot be zero.')
    .refine((v) => Math.abs(v) <= ADJUST_HARD_MAX_CENTS, 'At most 10,000 per adjustment.'),
  reason: z.string().trim().min(3, 'Give a reason (at least 3 characters).').max(500, 'At most 500 characters.'),
});
export type AdjustBalanceInput = z.infer<typeof adjustBalanceSchema>;

// Responsible play -------------------------------------------------------------------------

export const LIMIT_PERIODS = ['day', 'week', 'month'] as const;
export const limitPeriodSchema = z.enum(LIMIT_PERIODS);
export type LimitPeriod = z.infer<typeof limitPeriodSchema>;

export const SELF_EXCLUSION_DURATIONS = ['24h', '7d', '30d', '6m'] as const;
export const selfExclusionDurationSchema = z.enum(SELF_EXCLUSION_DURATIONS);
export type SelfExclusionDuration = z.infer<typeof selfExclusionDurationSchema>;
export const SELF_EXCLUSION_LABELS: Record<SelfExclusionDuration, string> = {
  '24h': '24 hours',
  '7d': '7 days',
  '30d': '30 days',
  '6m': '6 months',
};

const limitStateSchema = z.object({
  /** The limit in force now; null = no limit. */
  limitCents: centsInt.nullable(),
  /** A raise or removal waiting for its 24 hours. */
  pending: z.object({ limitCents: centsInt.nullable(), effectiveAt: isoDate }).nullable(),
  /** Deposited (or pending checkout) in the current rolling window. */
  usedCents: centsInt,
});

export const limitsSchema = z.object({
  limits: z.object({ day: limitStateSchema, week: limitStateSchema, month: limitStateSchema }),
  selfExclusion: z.object({ endsAt: isoDate, duration: selfExclusionDurationSchema }).nullable(),
});
export type Limits = z.infer<typeof limitsSchema>;

const limitValue = z
  .number()
  .int('Use whole cents.')
  .min(100, 'A limit is at least 1.00.')
  .max(100_000_000, 'That limit is too high.')
  .nullable();

export const updateLimitsSchema = z
  .object({ day: limitValue.optional(), week: limitValue.optional(), month: limitValue.optional() })
  .refine((v) => v.day !== undefined || v.week !== undefined || v.month !== undefined, 'Change at least one limit.');
export type UpdateLimitsInput = z.infer<typeof updateLimitsSchema>;

export const selfExcludeSchema = z.object({
  duration: selfExclusionDurationSchema,
  confirm: z.literal(true, { message: 'Tick the box to confirm.' }),
});
export type SelfExcludeInput = z.infer<typeof selfExcludeSchema>;
