import { and, inArray, sql, type SQL } from 'drizzle-orm';
import {
  DASHBOARD_FIGURES,
  type Dashboard,
  type DashboardFigure,
  type DashboardPreset,
  type PeriodResult,
  type ProductReturn,
  type SeriesPoint,
} from '../../../shared/contracts/dashboard.ts';
import type { PackPool, PackSlot } from '../../../shared/contracts/shop.ts';
import type { DbOrTx } from '../../db/client.ts';
import { latestReconcile } from '../books/service.ts';
import { cardClasses, cards } from '../catalog/tables.ts';
import { eligibleWhere } from '../shop/read.ts';
import { classesOf } from '../shop/odds.ts';
import { driftOf, packMoments, type ClassMoments } from './drift.ts';
import { activeFacts, dayNumber, hourlyFacts, rolledUntil, rows } from './rollup.ts';

/** Stock below these is "low" on the dashboard. */
export const LOW_CLASS_COPIES = 20;
export const LOW_PRODUCT_PACKS = 25;
/** Drops closing within this many hours are listed. */
const CLOSING_HOURS = 24;
const FAILED_MAIL_SHOWN = 5;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface ResolvedRange {
  preset: DashboardPreset;
  from: Date;
  to: Date;
  previousFrom: Date;
  bucket: 'hour' | 'day';
}

const floorTo = (d: Date, ms: number) => new Date(Math.floor(d.getTime() / ms) * ms);
const ceilTo = (d: Date, ms: number) => new Date(Math.ceil(d.getTime() / ms) * ms);

/**
 * Periods are whole hours, so the rollups answer all but the raw tail: the current period counts
 * the hour in progress as one of its hours, and the previous one has as many whole hours. 7d and
 * 30d end now and start 7×24 (30×24) hour-slots back; today starts at midnight UTC; custom covers
 * whole UTC days, cut at now.
 */
export function resolveRange(q: { range: DashboardPreset; from?: string; to?: string }, now: Date): ResolvedRange {
  if (q.range === 'custom') {
    const from = new Date(`${q.from!}T00:00:00Z`);
    const end = new Date(new Date(`${q.to!}T00:00:00Z`).getTime() + DAY);
    const to = new Date(Math.max(from.getTime(), Math.min(end.getTime(), now.getTime())));
    return { preset: 'custom', from, to, previousFrom: new Date(from.getTime() - (end.getTime() - from.getTime())), bucket: 'day' };
  }
  if (q.range === 'today') {
    const from = floorTo(now, DAY);
    const slots = Math.max(1, Math.ceil((now.getTime() - from.getTime()) / HOUR));
    return { preset: 'today', from, to: now, previousFrom: new Date(from.getTime() - slots * HOUR), bucket: 'hour' };
  }
  const days = q.range === '7d' ? 7 : 30;
  const from = new Date(ceilTo(now, HOUR).getTime() - days * DAY);
  return { preset: q.range, from, to: now, previousFrom: new Date(from.getTime() - days * DAY), bucket: 'day' };
}

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

interface FactRow {
  cur: boolean;
  bucket: string | Date | null;
  metric: string;
  k1: string;
  k2: string;
  n: string;
  sum: string;
  sum2: string;
}

interface Span {
  from: Date;
  to: Date;
}
interface Sources {
  days: Span[];
  hours: Span[];
  tail: Span | null;
}

/**
 * Where the rows of [a, b) come from: whole UTC days from the daily tier (if `wholeDays`), the
 * hours around them from the hourly one (both only before W = rolled_until), and the raw tail
 * after W. Called per period, so a day never straddles the period boundary.
 */
export function sources(a: Date, b: Date, w: Date | null, wholeDays: boolean): Sources {
  const out: Sources = { days: [], hours: [], tail: null };
  const end = w ? new Date(Math.min(w.getTime(), b.getTime())) : a;
  if (end > a) {
    const d1 = ceilTo(a, DAY);
    const d2 = floorTo(end, DAY);
    if (!wholeDays || d1 >= d2) out.hours.push({ from: a, to: end });
    else {
      if (a < d1) out.hours.push({ from: a, to: d1 });
      out.days.push({ from: d1, to: d2 });
      if (d2 < end) out.hours.push({ from: d2, to: end });
    }
  }
  const tailFrom = end > a ? end : a;
  if (tailFrom < b) out.tail = { from: tailFrom, to: b };
  return out;
}

