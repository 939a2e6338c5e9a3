import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dashboard } from '../../../shared/contracts/dashboard.ts';
import { credit, debit, moneyTransaction } from '../wallet/service.ts';
import { idem, moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';
import { fund, liveProduct, makeCatalog, slots } from '../shop/test-support.ts';
import { reconcileAndStore } from '../books/service.ts';
import { hourlyFacts, rebuildRollup, rollUp, rows } from './rollup.ts';
import { getDashboard } from './service.ts';

let t: MoneyTestContext;
let admin: string;
let productId: string;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const move = (kind: 'credit' | 'debit', m: Parameters<typeof credit>[1]) =>
  moneyTransaction(t.deps, (tx) => (kind === 'credit' ? credit(tx, m) : debit(tx, m)));

/** Moves what happened into the past (the services stamp "now"; the journal is append-only, so its trigger is bypassed). */
async function backdate(entryIds: string[], at: Date) {
  await t.deps.db.execute(sql`set session_replication_role = replica`);
  await t.deps.db.execute(sql`update journal_entries set created_at = ${at.toISOString()}::timestamptz where id in ${sql.raw(`('${entryIds.join("','")}')`)}`);
  await t.deps.db.execute(sql`set session_replication_role = default`);
}

let users: string[];
const opened: { now: number; before: number } = { now: 0, before: 0 };

beforeAll(async () => {
  t = await moneyTestContext();
  admin = await t.makeUser({ role: 'admin' });
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
    expect(f.netResultCents).toEqual({ current: 900 + 400 - 120 - 25 - 500, previous: -50 });
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
        from (${hourlyFacts(sql`'-infinity'::timestamptz`, sql`'infinity'::timestamptz`)}) x group by 1, 2, 3 order by 1, 2, 3`);
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
    const rolled30 = await getDashboard(t.deps.db, { range: '30d' }, now);
    await rebuildRollup(t.deps.db, { horizon: new Date(now.getTime() + 3 * HOUR) });
    expect(await getDashboard(t.deps.db, { range: '30d' }, now)).toEqual(rolled30);
    // And with nothing rolled at all: the raw rows alone.
    await t.deps.db.execute(sql`delete from dashboard_rollup_state`);
    expect((await getDashboard(t.deps.db, { range: '30d' }, now)).figures).toEqual(rolled30.figures);
  });
});
