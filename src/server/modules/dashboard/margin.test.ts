import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dashboard, PeriodResult } from '../../../shared/contracts/dashboard.ts';
import { createDrop, dropInput, pastClose } from '../drops/test-support.ts';
import { runDropTransitions } from '../drops/lifecycle.ts';
import { credit, debit } from '../wallet/service.ts';
import { idem, moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';
import { fund, liveProduct, makeCatalog, slots } from '../shop/test-support.ts';
import { rebuildRollup, rows } from './rollup.ts';

/**
 * Issue 38, point 3: the dashboard's revenue, cost of cards and margin are the books' and the
 * inventory's. A realistic mix of activity — purchases (opened and not), openings of a fair and
 * of a losing product, buybacks of pack cards and of prizes, drops, grants and a revoke, promo
 * credit, referral rewards, a deposit refund, shipping fees and a refund, an adjustment — happens
 * twice: once moved two days back, once now. Then the result is computed here by plain SQL over
 * postings, owned_cards, buyback lines and stock movements (not the dashboard's fact queries) and
 * compared with GET /api/admin/dashboard for a past day and for 7 days with the 7 before, per
 * period and per product: from the raw rows, from the rollups, and half rolled.
 */

let t: MoneyTestContext;
let admin: string;
let fair: string;
let losing: string;
let cardIds: { common: string[]; rare: string[] };
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

beforeAll(async () => {
  t = await moneyTestContext();
  // The owner: this pack gives back more than its price, which only the owner sets (ADR 0024).
  admin = await t.makeUser({ role: 'owner' });
  const cat = await makeCatalog(t, [
    { name: 'Common', cards: [{ value: 120, stock: 1000 }, { value: 260, stock: 1000 }] },
    { name: 'Chase', cards: [{ value: 900, stock: 1000 }] },
  ]);
  cardIds = { common: cat.cards.Common!, rare: cat.cards.Chase! };
  // Fair: 1,000 for about 2 × 190 of cards. Losing: 300 for a 900 card, a realised return of 300 %.
  ({ productId: fair } = await liveProduct(t, admin, { name: 'Fair Pack', priceCents: 1000, slots: slots(2, [{ classId: cat.classes.Common!, weight: 1 }]) }));
  ({ productId: losing } = await liveProduct(t, admin, { name: 'Losing Pack', priceCents: 300, slots: slots(1, [{ classId: cat.classes.Chase!, weight: 1 }]) }));
}, 120_000);
afterAll(() => t.close());

const ok = async (res: Response, status = [200, 201]) => {
  expect(status, `${res.status} ${await res.clone().text()}`).toContain(res.status);
  return res;
};
const money = (kind: 'credit' | 'debit', m: Parameters<typeof credit>[1]) =>
  t.deps.db.transaction((tx) => (kind === 'credit' ? credit(tx, m) : debit(tx, m)));
const vault = async (u: string, via: string) =>
  rows<{ id: string }>(t.deps.db, sql`select id::text from owned_cards where owner_id = ${u} and status = 'in_vault' and acquired_via = ${via} order by value_cents desc, id`);

/** One round of everything that moves money or cards. */
async function activity() {
  const [a, b, c] = [await t.makeUser(), await t.makeUser(), await t.makeUser()];
  for (const u of [a, b, c]) await fund(t, u, 20_000);
  // Packs: a opens 3 fair ones, b 2 losing ones, c buys a fair pack and leaves it unopened.
  await ok(await t.as(a).post('/api/shop/open', { productId: fair, quantity: 3 }, idem()));
  await ok(await t.as(b).post('/api/shop/open', { productId: losing, quantity: 2 }, idem()));
  await ok(await t.as(c).post('/api/shop/purchases', { productId: fair, quantity: 1 }, idem()));
  // Buyback: a sells two pack cards, b one.
  await ok(await t.as(a).post('/api/buyback', { ownedCardIds: (await vault(a, 'opening')).slice(0, 2).map((r) => r.id) }, idem()));
  await ok(await t.as(b).post('/api/buyback', { ownedCardIds: (await vault(b, 'opening')).slice(0, 1).map((r) => r.id) }, idem()));
  // A drop: c enters, wins the prize and sells it back.
  const drop = await createDrop(t, admin, dropInput(cardIds.common[1]!, { title: `Drop ${randomUUID().slice(0, 6)}` }));
  await ok(await t.as(c).post(`/api/drops/${drop.id}/entries`));
  await pastClose(t, drop.id);
  await runDropTransitions(t.deps);
  const prize = await vault(c, 'drop');
  expect(prize).toHaveLength(1);
  await ok(await t.as(c).post('/api/buyback', { ownedCardIds: [prize[0]!.id] }, idem()));
  // Grants: two chase cards to b; one revoked, one sold back. And a revoke of one of a's pulls.
  for (let i = 0; i < 2; i++) {
    await ok(await t.as(admin).post('/api/admin/owned/grant', { user: b, cardId: cardIds.rare[0]!, reason: 'Goodwill after an outage' }));
  }
  const granted = await vault(b, 'grant');
  await ok(await t.as(admin).post(`/api/admin/owned/${granted[0]!.id}/revoke`, { reason: 'Granted twice by mistake' }));
  await ok(await t.as(b).post('/api/buyback', { ownedCardIds: [granted[1]!.id] }, idem()));
  await ok(await t.as(admin).post(`/api/admin/owned/${(await vault(a, 'opening'))[0]!.id}/revoke`, { reason: 'Pulled during a pricing error' }));
  // Money only: promo credit, a referral reward and its clawback, a deposit refund, shipping fee and refund, an adjustment.
  await money('credit', { userId: a, amountCents: 150, kind: 'promo_credit', referenceType: 'promo', referenceId: randomUUID() });
  await money('credit', { userId: b, amountCents: 500, kind: 'referral_reward', referenceType: 'referral', referenceId: randomUUID() });
  await money('debit', { userId: b, amountCents: 100, kind: 'referral_clawback', referenceType: 'referral', referenceId: randomUUID() });
  await money('debit', { userId: c, amountCents: 2_000, kind: 'refund', counter: 'clearing:sandbox', referenceType: 'deposit', referenceId: randomUUID() });
  await money('debit', { userId: a, amountCents: 450, kind: 'shipping_fee', referenceType: 'shipment', referenceId: randomUUID() });
  await money('credit', { userId: a, amountCents: 450, kind: 'shipping_refund', referenceType: 'shipment', referenceId: randomUUID() });
  await money('debit', { userId: b, amountCents: 300, kind: 'shipping_fee', referenceType: 'shipment', referenceId: randomUUID() });
  await money('credit', { userId: c, amountCents: 75, kind: 'admin_adjustment', referenceType: 'admin_action', referenceId: randomUUID() });
}

/** Moves every row stamped since `since` back by `days` (the journal and audit log are append-only: triggers off). */
async function moveBack(since: Date, days: number) {
  const by = sql`${`${days} days`}::interval`;
  const at = sql`${since.toISOString()}::timestamptz`;
  await t.deps.db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    for (const [table, cols] of [
      ['journal_entries', ['created_at']],
      ['purchases', ['created_at']],
      ['openings', ['created_at']],
      ['owned_cards', ['acquired_at', 'updated_at']],
      ['buybacks', ['created_at']],
      ['drops', ['drawn_at']],
      ['drop_winners', ['created_at']],
      ['audit_log', ['created_at']],
      ['stock_movements', ['created_at']],
      ['user', ['created_at']],
      ['session', ['created_at']],
    ] as const) {
      for (const col of cols) {
        await tx.execute(sql`update ${sql.identifier(table)} set ${sql.identifier(col)} = ${sql.identifier(col)} - ${by} where ${sql.identifier(col)} >= ${at}`);
      }
    }
  });
}

