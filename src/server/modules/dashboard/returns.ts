import { inArray, ne, sql } from 'drizzle-orm';
import { DRIFT_MIN_OPENS } from '../../../shared/contracts/dashboard.ts';
import type { Returns, ReturnsRow } from '../../../shared/contracts/odds.ts';
import { classRates } from '../../../shared/odds-revision.ts';
import type { Db } from '../../db/client.ts';
import { cardClasses } from '../catalog/tables.ts';
import { publishCurrent, revisionFacts } from '../shop/revisions.ts';
import { products } from '../shop/tables.ts';
import { driftOf } from './drift.ts';
import { floorDay, rolledUntil, rows } from './rollup.ts';

/**
 * The public returns page (issue 44): per product and odds revision, the promised return (the
 * revision's expected value ÷ its price) against the realised one (value pulled ÷ price paid)
 * over every opening the rollups hold, with a 95 % interval and the back office's drift test
 * (drift.ts, the same function). Read from the rollups only — whole days from dashboard_daily,
 * the rolled hours of the last day from dashboard_hourly — never from the openings, and cached per
 * app for a minute: the figures move when the rollup job runs (every 5 minutes).
 */

const TTL_MS = 60_000;
const cache = new WeakMap<object, { at: number; value: Promise<Returns> }>();

export function publicReturns(db: Db, now = Date.now()): Promise<Returns> {
  const hit = cache.get(db);
  if (hit && now - hit.at < TTL_MS) return hit.value;
  const value = compute(db);
  cache.set(db, { at: now, value });
  value.catch(() => cache.delete(db));
  return value;
}

interface Fact {
  metric: string;
  k1: string;
  k2: string;
  n: string | number;
  sum: string | number;
  sum2: string | number;
}

async function compute(db: Db): Promise<Returns> {
  const until = await rolledUntil(db);
  const day = sql`${floorDay(until ?? new Date(0)).toISOString()}::timestamptz`;
  const facts = await rows<Fact>(
    db,
    sql`select "metric", "k1", "k2", sum("n")::text as "n", sum("sum")::text as "sum", sum("sum2")::text as "sum2" from (
      select "metric", "k1", "k2", "n", "sum", "sum2" from "dashboard_daily" where "day" < ${day} and "metric" in ('rev_opens', 'rev_class')
      union all
      select "metric", "k1", "k2", "n", "sum", "sum2" from "dashboard_hourly" where "hour" >= ${day} and "metric" in ('rev_opens', 'rev_class')
    ) f group by 1, 2, 3`,
  );
  const opens = new Map<string, { n: number; pulled: number; paid: number }>();
  const pulledByClass = new Map<string, Map<string, number>>();
  for (const f of facts) {
    if (f.metric === 'rev_opens') {
      const o = opens.get(f.k1) ?? { n: 0, pulled: 0, paid: 0 };
      o.n += Number(f.n);
      o.pulled += Number(f.sum);
      o.paid += Number(f.sum2);
      opens.set(f.k1, o);
    } else {
      const m = pulledByClass.get(f.k1) ?? new Map<string, number>();
      m.set(f.k2, (m.get(f.k2) ?? 0) + Number(f.n));
      pulledByClass.set(f.k1, m);
    }
  }
  // Every revision of a public product, with or without openings yet; a live product's current
  // terms are published first (the first opening would publish them anyway).
  const prods = await db.select({ id: products.id, name: products.name, status: products.status }).from(products).where(ne(products.status, 'draft'));
  for (const p of prods) if (p.status === 'live') await publishCurrent(db, p.id);
  const names = new Map(prods.map((p) => [p.id, p.name]));
  const revs = await revisionFacts(db, [...names.keys()]);
  const classIds = [...new Set(revs.flatMap((r) => r.slots.flatMap((s) => s.odds.map((e) => e.classId))))];
  const classNames = new Map(
    classIds.length ? (await db.select({ id: cardClasses.id, name: cardClasses.name }).from(cardClasses).where(inArray(cardClasses.id, classIds))).map((c) => [c.id, c.name]) : [],
  );
  const numbers = new Map<string, number>();
  const perProduct = new Map<string, number>();
  for (const r of [...revs].sort((a, b) => a.seq - b.seq)) {
    const k = (perProduct.get(r.productId) ?? 0) + 1;
    perProduct.set(r.productId, k);
    numbers.set(r.hash, k);
  }
  const items: ReturnsRow[] = revs.map((r) => {
    const o = opens.get(r.hash) ?? { n: 0, pulled: 0, paid: 0 };
    const d = driftOf({ opens: o.n, pulledValueCents: o.pulled, salesCents: o.paid, priceCents: r.priceCents, moments: { mean: r.meanCents, variance: r.varianceCents2 } });
    // realised ± 1.96 σ/√n over the mean price paid: σ is the revision's own spread of a pack's value.
    const meanPaid = o.n > 0 ? o.paid / o.n : 0;
    const half = o.n > 0 && meanPaid > 0 ? Math.round(((1.96 * Math.sqrt(r.varianceCents2 / o.n)) / meanPaid) * 10_000) : null;
    const pulled = pulledByClass.get(r.hash) ?? new Map<string, number>();
    return {
      productId: r.productId,
      productName: names.get(r.productId) ?? '',
      revisionHash: r.hash,
      revisionNumber: numbers.get(r.hash) ?? 1,
      publishedAt: r.createdAt.toISOString(),
      priceCents: r.priceCents,
      openings: o.n,
      expectedValueCents: Math.round(r.meanCents),
      promisedReturnBps: d.expectedRtpBps,
      realisedReturnBps: d.realisedRtpBps,
      intervalLowBps: d.realisedRtpBps !== null && half !== null ? d.realisedRtpBps - half : null,
      intervalHighBps: d.realisedRtpBps !== null && half !== null ? d.realisedRtpBps + half : null,
      zScore: d.zScore,
      drift: d.drift,
      rarities: [...classRates(r.slots)].map(([classId, rate]) => ({
        classId,
        className: classNames.get(classId) ?? 'Unknown class',
        promisedPerPack: rate,
        realisedPerPack: o.n > 0 ? (pulled.get(classId) ?? 0) / o.n : null,
        pulled: pulled.get(classId) ?? 0,
      })),
    };
  });
  items.sort((a, b) => a.productName.localeCompare(b.productName) || b.revisionNumber - a.revisionNumber);
  return { asOf: until?.toISOString() ?? null, minOpeningsForDrift: DRIFT_MIN_OPENS, items };
}
