import { DRIFT_MIN_OPENS, DRIFT_Z, type DashboardFigure, type PeriodResult, type ProductReturn, type SeriesPoint } from '@shared/contracts/dashboard';
import { formatMoney } from '@shared/money';
import { plural } from '@web/lib/format';

/** How each key figure reads, and which way is good for the shop. */
export interface FigureMeta {
  label: string;
  kind: 'money' | 'count';
  /** A cost: going up is bad news. */
  cost?: boolean;
  hint: string;
}

/**
 * What each line of the result means, shown as help text beside it (the definitions of
 * periodResultSchema, in the words an admin reads).
 */
export const RESULT_HELP: Record<keyof PeriodResult, string> = {
  packRevenueCents: 'The price paid for each pack opened in the period. A pack counts when it is opened, the moment its cards are handed out; packs bought and not yet opened are not revenue yet.',
  promoCents: 'Credit given by promo codes and deposit bonuses: money players spend without having paid it, so it comes off revenue.',
  revenueCents: 'Packs opened, at the price paid, less promo credit. Deposits and their refunds are not revenue.',
  cardCostCents: 'The cards drawn from those packs, at their value when they were pulled (at cost where a cost is recorded).',
  buybackPaidCents: 'Paid to players for cards from packs sold back.',
  returnedToStockCents: 'Cards from packs back in stock: sold back (at their market value on the sale) or revoked (at their value when pulled). Offsets the cost of cards.',
  grossMarginCents: 'Revenue, less the cost of cards and buyback paid, plus the value of cards back in stock.',
  marginBps: 'Gross margin as a share of revenue.',
  shippingNetCents: 'Shipping fees charged, less shipping refunds.',
  referralCents: 'Referral rewards and shares paid, less any taken back.',
  giveawaysCents: 'Drop prizes and admin grants at their value when awarded, plus buyback paid for them, less their value back in stock.',
  adjustmentsCents: 'Admin balance adjustments: credits to players less debits.',
  chargebackCents: 'Deposits charged back after the money was spent.',
  netResultCents: 'Gross margin, plus shipping, less referral rewards, giveaways, adjustments and chargebacks.',
};

export const FIGURE_META: Record<DashboardFigure, FigureMeta> = {
  depositsCents: { label: 'Deposits', kind: 'money', hint: 'Money players added to their wallets.' },
  packSalesCents: { label: 'Pack sales', kind: 'money', hint: 'Money taken for packs bought, opened or not (promo credit spent on packs included).' },
  buybackPaidCents: { label: 'Buyback paid', kind: 'money', cost: true, hint: 'Paid to players for cards sold back.' },
  promoCostCents: { label: 'Promo cost', kind: 'money', cost: true, hint: 'Discounts and credit given by promo codes.' },
  referralCostCents: { label: 'Referral cost', kind: 'money', cost: true, hint: 'Rewards and shares paid for referrals.' },
  shippingFeesCents: { label: 'Shipping fees', kind: 'money', hint: 'Fees charged for shipments.' },
  revenueCents: { label: 'Revenue', kind: 'money', hint: RESULT_HELP.revenueCents },
  cardCostCents: { label: 'Cost of cards', kind: 'money', cost: true, hint: RESULT_HELP.cardCostCents },
  grossMarginCents: { label: 'Gross margin', kind: 'money', hint: RESULT_HELP.grossMarginCents },
  netResultCents: { label: 'Net result', kind: 'money', hint: RESULT_HELP.netResultCents },
  opens: { label: 'Pack opens', kind: 'count', hint: 'Packs opened.' },
  activeUsers: { label: 'Active users', kind: 'count', hint: 'Signed in, deposited, bought or opened.' },
  signUps: { label: 'Sign-ups', kind: 'count', hint: 'New accounts.' },
};

const counts = new Intl.NumberFormat('en-US');

export function formatFigure(kind: FigureMeta['kind'], value: number, currency = 'USD'): string {
  return kind === 'money' ? formatMoney(value, currency) : counts.format(value);
}

export type Direction = 'up' | 'down' | 'flat';

/**
 * The change from the previous period. `percent` is relative to the previous value's size (so a
 * loss that shrinks reads as "up"), whole percent, and null when there was nothing before to
 * compare with.
 */
export function delta(current: number, previous: number): { direction: Direction; percent: number | null } {
  const direction: Direction = current > previous ? 'up' : current < previous ? 'down' : 'flat';
  if (direction === 'flat') return { direction, percent: 0 };
  if (previous === 0) return { direction, percent: null };
  return { direction, percent: (Math.abs(current - previous) / Math.abs(previous)) * 100 };
}

/** 12 → "12%", 0.4 → "<1%", 1234.5 → "1,235%". */
export function formatPercent(p: number): string {
  if (p > 0 && p < 1) return '<1%';
  return `${counts.format(Math.round(p))}%`;
}

/** Good, bad or neither for the shop: a cost going up is bad, anything else going up is good. */
export function deltaTone(direction: Direction, cost = false): 'good' | 'bad' | 'neutral' {
  if (direction === 'flat') return 'neutral';
  return (direction === 'up') !== cost ? 'good' : 'bad';
}