interface Expected {
  result: PeriodResult;
  products: Map<string, { sales: number; cost: number; paid: number; returned: number }>;
}

/** The period's result from the books and the inventory, by plain SQL (definitions: periodResultSchema). */
async function independent(from: string, to: string): Promise<Expected> {
  const range = (col: string) => sql`${sql.raw(col)} >= ${from}::timestamptz and ${sql.raw(col)} < ${to}::timestamptz`;
  const house = async (code: string) =>
    Number(
      (
        await rows<{ s: string | null }>(
          t.deps.db,
          sql`select sum(p.amount_cents)::text as s from postings p join ledger_accounts la on la.id = p.account_id
            join journal_entries e on e.id = p.entry_id where la.code = ${code} and ${range('e.created_at')}`,
        )
      )[0]?.s ?? 0,
    );
  // Revenue at opening: each opened pack's share of its purchase's pack_sales posting.
  const sales = await rows<{ product: string; s: string }>(
    t.deps.db,
    sql`select o.product_id::text as product, sum(p.amount_cents / pu.quantity)::text as s
      from postings p join ledger_accounts la on la.id = p.account_id and la.code = 'pack_sales'
      join purchases pu on pu.ledger_entry_id = p.entry_id
      join openings o on o.purchase_id = pu.id
      where ${range('o.created_at')} group by 1`,
  );
  const awarded = await rows<{ via: string; product: string | null; s: string }>(
    t.deps.db,
    sql`select acquired_via::text as via, product_id::text as product, sum(value_cents)::text as s from owned_cards
      where ${range('acquired_at')} group by 1, 2`,
  );
  // Sold back: the buyback's ledger entry dates it; its lines say which copy, what was paid and what came back.
  const soldBack = await rows<{ via: string; product: string | null; paid: string; back: string }>(
    t.deps.db,
    sql`select oc.acquired_via::text as via, oc.product_id::text as product, sum(l.amount_cents)::text as paid, sum(l.market_value_cents)::text as back
      from postings p join ledger_accounts la on la.id = p.account_id and la.code = 'buyback_expense'
      join journal_entries e on e.id = p.entry_id
      join buybacks bb on bb.ledger_entry_id = e.id
      join buyback_lines l on l.buyback_id = bb.id
      join owned_cards oc on oc.id = l.owned_card_id
      where ${range('e.created_at')} group by 1, 2`,
  );
  // Revoked: the stock movement back in dates it; the copy's value when awarded comes back.
  const revoked = await rows<{ via: string; product: string | null; back: string }>(
    t.deps.db,
    sql`select oc.acquired_via::text as via, oc.product_id::text as product, sum(oc.value_cents)::text as back
      from stock_movements sm join owned_cards oc on oc.id::text = sm.reference_id
      where sm.reason = 'revoke' and ${range('sm.created_at')} group by 1, 2`,
  );
  const products = new Map<string, { sales: number; cost: number; paid: number; returned: number }>();
  const p = (id: string) => products.get(id) ?? (products.set(id, { sales: 0, cost: 0, paid: 0, returned: 0 }), products.get(id)!);
  for (const r of sales) p(r.product).sales += Number(r.s);
  const total = { cost: 0, giveaways: 0, giveawayPaid: 0, returned: 0, giveawayBack: 0 };
  for (const r of awarded) {
    if (r.via === 'opening') {
      p(r.product!).cost += Number(r.s);
      total.cost += Number(r.s);
    } else total.giveaways += Number(r.s);
  }
  for (const r of [...soldBack, ...revoked.map((x) => ({ ...x, paid: '0' }))]) {
    if (r.via === 'opening') {
      p(r.product!).paid += Number(r.paid);
      p(r.product!).returned += Number(r.back);
      total.returned += Number(r.back);
    } else {
      total.giveawayPaid += Number(r.paid);
      total.giveawayBack += Number(r.back);
    }
  }
  const packRevenueCents = [...products.values()].reduce((s, x) => s + x.sales, 0);
  const promoCents = 0 - (await house('promo_expense'));
  const revenueCents = packRevenueCents - promoCents;
  const buybackPaidCents = 0 - (await house('buyback_expense')) - total.giveawayPaid;
  const grossMarginCents = revenueCents - total.cost - buybackPaidCents + total.returned;
  const shippingNetCents = (await house('shipping_fees')) + (await house('shipping_refunds'));
  const referralCents = 0 - (await house('referral_expense'));
  const giveawaysCents = total.giveaways + total.giveawayPaid - total.giveawayBack;
  const adjustmentsCents = 0 - (await house('admin_adjustments'));
  const chargebackCents = 0 - (await house('chargeback_loss'));
  return {
    products,
    result: {
      packRevenueCents,
      promoCents,
      revenueCents,
      cardCostCents: total.cost,
      buybackPaidCents,
      returnedToStockCents: total.returned,
      grossMarginCents,
      marginBps: revenueCents > 0 ? Math.round((grossMarginCents / revenueCents) * 10_000) : null,
      shippingNetCents,
      referralCents,
      giveawaysCents,
      adjustmentsCents,
      chargebackCents,
      netResultCents: grossMarginCents + shippingNetCents - referralCents - giveawaysCents - adjustmentsCents - chargebackCents,
    },
  };
}

