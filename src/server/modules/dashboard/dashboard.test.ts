import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dashboard } from '../../../shared/contracts/dashboard.ts';
import { credit, debit } from '../wallet/service.ts';
import { idem, moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';
import { fund, liveProduct, makeCatalog, slots } from '../shop/test-support.ts';
import { reconcileAndStore } from '../books/service.ts';
import { hourlyFacts, rebuildRollup, revisionFacts, rollUp, rows } from './rollup.ts';
import { getDashboard, sources } from './service.ts';

let t: MoneyTestContext;
let admin: string;
let productId: string;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const move = (kind: 'credit' | 'debit', m: Parameters<typeof credit>[1]) =>
  t.deps.db.transaction((tx) => (kind === 'credit' ? credit(tx, m) : debit(tx, m)));

/** Moves what happened into the past (the services stamp "now"; the journal is append-only, so its trigger is bypassed). */
async function backdate(entryIds: string[], at: Date) {
  await t.deps.db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`update journal_entries set created_at = ${at.toISOString()}::timestamptz where id in ${sql.raw(`('${entryIds.join("','")}')`)}`);
  });
}

let users: string[];
const opened: { now: number; before: number } = { now: 0, before: 0 };

beforeAll(async () => {
  t = await moneyTestContext();
  // The owner: this pack gives back more than its price, which only the owner sets (ADR 0024).
  admin = await t.makeUser({ role: 'owner' });
  const cat = await makeCatalog(t, [
    { name: 'Common', cards: [{ value: 100, stock: 500 }, { value: 200, stock: 500 }] },
    { name: 'Rare', cards: [{ value: 5000, stock: 3 }] },
  ]);
  ({ productId } = await liveProduct(t, admin, {
    name: 'Dash Pack',
    priceCents: 300,
    slots: slots(2, [
      { classId: cat.classes.Common!, weight: 99 },
      { classId: cat.classes.Rare!, weight: 1 },
    ]),
  }));
  users = [await t.makeUser(), await t.makeUser()];
}, 60_000);
afterAll(() => t.close());

const get = async (q: string) => {
  const res = await t.as(admin).get(`/api/admin/dashboard${q}`);
  return { res, body: (await res.json()) as Dashboard };
};

describe('access and input', () => {
  it('401 signed out, 403 for a plain user and for an admin without MFA', async () => {
    expect((await t.as(null).get('/api/admin/dashboard')).status).toBe(401);
    expect((await t.as(users[0]!).get('/api/admin/dashboard')).status).toBe(403);
    const noMfa = await t.makeUser({ role: 'admin', mfa: false });
    expect((await t.as(noMfa).get('/api/admin/dashboard')).status).toBe(403);
  });

  it.each([
    ['?range=custom&from=2025-03-02&to=2025-03-01', 'to'],
    ['?range=custom&from=2024-01-01&to=2025-01-02', 'to'],
    ['?range=custom&from=2025-02-30&to=2025-03-01', 'from'],
    ['?range=week', 'range'],
    ['?range=custom&from=2025-02-01', 'to'],
  ])('%s is a 400 on %s', async (q, field) => {
    const res = await t.as(admin).get(`/api/admin/dashboard${q}`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; fields: Record<string, string[]> } };
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.fields[field]?.[0]).toBeTruthy();
  });

  it('answers no-store, with never_run before the first reconciliation', async () => {
    const { res, body } = await get('');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(body.range.preset).toBe('7d');
    expect(body.attention.reconciliation.status).toBe('never_run');
  });
});