const periods = (r: ResolvedRange, w: Date | null) => [
  sources(r.previousFrom, r.from, w, true),
  // An hourly series needs the current period's hours.
  sources(r.from, r.to, w, r.bucket === 'day'),
];

const unionAll = (parts: SQL[]) => sql.join(parts.map((p) => sql`(${p})`), sql` union all `);

/** Rollup rows (days, hours) and raw facts of the tail, summed per period (and bucket for the current one). */
async function facts(db: DbOrTx, r: ResolvedRange, w: Date | null): Promise<FactRow[]> {
  const parts = periods(r, w).flatMap((src) => [
    ...src.days.map((d) => sql`select "day" as "hour", "metric", "k1", "k2", "n", "sum", "sum2" from "dashboard_daily" where "day" >= ${ts(d.from)} and "day" < ${ts(d.to)}`),
    ...src.hours.map((h) => sql`select "hour", "metric", "k1", "k2", "n", "sum", "sum2" from "dashboard_hourly" where "hour" >= ${ts(h.from)} and "hour" < ${ts(h.to)}`),
    ...(src.tail ? [hourlyFacts(ts(src.tail.from), ts(src.tail.to))] : []),
  ]);
  if (!parts.length) return [];
  return rows<FactRow>(
    db,
    sql`with "f" as (${unionAll(parts)})
      select "hour" >= ${ts(r.from)} as "cur",
        case when "hour" >= ${ts(r.from)} then date_trunc(${r.bucket}, "hour", 'UTC') end as "bucket",
        "metric", "k1", "k2", sum("n")::text as "n", sum("sum")::text as "sum", sum("sum2")::text as "sum2"
      from "f" group by 1, 2, 3, 4, 5`,
  );
}

/** User ids active in a period's edge hours and raw tail (its whole days are in `dashboard_user_days`). */
function edgeActive(src: Sources): SQL[] {
  return [
    ...src.hours.map((h) => sql`select "user_id" from "dashboard_active_hourly" where "hour" >= ${ts(h.from)} and "hour" < ${ts(h.to)}`),
    ...(src.tail ? [activeFacts(ts(src.tail.from), ts(src.tail.to), { usersOnly: true })] : []),
  ];
}

/** "Has an active day in [a, b)": the count of days below b minus the count below a, each a binary search. */
const activeIn = (d: Span) => sql`width_bucket(${dayNumber(d.to) - 1}, "days") > width_bucket(${dayNumber(d.from) - 1}, "days")`;

/**
 * Distinct active users of both periods in one statement: per user, whether they were active in
 * the current and in the previous period, from their day array (whole days) or an edge hour or
 * the tail, then counted. Only users active since the earlier period began are read.
 */
async function activeUsers(db: DbOrTx, r: ResolvedRange, w: Date | null): Promise<{ current: number; previous: number }> {
  const [prev, cur] = periods(r, w);
  const parts: SQL[] = [];
  const dayFlags = [cur!, prev!].map((src) => (src.days.length ? sql.join(src.days.map(activeIn), sql` or `) : sql`false`));
  if (prev!.days.length || cur!.days.length) {
    const first = Math.min(...[...prev!.days, ...cur!.days].map((d) => dayNumber(d.from)));
    parts.push(sql`select * from (select "user_id", ${dayFlags[0]} as "c", ${dayFlags[1]} as "p" from "dashboard_user_days" where "last_day" >= ${first}) d where "c" or "p"`);
  }
  parts.push(...edgeActive(cur!).map((q) => sql`select "user_id", true as "c", false as "p" from (${q}) e`));
  parts.push(...edgeActive(prev!).map((q) => sql`select "user_id", false as "c", true as "p" from (${q}) e`));
  const [x] = await rows<{ c: string; p: string }>(
    db,
    sql`select count(*) filter (where "c")::text as "c", count(*) filter (where "p")::text as "p"
      from (select "user_id", bool_or("c") as "c", bool_or("p") as "p" from (${unionAll(parts)}) a group by "user_id") u`,
  );
  return { current: Number(x?.c ?? 0), previous: Number(x?.p ?? 0) };
}