const dashboard = async (q: string) => {
  const res = await ok(await t.as(admin).get(`/api/admin/dashboard${q}`), [200]);
  return (await res.json()) as Dashboard;
};

/** The API's answer agrees with the independent computation, for both periods and every product. */
async function expectReconciled(q: string) {
  const d = await dashboard(q);
  const cur = await independent(d.range.from, d.range.to);
  const prev = await independent(d.range.previousFrom, d.range.from);
  expect(d.result.current, `${q} current`).toEqual(cur.result);
  expect(d.result.previous, `${q} previous`).toEqual(prev.result);
  expect(d.figures.revenueCents).toEqual({ current: cur.result.revenueCents, previous: prev.result.revenueCents });
  expect(d.figures.cardCostCents).toEqual({ current: cur.result.cardCostCents, previous: prev.result.cardCostCents });
  expect(d.figures.grossMarginCents).toEqual({ current: cur.result.grossMarginCents, previous: prev.result.grossMarginCents });
  expect(d.figures.netResultCents).toEqual({ current: cur.result.netResultCents, previous: prev.result.netResultCents });
  // The chart's buckets split the period's gross margin without losing any of it.
  expect(d.series.reduce((s, p) => s + p.grossMarginCents, 0), `${q} series`).toBe(cur.result.grossMarginCents);
  for (const id of [fair, losing]) {
    const got = d.products.find((x) => x.productId === id)!;
    const want = cur.products.get(id) ?? { sales: 0, cost: 0, paid: 0, returned: 0 };
    const margin = want.sales - want.cost - want.paid + want.returned;
    expect(
      { sales: got.salesCents, cost: got.cardCostCents, paid: got.buybackPaidCents, returned: got.returnedToStockCents, margin: got.grossMarginCents },
      `${q} product ${got.name}`,
    ).toEqual({ ...want, margin });
    expect(got.loss).toBe(margin < 0 || want.cost > want.sales);
  }
  return { d, cur, prev };
}