describe('figures', () => {
  it('match hand-computed sums, split between the period and the one before', async () => {
    const [a, b] = users as [string, string];
    const old = new Date(Date.now() - 10 * DAY);
    // Previous period (10 days ago): a deposit of 1,000 and a promo of 50.
    const d0 = await move('credit', { userId: a, amountCents: 1000, kind: 'deposit', referenceType: 'deposit', referenceId: randomUUID() });
    const p0 = await move('credit', { userId: a, amountCents: 50, kind: 'promo_credit', referenceType: 'promo', referenceId: randomUUID() });
    await backdate([d0.entryId, p0.entryId], old);
    // This period: deposits 5,000 + 2,000, 3 packs bought and opened (3 × 300), a buyback of 120,
    // promo 25, a referral reward 500, a shipping fee 400.
    await fund(t, a, 5000);
    await fund(t, b, 2000);
    const open = await t.as(a).post('/api/shop/open', { productId, quantity: 3 }, idem());
    expect(open.status).toBe(201);
    opened.now = 3;
    await move('credit', { userId: b, amountCents: 120, kind: 'buyback', referenceType: 'buyback', referenceId: randomUUID() });
    await move('credit', { userId: b, amountCents: 25, kind: 'promo_credit', referenceType: 'promo', referenceId: randomUUID() });
    await move('credit', { userId: a, amountCents: 500, kind: 'referral_reward', referenceType: 'referral', referenceId: randomUUID() });
    await move('debit', { userId: b, amountCents: 400, kind: 'shipping_fee', referenceType: 'shipment', referenceId: randomUUID() });

    const { body } = await get('?range=7d');
    const f = body.figures;
    expect(f.depositsCents).toEqual({ current: 7000, previous: 1000 });
    expect(f.packSalesCents).toEqual({ current: 900, previous: 0 });
    expect(f.buybackPaidCents).toEqual({ current: 120, previous: 0 });
    expect(f.promoCostCents).toEqual({ current: 25, previous: 50 });
    expect(f.referralCostCents).toEqual({ current: 500, previous: 0 });
    expect(f.shippingFeesCents).toEqual({ current: 400, previous: 0 });
    // The cards handed out are a cost (issue 38): the pulls' value at the time, from the vaults.
    const [cards] = await rows<{ v: string }>(t.deps.db, sql`select sum(value_cents)::text as v from owned_cards where product_id = ${productId}`);
    const cardCost = Number(cards!.v);
    expect(f.cardCostCents).toEqual({ current: cardCost, previous: 0 });
    expect(f.revenueCents).toEqual({ current: 900 - 25, previous: -50 });
    // The buyback here moved money only (no copy back in stock): all of it counts against the packs.
    expect(f.grossMarginCents).toEqual({ current: 900 - 25 - cardCost - 120, previous: -50 });
    expect(f.netResultCents).toEqual({ current: 900 - 25 - cardCost - 120 + 400 - 500, previous: -50 });
    expect(f.opens).toEqual({ current: 3, previous: 0 });
    expect(f.activeUsers.current).toBe(2);
    // The two users plus the admins made in this file signed up now.
    expect(f.signUps.current).toBeGreaterThanOrEqual(2);
    const p = body.products.find((x) => x.productId === productId)!;
    expect(p.opens).toBe(3);
    expect(p.salesCents).toBe(900);
    const [pulled] = await rows<{ v: string }>(t.deps.db, sql`select sum(total_value_cents)::text as v from openings where product_id = ${productId}`);
    expect(p.pulledValueCents).toBe(Number(pulled!.v));
    // EV per slot: 0.99 × 150 + 0.01 × 5000 = 198.5; two slots = 397 on 300.
    expect(p.expectedRtpBps).toBe(Math.round((397 / 300) * 10_000));
    expect(p.drift).toBeNull();
    const series = body.series.reduce((s, x) => ({ sales: s.sales + x.salesCents, buyback: s.buyback + x.buybackCents, opens: s.opens + x.opens }), { sales: 0, buyback: 0, opens: 0 });
    expect(series).toEqual({ sales: 900, buyback: 120, opens: 3 });
    expect(body.series).toHaveLength(body.series.length);
    expect(body.range.bucket).toBe('day');

    // The same numbers once rolled up (all but the hour in progress), and from a rebuild.
    await rollUp(t.deps.db, { horizon: new Date(Date.now() - HOUR) });
    expect((await get('?range=7d')).body.figures).toEqual(f);
    await rebuildRollup(t.deps.db, { horizon: new Date(Date.now() + HOUR) });
    expect((await get('?range=7d')).body.figures).toEqual(f);
    const today = await get('?range=today');
    expect(today.body.range.bucket).toBe('hour');
    expect(today.body.figures.packSalesCents.current).toBe(900);
  });

  it('shows the stored reconciliation once it has run', async () => {
    await reconcileAndStore(t.deps.db);
    const { body } = await get('');
    expect(body.attention.reconciliation.status).toBe('ok');
    expect(body.attention.reconciliation.checkedAt).toBeTruthy();
  });

  it('lists the rare class as low on stock', async () => {
    const { body } = await get('');
    expect(body.attention.stock.some((s) => s.kind === 'class' && s.name === 'Rare' && s.status === 'low')).toBe(true);
    expect(body.attention.shipping.map((s) => s.status)).toEqual(['requested', 'packing', 'shipped']);
  });
});

