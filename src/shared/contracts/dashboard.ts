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
  /** pack sales + shipping fees − buyback − promo − referral − shipping refunds − chargeback losses. */
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
});
export type ProductReturn = z.infer<typeof productReturnSchema>;

/** One bucket of the charts: hours for `today`, days otherwise. `start` is ISO 8601. */
export const seriesPointSchema = z.object({
  start: z.string(),
  salesCents: z.number().int(),
  buybackCents: z.number().int(),
  opens: z.number().int(),
  signUps: z.number().int(),
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