describe('gross margin reconciles with the ledger and the inventory', () => {
  let pastDay: string;
  /** Yesterday and today: the previous period (the two days before) holds the first round. */
  let twoDays: string;

  it('builds two rounds of activity, two days apart', async () => {
    const first = new Date();
    await activity();
    await moveBack(first, 2);
    await activity();
    pastDay = new Date(first.getTime() - 2 * DAY).toISOString().slice(0, 10);
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    twoDays = `?range=custom&from=${day(Date.now() - DAY)}&to=${day(Date.now())}`;
  }, 120_000);

  it('from the raw rows (nothing rolled yet)', async () => {
    await t.deps.db.execute(sql`delete from dashboard_rollup_state`);
    const { d, cur } = await expectReconciled('?range=7d');
    // Everything really happened: both products, every kind of card and money move.
    const r = d.result.current;
    expect(r.packRevenueCents).toBe(2 * (3 * 1000 + 2 * 300));
    expect(r.cardCostCents).toBeGreaterThan(0);
    expect(r.buybackPaidCents).toBeGreaterThan(0);
    expect(r.returnedToStockCents).toBeGreaterThan(0);
    expect(r.promoCents).toBe(300);
    expect(r.referralCents).toBe(800);
    expect(r.shippingNetCents).toBe(600);
    expect(r.adjustmentsCents).toBe(150);
    // Prizes (2 × 260) and grants (4 × 900), less what came back: 2 revoked (900) and 2 + 2 sold back.
    expect(r.giveawaysCents).toBeGreaterThan(0);
    expect(cur.products.get(losing)!.cost).toBe(2 * 2 * 900);
    // Packs bought but not opened are cash taken, not yet revenue.
    expect(d.figures.packSalesCents.current).toBe(r.packRevenueCents + 2 * 1000);
    // The losing product is a loss; the fair one is not.
    const losingRow = d.products.find((p) => p.productId === losing)!;
    expect(losingRow.loss).toBe(true);
    expect(losingRow.realisedRtpBps).toBe(30_000);
    expect(losingRow.grossMarginCents).toBeLessThan(0);
    expect(d.products.find((p) => p.productId === fair)!.loss).toBe(false);
    await expectReconciled(`?range=custom&from=${pastDay}&to=${pastDay}`);
    const { prev } = await expectReconciled(twoDays);
    expect(prev.result.packRevenueCents).toBe(3 * 1000 + 2 * 300);
  });

  it('from the rollups, after a rebuild (daily tier for the past round, hours for today)', async () => {
    await rebuildRollup(t.deps.db, { horizon: new Date(Date.now() + 2 * HOUR) });
    const rolled = await expectReconciled('?range=7d');
    await expectReconciled(`?range=custom&from=${pastDay}&to=${pastDay}`);
    await expectReconciled('?range=30d');
    await expectReconciled(twoDays);
    expect(rolled.cur.result.grossMarginCents).toBe(rolled.d.result.current.grossMarginCents);
  });

  it('half rolled: the past round from the rollups, today from the raw rows', async () => {
    await rebuildRollup(t.deps.db, { horizon: new Date(Date.now() - DAY) });
    await expectReconciled('?range=7d');
    await expectReconciled(`?range=custom&from=${pastDay}&to=${pastDay}`);
    await expectReconciled('?range=today');
    await expectReconciled(twoDays);
  });

  it('the net result subtracts the cards handed out (the old figure did not)', async () => {
    const d = await dashboard('?range=7d');
    const r = d.result.current;
    const cashOnly = d.figures.packSalesCents.current + d.figures.shippingFeesCents.current - d.figures.buybackPaidCents.current - d.figures.promoCostCents.current - d.figures.referralCostCents.current;
    expect(r.netResultCents).toBeLessThan(cashOnly);
    expect(r.netResultCents).toBe(d.figures.netResultCents.current);
  });
});