describe('rollup', () => {
  it('rollup + tail equals a from-scratch computation, with a late entry into an already-rolled hour', async () => {
    const [a] = users as [string];
    const scratch = async () =>
      rows<Record<string, string>>(t.deps.db, sql`select "metric", "k1", "k2", sum("n")::text n, sum("sum")::text s, sum("sum2")::text s2
        from (${hourlyFacts(sql`'-infinity'::timestamptz`, sql`'infinity'::timestamptz`)}
          union all ${revisionFacts(sql`'-infinity'::timestamptz`, sql`'infinity'::timestamptz`)}) x group by 1, 2, 3 order by 1, 2, 3`);
    const now = new Date();
    await rollUp(t.deps.db, { horizon: new Date(now.getTime() + 2 * HOUR) });
    // Late: stamped half an hour ago (an hour already rolled), visible only now.
    const late = await move('credit', { userId: a, amountCents: 777, kind: 'promo_credit', referenceType: 'promo', referenceId: randomUUID() });
    await backdate([late.entryId], new Date(now.getTime() - HOUR / 2));
    const before = await getDashboard(t.deps.db, { range: '7d' }, now);
    // The next run re-rolls the recent hours and catches it.
    await rollUp(t.deps.db, { horizon: new Date(now.getTime() + 3 * HOUR) });
    const after = await getDashboard(t.deps.db, { range: '7d' }, now);
    expect(after.figures.promoCostCents.current).toBe(25 + 777);
    expect(before.figures.promoCostCents.current).toBe(25);
    const rolled = await rows<Record<string, string>>(t.deps.db, sql`select "metric", "k1", "k2", sum("n")::text n, sum("sum")::text s, sum("sum2")::text s2
      from dashboard_hourly group by 1, 2, 3 order by 1, 2, 3`);
    expect(rolled).toEqual(await scratch());
    // The daily tier is the sum of its whole days' hours, after incremental runs and after a rebuild.
    const dailyEqualsHours = async () => {
      const [w] = await rows<{ d: string }>(t.deps.db, sql`select date_trunc('day', rolled_until, 'UTC')::text as d from dashboard_rollup_state`);
      const daily = await rows(t.deps.db, sql`select day::text d, metric, k1, k2, n::text, sum::text s, sum2::text s2 from dashboard_daily order by 1, 2, 3, 4`);
      const fromHours = await rows(t.deps.db, sql`select date_trunc('day', hour, 'UTC')::text d, metric, k1, k2, sum(n)::text n, sum(sum)::text s, sum(sum2)::text s2
        from dashboard_hourly where hour < ${w!.d}::timestamptz group by 1, 2, 3, 4 order by 1, 2, 3, 4`);
      expect(daily).toEqual(fromHours);
      expect(daily.length).toBeGreaterThan(0);
      const active = await rows(t.deps.db, sql`select day::text d, user_id from dashboard_active_daily order by 1, 2`);
      const activeFromHours = await rows(t.deps.db, sql`select distinct date_trunc('day', hour, 'UTC')::text d, user_id from dashboard_active_hourly
        where hour < ${w!.d}::timestamptz order by 1, 2`);
      expect(active).toEqual(activeFromHours);
    };
    await dailyEqualsHours();
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const custom = { range: 'custom' as const, from: day(now.getTime() - 12 * DAY), to: day(now.getTime()) };
    const rolled30 = await getDashboard(t.deps.db, { range: '30d' }, now);
    const rolledCustom = await getDashboard(t.deps.db, custom, now);
    expect(rolledCustom.figures.promoCostCents).toEqual({ current: 50 + 25 + 777, previous: 0 });
    await rebuildRollup(t.deps.db, { horizon: new Date(now.getTime() + 3 * HOUR) });
    await dailyEqualsHours();
    expect(await getDashboard(t.deps.db, { range: '30d' }, now)).toEqual(rolled30);
    expect(await getDashboard(t.deps.db, custom, now)).toEqual(rolledCustom);
    // And with nothing rolled at all: the raw rows alone.
    await t.deps.db.execute(sql`delete from dashboard_rollup_state`);
    expect((await getDashboard(t.deps.db, { range: '30d' }, now)).figures).toEqual(rolled30.figures);
    expect((await getDashboard(t.deps.db, custom, now)).figures).toEqual(rolledCustom.figures);
  });
});