/** A figure from a ledger fact: Σ amounts on a house account kind, optionally of some entry kinds. */
type LedgerSum = { accounts: string[]; entries?: string[]; sign: 1 | -1 };
const LEDGER_FIGURES: Partial<Record<DashboardFigure, LedgerSum>> = {
  // A deposit credits the wallet from the clearing account, which goes negative.
  depositsCents: { accounts: ['payments_clearing'], entries: ['deposit'], sign: -1 },
  packSalesCents: { accounts: ['pack_sales'], sign: 1 },
  buybackPaidCents: { accounts: ['buyback_expense'], sign: -1 },
  promoCostCents: { accounts: ['promo_expense'], sign: -1 },
  // Rewards less clawbacks.
  referralCostCents: { accounts: ['referral_expense'], sign: -1 },
  shippingFeesCents: { accounts: ['shipping_fees'], sign: 1 },
};

/** One period's sums behind its PeriodResult, from the ledger and card facts. */
interface ResultSums {
  /** House account kind → Σ postings (income positive, cost negative). */
  ledger: Map<string, number>;
  packRevenue: number;
  /** By the copy's acquired_via: cost awarded, buyback paid, value back in stock. */
  awarded: Map<string, number>;
  buybackPaid: Map<string, number>;
  returned: Map<string, number>;
}

const emptySums = (): ResultSums => ({ ledger: new Map(), packRevenue: 0, awarded: new Map(), buybackPaid: new Map(), returned: new Map() });
const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
const bps = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) : null);

/** The P&L of one period (definitions: periodResultSchema). */
export function periodResult(x: ResultSums): PeriodResult {
  const led = (k: string) => x.ledger.get(k) ?? 0;
  const of = (m: Map<string, number>, k: string) => m.get(k) ?? 0;
  const promoCents = 0 - led('promo_expense');
  const revenueCents = x.packRevenue - promoCents;
  const cardCostCents = of(x.awarded, 'opening');
  // Every buyback is paid through the ledger; what prize and grant copies took is theirs, the rest the packs'.
  const giveawayBuyback = of(x.buybackPaid, 'drop') + of(x.buybackPaid, 'grant');
  const buybackPaidCents = 0 - led('buyback_expense') - giveawayBuyback;
  const returnedToStockCents = of(x.returned, 'opening');
  const grossMarginCents = revenueCents - cardCostCents - buybackPaidCents + returnedToStockCents;
  const shippingNetCents = led('shipping_fees') + led('shipping_refunds');
  const referralCents = 0 - led('referral_expense');
  const giveawaysCents =
    of(x.awarded, 'drop') + of(x.awarded, 'grant') + giveawayBuyback - of(x.returned, 'drop') - of(x.returned, 'grant');
  const adjustmentsCents = 0 - led('admin_adjustments');
  const chargebackCents = 0 - led('chargeback_loss');
  return {
    packRevenueCents: x.packRevenue,
    promoCents,
    revenueCents,
    cardCostCents,
    buybackPaidCents,
    returnedToStockCents,
    grossMarginCents,
    marginBps: bps(grossMarginCents, revenueCents),
    shippingNetCents,
    referralCents,
    giveawaysCents,
    adjustmentsCents,
    chargebackCents,
    netResultCents: grossMarginCents + shippingNetCents - referralCents - giveawaysCents - adjustmentsCents - chargebackCents,
  };
}

interface ProductRow {
  id: string;
  name: string;
  price_cents: number;
  status: string;
  slots: PackSlot[];
  pool: PackPool;
}

interface ClassStock extends ClassMoments {
  copies: number;
}

