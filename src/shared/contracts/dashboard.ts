import { z } from 'zod';
import { booksCheckSchema } from './books.ts';
import { isCalendarDay } from './dates.ts';

/**
 * The admin dashboard (issue 18): GET /api/admin/dashboard. One answer for the page: key figures
 * for a period against the period of the same length just before it, the realised return to
 * players per product against what its odds promise (with a drift test), charts over time, and
 * the lists of what needs attention. Money figures come from the double-entry ledger's house
 * accounts; all money is integer cents.
 */

export const DASHBOARD_PRESETS = ['today', '7d', '30d', 'custom'] as const;
export type DashboardPreset = (typeof DASHBOARD_PRESETS)[number];

/** The longest custom range, in days (inclusive of both ends). */
export const DASHBOARD_MAX_DAYS = 366;

/**
 * `?range=today|7d|30d` (default 7d), or `?range=custom&from=YYYY-MM-DD&to=YYYY-MM-DD` (UTC days,
 * `to` inclusive; from after to, a range over a year, or a day that does not exist is a 400 on
 * the field). `today` is midnight UTC to now; 7d and 30d end now. `from`/`to` without `range`
 * mean custom (like every other from/to filter of the API).
 */
export const dashboardQuerySchema = z
  .object({
    range: z.enum(DASHBOARD_PRESETS, { error: 'Choose today, 7d, 30d or custom.' }).optional(),
    from: z.string().refine(isCalendarDay, 'Use a real date like 2025-01-31.').optional(),
    to: z.string().refine(isCalendarDay, 'Use a real date like 2025-01-31.').optional(),
  })
  .superRefine((v, ctx) => {
    if (v.range === undefined && !v.from && !v.to) return;
    if (v.range !== undefined && v.range !== 'custom') {
      if (v.from || v.to) ctx.addIssue({ code: 'custom', path: ['range'], message: 'Dates go with range=custom.' });
      return;
    }
    if (!v.from) ctx.addIssue({ code: 'custom', path: ['from'], message: 'Choose a start date.' });
    if (!v.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'Choose an end date.' });
    if (!v.from || !v.to || !isCalendarDay(v.from) || !isCalendarDay(v.to)) return;
    const a = Date.parse(`${v.from}T00:00:00Z`);
    const b = Date.parse(`${v.to}T00:00:00Z`);
    if (a > b) ctx.addIssue({ code: 'custom', path: ['to'], message: 'The end date is before the start date.' });
    else if ((b - a) / 86_400_000 + 1 > DASHBOARD_MAX_DAYS) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: `Choose at most ${DASHBOARD_MAX_DAYS} days.` });
    }
  })
  .transform((v) => ({ ...v, range: v.range ?? (v.from || v.to ? ('custom' as const) : ('7d' as const)) }));
export type DashboardQuery = z.input<typeof dashboardQuerySchema>;

/** A figure for the period and for the period of equal length just before it. */
export const comparedSchema = z.object({ current: z.number().int(), previous: z.number().int() });
export type Compared = z.infer<typeof comparedSchema>;

export const DASHBOARD_FIGURES = [
  'depositsCents',
  'packSalesCents',
  'buybackPaidCents',
  'promoCostCents',
  'referralCostCents',
  'shippingFeesCents',
  /** Net revenue: the price of the packs opened in the period, less promo credit (see PeriodResult). */
  'revenueCents',
  /** Cards handed out from packs, at their value when awarded (cost of sales). */
  'cardCostCents',
  /** Net revenue − cost of cards from packs − buyback paid for them + their value back in stock. */
  'grossMarginCents',
  /** Gross margin and everything else the house gained or spent (see PeriodResult). */
  'netResultCents',
  'opens',
  /** Distinct users who signed in, deposited, bought or opened in the period. */
  'activeUsers',
  'signUps',
] as const;
export type DashboardFigure = (typeof DASHBOARD_FIGURES)[number];

export const dashboardFiguresSchema = z.object(
  Object.fromEntries(DASHBOARD_FIGURES.map((k) => [k, comparedSchema])) as Record<DashboardFigure, typeof comparedSchema>,
);

/**
 * The period's result, as a small profit and loss statement (issue 38; docs/architecture.md,
 * "Admin dashboard", and ADR 0026). All integer cents; costs are positive numbers.
 *
 * Revenue is recognised when a pack is opened (its cards are handed out then, so revenue and the
 * cost of those cards fall in the same period): `packRevenueCents` is the price paid for each pack
 * opened. Promo credit (codes and deposit bonuses) is money given to players to spend, so it is
 * taken off revenue. Deposit refunds and chargebacks move deposits, not sales: refunds do not touch
 * revenue; a chargeback loss is an other expense.
 *
 * Cards are costed at their value when awarded (`owned_cards.value_cents`), or at a recorded cost
 * where one exists (none is recorded today; the rollup's `AWARD_COST` is the one place that would
 * prefer it). Cards drawn from packs are the cost of sales; drop prizes and admin grants are other
 * expenses (marketing and goodwill, not the product). A card sold back returns to stock at its
 * market value on the sale (`buyback_lines.market_value_cents`), a revoked one at the value it was
 * awarded at: both offset the cost of the copies they came from.
 */