describe('active users by day arrays', () => {
  it('count the same rolled (incrementally and from scratch) as from the raw rows, for ranges of whole days and edges', async () => {
    const now = new Date();
    // Four more users, each depositing on a few days spread over 50 days (some twice a day).
    const dayOffsets = [[49, 30, 30, 2], [31, 8], [15, 6.5, 1], [40, 0.2]];
    for (const offsets of dayOffsets) {
      const u = await t.makeUser();
      for (const d of offsets) {
        const m = await move('credit', { userId: u, amountCents: 100, kind: 'deposit', referenceType: 'deposit', referenceId: randomUUID() });
        await backdate([m.entryId], new Date(now.getTime() - d * DAY));
      }
    }
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const ranges = [
      { range: '7d' as const },
      { range: '30d' as const },
      { range: 'custom' as const, from: day(now.getTime() - 45 * DAY), to: day(now.getTime() - 10 * DAY) },
      { range: 'custom' as const, from: day(now.getTime() - 31 * DAY), to: day(now.getTime() - 31 * DAY) },
      { range: 'custom' as const, from: day(now.getTime() - 60 * DAY), to: day(now.getTime()) },
    ];
    const counts = async () => Promise.all(ranges.map(async (q) => (await getDashboard(t.deps.db, q, now)).figures.activeUsers));
    await t.deps.db.execute(sql`delete from dashboard_rollup_state`);
    const raw = await counts();
    expect(raw[4]!.current).toBeGreaterThanOrEqual(4);
    // Incremental runs, each horizon a day and a half later, then one from scratch.
    await rebuildRollup(t.deps.db, { horizon: new Date(now.getTime() - 60 * DAY) });
    for (let h = now.getTime() - 45 * DAY; h < now.getTime() + 2 * HOUR; h += 1.5 * DAY) await rollUp(t.deps.db, { horizon: new Date(h) });
    await rollUp(t.deps.db, { horizon: new Date(now.getTime() + 2 * HOUR) });
    const arrays = async () => rows(t.deps.db, sql`select user_id, last_day, days::text from dashboard_user_days order by 1`);
    const fromDaily = await rows(t.deps.db, sql`select user_id, max(d) as last_day, array_agg(d order by d)::text as days from (
      select user_id, (day at time zone 'UTC')::date - date '1970-01-01' as d from dashboard_active_daily) x group by 1 order by 1`);
    expect(await arrays()).toEqual(fromDaily);
    expect(await counts()).toEqual(raw);
    await rebuildRollup(t.deps.db, { horizon: new Date(now.getTime() + 2 * HOUR) });
    expect(await arrays()).toEqual(fromDaily);
    expect(await counts()).toEqual(raw);
  });
});

describe('sources', () => {
  it('cover [a, b) once, whole days only inside it, hours at the edges, the raw tail after W', () => {
    const at = (s: string) => new Date(s);
    const src = sources(at('2025-01-01T05:00Z'), at('2025-01-10T03:20Z'), at('2025-01-09T07:00Z'), true);
    const iso = (xs: Array<{ from: Date; to: Date }>) => xs.map((x) => [x.from.toISOString(), x.to.toISOString()]);
    expect(iso(src.days)).toEqual([['2025-01-02T00:00:00.000Z', '2025-01-09T00:00:00.000Z']]);
    expect(iso(src.hours)).toEqual([
      ['2025-01-01T05:00:00.000Z', '2025-01-02T00:00:00.000Z'],
      ['2025-01-09T00:00:00.000Z', '2025-01-09T07:00:00.000Z'],
    ]);
    expect(iso([src.tail!])).toEqual([['2025-01-09T07:00:00.000Z', '2025-01-10T03:20:00.000Z']]);
    // Hours only when asked; nothing rolled: all raw.
    expect(sources(at('2025-01-01T05:00Z'), at('2025-01-10T03:20Z'), at('2025-01-09T07:00Z'), false).days).toEqual([]);
    expect(sources(at('2025-01-01T05:00Z'), at('2025-01-02T05:00Z'), null, true)).toEqual({ days: [], hours: [], tail: { from: at('2025-01-01T05:00Z'), to: at('2025-01-02T05:00Z') } });
  });
});

describe.skipIf(process.env.TEST_DB !== 'postgres')('rollup on PostgreSQL', () => {
  it('never rolls past a transaction still open, so its late commit is counted', async () => {
    const [a] = users as [string];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const inTx = new Promise<void>((r) => (started = r));
    const late = t.deps.db.transaction(async (tx) => {
      const m = await credit(tx, { userId: a, amountCents: 4321, kind: 'promo_credit', referenceType: 'promo', referenceId: randomUUID() });
      started();
      await held;
      return m;
    });
    await inTx;
    const before = await getDashboard(t.deps.db, { range: 'today' });
    // From scratch (earlier tests rolled into the future), with the database's own horizon.
    const r = await rebuildRollup(t.deps.db);
    release();
    const { entryId } = await late;
    const [e] = await rows<{ at: string }>(t.deps.db, sql`select created_at::text as at from journal_entries where id = ${entryId}`);
    // The horizon stops before the open transaction's start.
    expect(r.until!.getTime()).toBeLessThanOrEqual(new Date(e!.at).getTime());
    const after = await getDashboard(t.deps.db, { range: 'today' });
    expect(after.figures.promoCostCents.current).toBe(before.figures.promoCostCents.current + 4321);
    await rollUp(t.deps.db);
    expect((await getDashboard(t.deps.db, { range: 'today' })).figures).toEqual(after.figures);
  });
});