/** Per pool definition, per class: the eligible cards' moments and copies in stock. */
async function classStock(db: DbOrTx, classIds: string[], pool: PackPool): Promise<Map<string, ClassStock>> {
  if (!classIds.length) return new Map();
  const got = await db
    .select({
      classId: cards.classId,
      n: sql<string>`count(*)::text`,
      sum: sql<string>`coalesce(sum(${cards.valueCents}), 0)::text`,
      sumSq: sql<string>`coalesce(sum(${cards.valueCents}::numeric * ${cards.valueCents}), 0)::text`,
      copies: sql<string>`coalesce(sum(${cards.stock}), 0)::text`,
    })
    .from(cards)
    .where(and(eligibleWhere(classIds, pool)))
    .groupBy(cards.classId);
  return new Map(got.map((g) => [g.classId, { n: Number(g.n), sum: Number(g.sum), sumSq: Number(g.sumSq), copies: Number(g.copies) }]));
}

export async function getDashboard(db: DbOrTx, q: { range: DashboardPreset; from?: string; to?: string }, now = new Date()): Promise<Dashboard> {
  const r = resolveRange(q, now);
  const w = await rolledUntil(db);
  const [factRows, active, productRows, shipping, drops, failedCount, failedRecent, rec] = await Promise.all([
    facts(db, r, w),
    activeUsers(db, r, w),
    rows<ProductRow>(db, sql`select p."id"::text as "id", p."name", p."price_cents", p."status"::text as "status", k."slots", k."pool"
      from "products" p join "packs" k on k."id" = p."pack_id" where p."status" <> 'draft' order by p."sort_order", p."created_at"`),
    rows<{ status: string; n: string; oldest: string | null }>(
      db,
      sql`select "status"::text as "status", count(*)::text as "n", floor(extract(epoch from (${ts(now)} - min("created_at"))))::text as "oldest"
        from "shipments" where "status" in ('requested', 'packing', 'shipped') group by 1`,
    ),
    rows<{ id: string; title: string; closes_at: string | Date; entries: string }>(
      db,
      sql`select d."id"::text as "id", d."title", d."closes_at", (select count(*) from "drop_entries" e where e."drop_id" = d."id")::text as "entries"
        from "drops" d where d."status" = 'open' and d."closes_at" >= ${ts(now)} and d."closes_at" < ${ts(new Date(now.getTime() + CLOSING_HOURS * HOUR))}
        order by d."closes_at" limit 20`,
    ),
    rows<{ n: string }>(db, sql`select count(*)::text as "n" from "mail_messages" where "status" = 'failed'`),
    rows<{ id: string; to: string; subject: string; attempts: number; last_error: string | null; at: string | Date }>(
      db,
      sql`select "id"::text as "id", "to", "subject", "attempts", "last_error", "next_attempt_at" as "at" from "mail_messages"
        where "status" = 'failed' order by "next_attempt_at" desc limit ${FAILED_MAIL_SHOWN}`,
    ),
    latestReconcile(db),
  ]);

  // Figures.
  const figures = Object.fromEntries(DASHBOARD_FIGURES.map((k) => [k, { current: 0, previous: 0 }])) as Dashboard['figures'];
  const opensByProduct = new Map<string, { n: number; pulled: number; sales: number }>();
  const sums = { current: emptySums(), previous: emptySums() };
  const bucketSums = new Map<SeriesPoint, ResultSums>();
  // Per product, current period: cost of its cards, buyback paid for them, their value back in stock.
  const cardsByProduct = new Map<string, { cost: number; paid: number; returned: number }>();
  const productCards = (id: string) => {
    let c = cardsByProduct.get(id);
    if (!c) cardsByProduct.set(id, (c = { cost: 0, paid: 0, returned: 0 }));
    return c;
  };
  const buckets = new Map<number, SeriesPoint>();
  const step = r.bucket === 'hour' ? HOUR : DAY;
  for (let t = floorTo(r.from, step).getTime(); t < r.to.getTime(); t += step) {
    buckets.set(t, { start: new Date(t).toISOString(), salesCents: 0, buybackCents: 0, opens: 0, signUps: 0, grossMarginCents: 0 });
  }
  for (const f of factRows) {
    const side = f.cur ? 'current' : 'previous';
    const n = Number(f.n);
    const sum = Number(f.sum);
    const point = f.cur && f.bucket ? buckets.get(new Date(f.bucket).getTime()) : undefined;
    const x = sums[side];
    // The same sums per chart bucket, for its gross margin.
    const bx = point ? (bucketSums.get(point) ?? (bucketSums.set(point, emptySums()), bucketSums.get(point)!)) : null;
    if (bx) {
      if (f.metric === 'ledger') add(bx.ledger, f.k1, sum);
      else if (f.metric === 'opens') bx.packRevenue += Number(f.sum2);
      else if (f.metric === 'awarded') add(bx.awarded, f.k1, sum);
      else if (f.metric === 'buyback' || f.metric === 'revoked') add(bx.returned, f.k1, sum);
      if (f.metric === 'buyback') add(bx.buybackPaid, f.k1, Number(f.sum2));
    }
    if (f.metric === 'ledger') {
      add(x.ledger, f.k1, sum);
      for (const [k, def] of Object.entries(LEDGER_FIGURES) as Array<[DashboardFigure, LedgerSum]>) {
        if (def.accounts.includes(f.k1) && (!def.entries || def.entries.includes(f.k2))) figures[k][side] += def.sign * sum;
      }
      if (point && f.k1 === 'pack_sales') point.salesCents += sum;
      if (point && f.k1 === 'buyback_expense') point.buybackCents -= sum;
    } else if (f.metric === 'awarded' || f.metric === 'buyback' || f.metric === 'revoked') {
      const paid = f.metric === 'buyback' ? Number(f.sum2) : 0;
      if (f.metric === 'awarded') add(x.awarded, f.k1, sum);
      else add(x.returned, f.k1, sum);
      add(x.buybackPaid, f.k1, paid);
      if (f.cur && f.k1 === 'opening' && f.k2) {
        const c = productCards(f.k2);
        if (f.metric === 'awarded') c.cost += sum;
        else c.returned += sum;
        c.paid += paid;
      }
    } else if (f.metric === 'opens') {
      x.packRevenue += Number(f.sum2);
      figures.opens[side] += n;
      if (point) point.opens += n;
      if (f.cur) {
        const p = opensByProduct.get(f.k1) ?? { n: 0, pulled: 0, sales: 0 };
        p.n += n;
        p.pulled += sum;
        p.sales += Number(f.sum2);
        opensByProduct.set(f.k1, p);
      }
    } else if (f.metric === 'signups') {
      figures.signUps[side] += n;
      if (point) point.signUps += n;
    }
  }
  figures.activeUsers = active;
  for (const [point, x] of bucketSums) point.grossMarginCents = periodResult(x).grossMarginCents;
  const result = { current: periodResult(sums.current), previous: periodResult(sums.previous) };
  for (const side of ['current', 'previous'] as const) {
    figures.revenueCents[side] = result[side].revenueCents;
    figures.cardCostCents[side] = result[side].cardCostCents;
    figures.grossMarginCents[side] = result[side].grossMarginCents;
    figures.netResultCents[side] = result[side].netResultCents;
  }

  // Returns per product (live ones, and any other with openings in the period).
  const shown = productRows.filter((p) => p.status === 'live' || opensByProduct.has(p.id) || cardsByProduct.has(p.id));
  const pools = new Map<string, { classIds: string[]; pool: PackPool }>();
  const poolKey = (p: ProductRow) => (p.pool.mode === 'classes' ? 'classes' : JSON.stringify(p.pool));
  for (const p of shown) {
    const e = pools.get(poolKey(p)) ?? { classIds: [], pool: p.pool };
    e.classIds = [...new Set([...e.classIds, ...classesOf(p.slots)])];
    pools.set(poolKey(p), e);
  }
  const stockByPool = new Map<string, Map<string, ClassStock>>();
  await Promise.all([...pools].map(async ([k, v]) => stockByPool.set(k, await classStock(db, v.classIds, v.pool))));

  const products: ProductReturn[] = shown.map((p) => {
    const o = opensByProduct.get(p.id) ?? { n: 0, pulled: 0, sales: 0 };
    const moments = p.slots.length ? packMoments(p.slots, stockByPool.get(poolKey(p))!) : null;
    const c = cardsByProduct.get(p.id) ?? { cost: 0, paid: 0, returned: 0 };
    const grossMarginCents = o.sales - c.cost - c.paid + c.returned;
    return {
      productId: p.id,
      name: p.name,
      opens: o.n,
      salesCents: o.sales,
      pulledValueCents: o.pulled,
      ...driftOf({ opens: o.n, pulledValueCents: o.pulled, salesCents: o.sales, priceCents: p.price_cents, moments }),
      cardCostCents: c.cost,
      buybackPaidCents: c.paid,
      returnedToStockCents: c.returned,
      grossMarginCents,
      marginBps: bps(grossMarginCents, o.sales),
      loss: grossMarginCents < 0 || c.cost > o.sales,
    };
  });

  // Stock: classes that live products draw from, and live products, by what is left.
  const live = shown.filter((p) => p.status === 'live');
  const stock: Dashboard['attention']['stock'] = [];
  const liveClassIds = [...new Set(live.filter((p) => p.pool.mode === 'classes').flatMap((p) => classesOf(p.slots)))];
  if (liveClassIds.length) {
    const names = await db.select({ id: cardClasses.id, name: cardClasses.name }).from(cardClasses).where(inArray(cardClasses.id, liveClassIds));
    const byClass = stockByPool.get('classes') ?? new Map<string, ClassStock>();
    for (const c of names) {
      const copies = byClass.get(c.id)?.copies ?? 0;
      if (copies < LOW_CLASS_COPIES) stock.push({ kind: 'class', id: c.id, name: c.name, remaining: copies, status: copies === 0 ? 'sold_out' : 'low' });
    }
  }
  for (const p of live) {
    const byClass = stockByPool.get(poolKey(p))!;
    // Packs left at the rate its odds draw each class: the first class to run out ends the product.
    const perPack = new Map<string, number>();
    for (const s of p.slots) {
      const total = s.odds.reduce((a, e) => a + e.weight, 0);
      for (const e of s.odds) if (total) perPack.set(e.classId, (perPack.get(e.classId) ?? 0) + e.weight / total);
    }
    let remaining = p.slots.length ? Infinity : 0;
    let soldOut = p.slots.length === 0;
    for (const [classId, rate] of perPack) {
      const copies = byClass.get(classId)?.copies ?? 0;
      if (copies === 0) soldOut = true;
      if (rate > 0) remaining = Math.min(remaining, Math.floor(copies / rate));
    }
    if (soldOut) remaining = 0;
    if (remaining < LOW_PRODUCT_PACKS) stock.push({ kind: 'product', id: p.id, name: p.name, remaining, status: remaining === 0 ? 'sold_out' : 'low' });
  }
  stock.sort((a, b) => a.remaining - b.remaining || a.name.localeCompare(b.name));

  const order = ['requested', 'packing', 'shipped'];
  return {
    range: { preset: r.preset, from: r.from.toISOString(), to: r.to.toISOString(), previousFrom: r.previousFrom.toISOString(), bucket: r.bucket },
    figures,
    result,
    products,
    series: [...buckets.values()],
    attention: {
      stock,
      shipping: order.map((status) => {
        const s = shipping.find((x) => x.status === status);
        return { status, count: Number(s?.n ?? 0), oldestAgeSeconds: s?.oldest != null ? Math.max(0, Number(s.oldest)) : null };
      }),
      dropsClosingSoon: drops.map((d) => ({ id: d.id, title: d.title, closesAt: new Date(d.closes_at).toISOString(), entries: Number(d.entries) })),
      failedMail: {
        count: Number(failedCount[0]?.n ?? 0),
        recent: failedRecent.map((m) => ({ id: m.id, to: m.to, subject: m.subject, attempts: m.attempts, lastError: m.last_error, failedAt: new Date(m.at).toISOString() })),
      },
      reconciliation: rec
        ? { status: rec.ok ? 'ok' : 'failed', checkedAt: rec.checkedAt.toISOString(), failures: rec.checks.filter((c) => !c.ok) }
        : { status: 'never_run', checkedAt: null, failures: [] },
    },
    generatedAt: now.toISOString(),
  };
}