export const periodResultSchema = z.object({
  /** Price paid for the packs opened in the period. */
  packRevenueCents: z.number().int(),
  /** Promo credit given (codes and deposit bonuses). */
  promoCents: z.number().int(),
  /** packRevenue − promo. */
  revenueCents: z.number().int(),
  /** Cards drawn from packs, at their value when awarded. */
  cardCostCents: z.number().int(),
  /** Paid to players for cards from packs sold back (the ledger's buyback less what prize and grant copies took). */
  buybackPaidCents: z.number().int(),
  /** Value of cards from packs back in stock (sold back at market value, revoked at award value). */
  returnedToStockCents: z.number().int(),
  /** revenue − cardCost − buybackPaid + returnedToStock. */
  grossMarginCents: z.number().int(),
  /** grossMargin ÷ revenue in basis points; null when there is no revenue. */
  marginBps: z.number().int().nullable(),
  /** Shipping fees less shipping refunds. */
  shippingNetCents: z.number().int(),
  /** Referral rewards and shares, less clawbacks. */
  referralCents: z.number().int(),
  /** Drop prizes and admin grants at their value when awarded, plus buyback paid for them, less their value back in stock. */
  giveawaysCents: z.number().int(),
  /** Admin balance adjustments: credits to players less debits. */
  adjustmentsCents: z.number().int(),
  /** Deposits charged back after the money was spent. */
  chargebackCents: z.number().int(),
  /** grossMargin + shippingNet − referral − giveaways − adjustments − chargeback. */
  netResultCents: z.number().int(),
});
export type PeriodResult = z.infer<typeof periodResultSchema>;

/**
 * A product's return to players over the period: what its openings paid out in card value
 * against what its odds promise. `zScore` is (realised − expected) over the standard error the
 * odds imply for that many openings; `drift` is set when |z| > DRIFT_Z and there were at least
 * DRIFT_MIN_OPENS openings (so a handful of lucky pulls never raises a flag).
 */
export const DRIFT_Z = 3.5;
export const DRIFT_MIN_OPENS = 30;
export const productReturnSchema = z.object({
  productId: z.string(),
  name: z.string(),
  opens: z.number().int(),
  /** Money taken for those openings. */
  salesCents: z.number().int(),
  /** Card value pulled (market value at the time of the pull). */
  pulledValueCents: z.number().int(),
  /** Realised return to player, pulled value ÷ price, in basis points (null with no openings). */
  realisedRtpBps: z.number().int().nullable(),
  /** Expected return its published odds promise, in basis points. */
  expectedRtpBps: z.number().int().nullable(),
  zScore: z.number().nullable(),
  drift: z.enum(['high', 'low']).nullable(),
  /** Its cards handed out, at their value when awarded (cost of sales; see periodResultSchema). */
  cardCostCents: z.number().int(),
  /** Paid for its cards sold back. */
  buybackPaidCents: z.number().int(),
  /** Value of its cards back in stock (sold back or revoked). */
  returnedToStockCents: z.number().int(),
  /** salesCents − cardCost − buybackPaid + returnedToStock. */
  grossMarginCents: z.number().int(),
  /** grossMargin ÷ sales in basis points; null with no sales. */
  marginBps: z.number().int().nullable(),
  /**
   * A loss: its gross margin is below zero, or its cards handed out are worth more than its sales
   * (a realised return over 100 %), which loses money on the packs whatever buyback recovers.
   */
  loss: z.boolean(),
});
export type ProductReturn = z.infer<typeof productReturnSchema>;

/** One bucket of the charts: hours for `today`, days otherwise. `start` is ISO 8601. */
export const seriesPointSchema = z.object({
  start: z.string(),
  salesCents: z.number().int(),
  buybackCents: z.number().int(),
  opens: z.number().int(),
  signUps: z.number().int(),
  /** The bucket's gross margin, as periodResultSchema defines it. */
  grossMarginCents: z.number().int(),
});
export type SeriesPoint = z.infer<typeof seriesPointSchema>;

export const stockAlertSchema = z.object({
  kind: z.enum(['class', 'product']),
  id: z.string(),
  name: z.string(),
  /** Copies (class) or packs (product) left. */
  remaining: z.number().int(),
  status: z.enum(['low', 'sold_out']),
});

export const shippingQueueRowSchema = z.object({
  status: z.string(),
  count: z.number().int(),
  /** Age of the oldest shipment in this status, in seconds. */
  oldestAgeSeconds: z.number().int().nullable(),
});

export const closingDropSchema = z.object({ id: z.string(), title: z.string(), closesAt: z.string(), entries: z.number().int() });

export const failedMailSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  failedAt: z.string(),
});

/**
 * The last run of the books' reconciliation (money and stock, GET /api/admin/books/reconcile).
 * It scans every posting, seconds at a million, so the dashboard shows the latest stored run
 * (a scheduled job keeps it fresh) rather than running it per page view.
 */
export const reconciliationSchema = z.object({
  status: z.enum(['ok', 'failed', 'never_run']),
  checkedAt: z.string().nullable(),
  /** The checks that failed, with what they found. */
  failures: z.array(booksCheckSchema),
});

export const dashboardSchema = z.object({
  range: z.object({
    preset: z.enum(DASHBOARD_PRESETS),
    /** ISO 8601; `to` is exclusive. The previous period is [previousFrom, from). */
    from: z.string(),
    to: z.string(),
    previousFrom: z.string(),
    bucket: z.enum(['hour', 'day']),
  }),
  figures: dashboardFiguresSchema,
  /** The period's result, and the previous period's. */
  result: z.object({ current: periodResultSchema, previous: periodResultSchema }),
  products: z.array(productReturnSchema),
  series: z.array(seriesPointSchema),
  attention: z.object({
    stock: z.array(stockAlertSchema),
    shipping: z.array(shippingQueueRowSchema),
    dropsClosingSoon: z.array(closingDropSchema),
    failedMail: z.object({ count: z.number().int(), recent: z.array(failedMailSchema) }),
    reconciliation: reconciliationSchema,
  }),
  generatedAt: z.string(),
});
export type Dashboard = z.infer<typeof dashboardSchema>;