/** What a screen reader hears for the change: "up 12% from $1,200.00", "no change from 40". */
export function deltaSentence(current: number, previous: number, fmt: (n: number) => string): string {
  const d = delta(current, previous);
  if (d.direction === 'flat') return `no change from ${fmt(previous)}`;
  if (d.percent === null) return `${d.direction} from ${fmt(previous)}`;
  return `${d.direction} ${formatPercent(d.percent)} from ${fmt(previous)}`;
}

/** Basis points as a percent with two decimals: 9640 → "96.40%". */
export function formatBps(bps: number | null): string {
  return bps === null ? '—' : `${(bps / 100).toFixed(2)}%`;
}

/** A z-score with its sign: 3.812 → "+3.81", −0.5 → "−0.50". */
export function formatZ(z: number | null): string {
  if (z === null) return '—';
  const s = Math.abs(z).toFixed(2);
  return z > 0 ? `+${s}` : z < 0 ? `−${s}` : s;
}

export type DriftState = 'high' | 'low' | 'fair' | 'few' | 'none';

/** Where a product stands on the drift test; the server decides the flag, the rest is for the label. */
export function driftState(p: Pick<ProductReturn, 'drift' | 'opens' | 'zScore'>): DriftState {
  if (p.drift) return p.drift;
  if (p.opens === 0 || p.zScore === null) return 'none';
  if (p.opens < DRIFT_MIN_OPENS) return 'few';
  return 'fair';
}

export const DRIFT_LABEL: Record<DriftState, string> = {
  high: 'Drifting high',
  low: 'Drifting low',
  fair: 'Within chance',
  few: `Under ${DRIFT_MIN_OPENS} opens`,
  none: 'No opens',
};

export const DRIFT_MEANING: Record<DriftState, string> = {
  high: 'Players are getting back more than the odds promise, by more than chance explains. Check the odds and card values.',
  low: 'Players are getting back less than the odds promise, by more than chance explains. Check the pools and the odds page.',
  fair: 'The difference from the expected return is within what chance explains.',
  few: 'Too few openings to tell chance from a real difference.',
  none: 'Not opened in this period.',
};

/** The explanation under the table, with the contract's thresholds. */
export const DRIFT_EXPLANATION =
  `The z-score is how far the realised return is from the expected one, counted in the standard errors its odds ` +
  `imply for that many openings. A fair product lands beyond ±${DRIFT_Z} about once in 2,000 periods, so a product past it ` +
  `is flagged; under ${DRIFT_MIN_OPENS} openings nothing is flagged.`;

/** Products that drift first (the larger |z| first), then by openings. */
export function sortProducts(items: readonly ProductReturn[]): ProductReturn[] {
  return [...items].sort((a, b) => {
    const da = a.drift ? 1 : 0;
    const db = b.drift ? 1 : 0;
    if (da !== db) return db - da;
    if (da) return Math.abs(b.zScore ?? 0) - Math.abs(a.zScore ?? 0);
    return b.opens - a.opens;
  });
}

/** 45 → "45 s", 5400 → "1 h 30 min", 273600 → "3 d 4 h". */
export function formatAge(seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds < 60) return `${Math.max(0, Math.round(seconds))} s`;
  const min = Math.floor(seconds / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return min % 60 ? `${h} h ${min % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

/** A chart bucket's label: the hour (UTC) for `today`, the day otherwise. */
export function bucketLabel(iso: string, bucket: 'hour' | 'day'): string {
  const d = new Date(iso);
  return bucket === 'hour'
    ? `${String(d.getUTCHours()).padStart(2, '0')}:00`
    : d.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** One sentence that says what a chart shows, for its accessible name. */
export function seriesSummary(
  series: readonly SeriesPoint[],
  key: 'salesCents' | 'buybackCents' | 'opens' | 'signUps',
  label: string,
  fmt: (n: number) => string,
  bucket: 'hour' | 'day',
): string {
  if (!series.length) return `${label}: no data for this period.`;
  let total = 0;
  let peak = series[0]!;
  for (const p of series) {
    total += p[key];
    if (p[key] > peak[key]) peak = p;
  }
  const unit = bucket === 'hour' ? 'hour' : 'day';
  if (total === 0) return `${label}: none in this period.`;
  return `${label}: ${fmt(total)} in total; the busiest ${unit} was ${bucketLabel(peak.start, bucket)} with ${fmt(peak[key])}.`;
}

/** Why a product is a loss, in words (null when it is not). */
export function lossReason(p: Pick<ProductReturn, 'loss' | 'cardCostCents' | 'salesCents' | 'grossMarginCents'>): string | null {
  if (!p.loss) return null;
  if (p.cardCostCents > p.salesCents) return 'Loss: its packs handed out more card value than they sold for (a realised return over 100%).';
  return 'Loss: its gross margin is below zero after buyback.';
}

/** The margin chart's accessible name: the total, and how many buckets lost money (in words, not colour). */
export function marginSummary(series: readonly SeriesPoint[], fmt: (n: number) => string, bucket: 'hour' | 'day'): string {
  if (!series.length) return 'Gross margin: no data for this period.';
  const total = series.reduce((s, p) => s + p.grossMarginCents, 0);
  const losing = series.filter((p) => p.grossMarginCents < 0).length;
  const unit = bucket === 'hour' ? 'hour' : 'day';
  return `Gross margin: ${fmt(total)} in total; ${losing === 0 ? `no ${unit} at a loss` : `${plural(losing, unit)} at a loss`}.`;
}
